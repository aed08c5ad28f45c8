import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError, type SubjectDetail, type SubjectPage, type SubjectRow, type UnitsView } from '../../api';
import { formatCount } from '../../i18n';
import { Link, useLocationSearch } from '../../router';
import { useSession } from '../../session/session';
import { otherName, unitName, type UnitRow } from './figures';
import { useLoad } from './useLoad';
import './catalogue.css';

export const SUBJECTS_PAGE = 20;

/**
 * The subjects, a page of 20 at a time (the page is in the URL), or one subject (`?id=`): its
 * number and the parts of it, its unit, its photographs as blurred previews, and its history,
 * which is its ledger entries.
 */
export function SubjectsPage() {
  const search = new URLSearchParams(useLocationSearch());
  const id = search.get('id');
  if (id !== null) return <SubjectView key={id} id={id} />;
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  return <SubjectList page={page} />;
}

function useUnits(): Map<string, UnitRow> {
  const { api } = useSession();
  const [units] = useLoad('units', () => api.get<UnitsView>('/api/units'));
  return new Map(units.state === 'ready' ? units.value.units.map((u) => [u.id, u]) : []);
}

export function sexLabel(t: TFunction, sex: string | null): string {
  if (sex === null) return t('subjects.notRecorded');
  return sex === 'male' || sex === 'female' || sex === 'unknown' ? t(`subjects.sex.${sex}`) : sex;
}

function statusLabel(t: TFunction, status: string): string {
  return status === 'active' || status === 'merged' ? t(`subjects.status.${status}`) : status;
}

/** Text of either direction inside a sentence of the other (Unicode FSI … PDI). */
export function isolate(s: string): string {
  return `\u2068${s}\u2069`;
}

function numberOf(s: SubjectRow): string | null {
  return s.number_normalised ?? s.number_raw;
}

