import { useTranslation } from 'react-i18next';
import { formatCount } from '../../i18n';
import { Link } from '../../router';
import { useSession } from '../../session/session';
import { useLoad } from '../catalogue/useLoad';
import type { ReportSummary } from './types';
import '../catalogue/catalogue.css';
import './missing.css';

/**
 * The family liaison's list: the reports within the account organisation's consent scope (the
 * server leaves the others out), with the names the family gave; contacts stay sealed.
 */
export function MissingListPage() {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const lng = i18n.language;
  const [load] = useLoad('missing', () => api.get<{ reports: ReportSummary[] }>('/api/missing'));
  return (
    <div className="page catalogue-page">
      <h1>{t('missing.heading')}</h1>
      <p className="muted">{t('missing.intro')}</p>
      {load.state === 'loading' && (
        <p className="muted" role="status">
          {t('missing.loading')}
        </p>
      )}
      {load.state === 'failed' && (
        <p className="alert" role="alert">
          {t('missing.error', { message: load.message })}
        </p>
      )}
      {load.state === 'ready' && load.value.reports.length === 0 && (
        <div className="empty" data-testid="missing-empty">
          <h2>{t('missing.empty.heading')}</h2>
          <p>{t('missing.empty.body')}</p>
        </div>
      )}
      {load.state === 'ready' && load.value.reports.length > 0 && (
        <>
          <p className="muted" data-testid="missing-count">
            {t('missing.count', { n: formatCount(load.value.reports.length, lng) })}
          </p>
          <div className="table-wrap">
            <table className="data-table" aria-label={t('missing.tableLabel')}>
              <thead>
                <tr>
                  <th scope="col">{t('missing.columns.nameAr')}</th>
                  <th scope="col">{t('missing.columns.nameLatin')}</th>
                  <th scope="col">{t('missing.columns.org')}</th>
                  <th scope="col">{t('missing.columns.recorded')}</th>
                  <th scope="col">{t('missing.columns.state')}</th>
                  <th scope="col">{t('missing.columns.reads')}</th>
                </tr>
              </thead>
              <tbody>
                {load.value.reports.map((r) => (
                  <ReportRow key={r.id} r={r} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}

function ReportRow({ r }: { r: ReportSummary }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const named = r.name_ar ?? r.name_latin;
  return (
    <tr data-testid="missing-row" data-report={r.id}>
      <th scope="row">
        <Link href={`/missing/${r.id}`}>
          {named === null ? (
            t('missing.unnamed')
          ) : (
            <bdi dir="auto" lang={r.name_ar === null ? undefined : 'ar'} data-testid="name-ar">
              {named}
            </bdi>
          )}
        </Link>
      </th>
      <td>
        {r.name_latin !== null && (
          <bdi dir="ltr" lang="en" data-testid="name-latin">
            {r.name_latin}
          </bdi>
        )}
      </td>
      <td>
        <bdi dir="auto">{r.org}</bdi>
      </td>
      <td>
        <bdi dir="ltr">{r.recorded_at.slice(0, 10)}</bdi>
      </td>
      <td>{t(`missing.state.${r.key}`)}</td>
      <td>{formatCount(r.contact_reads, lng)}</td>
    </tr>
  );
}