function SubjectList({ page }: { page: number }) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const units = useUnits();
  const [load] = useLoad(`subjects ${page}`, () =>
    api.get<SubjectPage>('/api/subjects', { limit: SUBJECTS_PAGE, offset: (page - 1) * SUBJECTS_PAGE }),
  );
  const lng = i18n.language;
  return (
    <div className="page catalogue-page">
      <h1>{t('subjects.heading')}</h1>
      <p className="muted">{t('subjects.intro')}</p>
      {load.state === 'loading' && (
        <p className="muted" role="status">
          {t('subjects.loading')}
        </p>
      )}
      {load.state === 'failed' && (
        <p className="alert" role="alert">
          {t('subjects.error', { message: load.message })}
        </p>
      )}
      {load.state === 'ready' && load.value.total === 0 && (
        <div className="empty">
          <h2>{t('subjects.empty.heading')}</h2>
          <p>{t('subjects.empty.body')}</p>
        </div>
      )}
      {load.state === 'ready' && load.value.total > 0 && (
        <>
          <p className="muted" data-testid="subject-count">
            {t('subjects.count', { n: formatCount(load.value.total, lng) })}
          </p>
          <div className="table-wrap">
            <table className="data-table" aria-label={t('subjects.tableLabel', { page: formatCount(page, lng) })}>
              <thead>
                <tr>
                  <th scope="col">{t('subjects.columns.number')}</th>
                  <th scope="col">{t('subjects.columns.unit')}</th>
                  <th scope="col">{t('subjects.columns.sex')}</th>
                  <th scope="col">{t('subjects.columns.age')}</th>
                  <th scope="col">{t('subjects.columns.died')}</th>
                  <th scope="col">{t('subjects.columns.status')}</th>
                </tr>
              </thead>
              <tbody>
                {load.value.subjects.map((s) => {
                  const u = s.unit_id === null ? undefined : units.get(s.unit_id);
                  return (
                    <tr key={s.id} data-testid="subject-row">
                      <td>
                        <Link href={`/subjects?id=${s.id}`}>
                          <bdi>{numberOf(s) ?? t('subjects.noNumber')}</bdi>
                        </Link>
                      </td>
                      <td>{u === undefined ? t('subjects.noUnit') : <bdi>{unitName(u, lng)}</bdi>}</td>
                      <td>{sexLabel(t, s.sex)}</td>
                      <td>
                        <bdi>{s.age_band ?? t('subjects.notRecorded')}</bdi>
                      </td>
                      <td>
                        <bdi>{s.date_of_death ?? t('subjects.notRecorded')}</bdi>
                      </td>
                      <td>{statusLabel(t, s.status)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager page={page} pages={Math.max(1, Math.ceil(load.value.total / SUBJECTS_PAGE))} />
        </>
      )}
    </div>
  );
}

function Pager({ page, pages }: { page: number; pages: number }) {
  const { t, i18n } = useTranslation();
  if (pages <= 1) return null;
  const n = (x: number): string => formatCount(x, i18n.language);
  return (
    <nav className="pager" aria-label={t('subjects.pager.label')}>
      {page > 1 ? (
        <Link href={`/subjects?page=${page - 1}`} className="button quiet">
          {t('subjects.pager.previous')}
        </Link>
      ) : (
        <span />
      )}
      <span aria-current="page">{t('subjects.pager.position', { page: n(page), pages: n(pages) })}</span>
      {page < pages ? (
        <Link href={`/subjects?page=${page + 1}`} className="button quiet">
          {t('subjects.pager.next')}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

function SubjectView({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const units = useUnits();
  // How many photographs were just unlinked: kept here, as the subject is read again after it.
  const [unlinked, setUnlinked] = useState<number | null>(null);
  const [load, reload] = useLoad(`subject ${id}`, () =>
    api.get<SubjectDetail>(`/api/subjects/${encodeURIComponent(id)}`),
  );
  const lng = i18n.language;
  if (load.state !== 'ready')
    return (
      <div className="page catalogue-page">
        <p>
          <Link href="/subjects">{t('subject.back')}</Link>
        </p>
        <h1>{t('subjects.heading')}</h1>
        {load.state === 'loading' ? (
          <p className="muted" role="status">
            {t('subject.loading')}
          </p>
        ) : (
          <p className="alert" role="alert">
            {t('subject.error', { message: load.message })}
          </p>
        )}
      </div>
    );
  const s = load.value;
  const number = numberOf(s);
  const u = s.unit_id === null ? undefined : units.get(s.unit_id);
  const fields = Object.entries(s.fields ?? {});
  const other = u === undefined ? null : otherName(u, lng);
  const rec = (v: string | null) => <bdi>{v ?? t('subjects.notRecorded')}</bdi>;
  return (
    <div className="page catalogue-page">
      <p>
        <Link href="/subjects">{t('subject.back')}</Link>
      </p>
      <h1 data-testid="subject-heading">
        {number === null ? t('subject.headingNoNumber') : t('subject.heading', { number: isolate(number) })}
      </h1>
      <section className="panel" aria-labelledby="subject-facts">
        <h2 id="subject-facts">{t('subject.facts.heading')}</h2>
        <dl className="facts">
          <dt>{t('subject.facts.numberRaw')}</dt>
          <dd data-testid="subject-number">{rec(s.number_raw)}</dd>
          <dt>{t('subject.facts.numberNormalised')}</dt>
          <dd>{rec(s.number_normalised)}</dd>
          {s.scheme_id !== null && (
            <>
              <dt>{t('subject.facts.scheme')}</dt>
              <dd>
                <code dir="ltr">{s.scheme_id}</code>
              </dd>
            </>
          )}
          {fields.length > 0 && (
            <>
              <dt>{t('subject.numberFields')}</dt>
              <dd>
                <dl className="number-fields" data-testid="number-fields">
                  {fields.map(([k, v]) => (
                    <div key={k}>
                      <dt>
                        <code dir="ltr">{k}</code>
                      </dt>
                      <dd>
                        <bdi>{String(v)}</bdi>
                      </dd>
                    </div>
                  ))}
                </dl>
              </dd>
            </>
          )}
          <dt>{t('subject.facts.unit')}</dt>
          <dd data-testid="subject-unit">
            {u === undefined ? (
              t('subjects.noUnit')
            ) : (
              <>
                <bdi>{unitName(u, lng)}</bdi>
                {other !== null && (
                  <span className="muted">
                    {' · '}
                    <bdi lang={lng === 'ar' ? 'en' : 'ar'} dir={lng === 'ar' ? 'ltr' : 'rtl'}>
                      {other}
                    </bdi>
                  </span>
                )}
                {u.code !== null && <span className="muted"> · {t('units.code', { code: String(u.code) })}</span>}
              </>
            )}
          </dd>
          <dt>{t('subject.facts.sex')}</dt>
          <dd>{sexLabel(t, s.sex)}</dd>
          <dt>{t('subject.facts.age')}</dt>
          <dd>{rec(s.age_band)}</dd>
          <dt>{t('subject.facts.died')}</dt>
          <dd>{rec(s.date_of_death)}</dd>
          <dt>{t('subject.facts.photographed')}</dt>
          <dd>{rec(s.date_of_photography)}</dd>
          <dt>{t('subject.facts.status')}</dt>
          <dd>{statusLabel(t, s.status)}</dd>
          {s.merged_into !== null && (
            <>
              <dt>{t('subject.facts.mergedInto')}</dt>
              <dd>
                <Link href={`/subjects?id=${s.merged_into}`}>
                  <code dir="ltr">{s.merged_into}</code>
                </Link>
              </dd>
            </>
          )}
          {s.notes !== null && (
            <>
              <dt>{t('subject.facts.notes')}</dt>
              <dd>
                <bdi>{s.notes}</bdi>
              </dd>
            </>
          )}
          <dt>{t('subject.facts.id')}</dt>
          <dd>
            <code dir="ltr">{s.id}</code>
          </dd>
        </dl>
      </section>
      <Photos
        subject={s.id}
        items={s.items}
        unlinked={unlinked}
        onUnlinked={(n) => {
          setUnlinked(n);
          reload();
        }}
      />
      <History history={s.history} />
    </div>
  );
}

/**
 * The subject's photographs as blurred previews; for a role that may change the catalogue, each can
 * be selected and unlinked with a reason (POST /api/subjects/:id/unlink, a 'subject.unlink' ledger
 * entry with the reason and the account), after which the subject is read again.
 */
function Photos({
  subject,
  items,
  unlinked,
  onUnlinked,
}: {
  subject: string;
  items: readonly string[];
  unlinked: number | null;
  onUnlinked(n: number): void;
}) {
  const { t, i18n } = useTranslation();
  const { api, session } = useSession();
  const lng = i18n.language;
  const canUnlink = (session.permissions ?? []).includes('catalogue.write');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'invalid' | 'failed'; message: string } | null>(
    null,
  );
  const chosen = items.filter((i) => selected.has(i));
  const toggle = (item: string, on: boolean): void => {
    const next = new Set(selected);
    if (on) next.add(item);
    else next.delete(item);
    setSelected(next);
  };
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (chosen.length === 0)
      return setOutcome({ kind: 'invalid', message: t('subject.unlink.needSelection') });
    if (reason.trim() === '')
      return setOutcome({ kind: 'invalid', message: t('subject.unlink.needReason') });
    setBusy(true);
    try {
      await api.post(`/api/subjects/${encodeURIComponent(subject)}/unlink`, {
        items: chosen,
        reason,
      });
      setOutcome(null);
      setSelected(new Set());
      setReason('');
      onUnlinked(chosen.length);
    } catch (err) {
      setOutcome({
        kind: 'failed',
        message: err instanceof ApiError ? `${err.message} (${err.code})` : String(err),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="subject-photos">
      <h2 id="subject-photos">{t('subject.photos.heading', { n: formatCount(items.length, lng) })}</h2>
      {unlinked !== null && (
        <p className="notice" role="status" data-testid="unlink-done">
          {t('subject.unlink.done', { n: formatCount(unlinked, lng) })}
        </p>
      )}
      {items.length === 0 ? (
        <p>{t('subject.photos.none')}</p>
      ) : (
        <>
          <p className="muted">{t('subject.photos.intro')}</p>
          <ul className="thumbs" data-testid="subject-photos">
            {items.map((item) => (
              <li key={item} data-item={item}>
                <img
                  className="blurred-preview"
                  src={`/api/items/${item}/preview?size=256`}
                  alt={t('subject.photos.alt')}
                  loading="lazy"
                  decoding="async"
                />
                <code dir="ltr">{item}</code>
                {canUnlink && (
                  <label className="check">
                    <input
                      type="checkbox"
                      data-testid="unlink-check"
                      checked={selected.has(item)}
                      onChange={(e) => toggle(item, e.target.checked)}
                    />
                    {t('subject.unlink.select')}
                  </label>
                )}
              </li>
            ))}
          </ul>
          {canUnlink && (
            <form className="unlink-form" onSubmit={(e) => void submit(e)}>
              <h3>{t('subject.unlink.heading')}</h3>
              <p className="muted">{t('subject.unlink.intro')}</p>
              <div className="field">
                <label htmlFor="unlink-reason">{t('subject.unlink.reason')}</label>
                <textarea
                  id="unlink-reason"
                  rows={2}
                  aria-required="true"
                  value={reason}
                  maxLength={2000}
                  aria-describedby="unlink-reason-hint"
                  onChange={(e) => setReason(e.target.value)}
                />
                <p id="unlink-reason-hint" className="muted hint">
                  {t('subject.unlink.reasonHint')}
                </p>
              </div>
              {outcome !== null && (
                <p className="alert" role="alert" data-testid="unlink-failed">
                  {outcome.kind === 'failed'
                    ? t('subject.unlink.failed', { message: outcome.message })
                    : outcome.message}
                </p>
              )}
              <button type="submit" className="button" disabled={busy}>
                {busy
                  ? t('subject.unlink.unlinking')
                  : t('subject.unlink.submit', { n: formatCount(chosen.length, lng) })}
              </button>
            </form>
          )}
        </>
      )}
    </section>
  );
}

function History({ history }: { history: SubjectDetail['history'] }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const action = (a: string): string => {
    const k = a.replace(/^subject\./, '');
    return ['create', 'update', 'link', 'unlink', 'merge', 'split'].includes(k)
      ? t(`subject.actions.${k as 'create'}`)
      : a;
  };
  const time = (iso: string): string => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime())
      ? iso
      : new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(d);
  };
  return (
    <section className="panel" aria-labelledby="subject-history">
      <h2 id="subject-history">{t('subject.history.heading')}</h2>
      <p className="muted">{t('subject.history.intro')}</p>
      {history.length === 0 ? (
        <p>{t('subject.history.none')}</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table" aria-labelledby="subject-history">
            <thead>
              <tr>
                <th scope="col">{t('subject.history.seq')}</th>
                <th scope="col">{t('subject.history.time')}</th>
                <th scope="col">{t('subject.history.actor')}</th>
                <th scope="col">{t('subject.history.action')}</th>
                <th scope="col">{t('subject.history.reason')}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <tr key={`${h.seq}-${h.action}`} data-testid="history-row" data-seq={h.seq}>
                  <td>{formatCount(h.seq, lng)}</td>
                  <td>
                    <time dateTime={h.time}>{time(h.time)}</time>
                  </td>
                  <td>
                    <bdi>{h.actor}</bdi>
                  </td>
                  <td>{action(h.action)}</td>
                  <td>
                    <bdi>{h.reason}</bdi>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
