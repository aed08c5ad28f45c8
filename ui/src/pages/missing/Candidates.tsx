import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../i18n';
import { useSession } from '../../session/session';
import { useLoad } from '../catalogue/useLoad';
import { ReviewForm } from './Identification';
import type { Candidate, CandidatesView, SubjectLink } from './types';

/**
 * Candidate subjects for a report, each with the factors that rank it. Never a photograph (issue
 * 15: "Candidates never show a photograph by themselves"), and never an identification: the
 * notice says so above the list.
 */
export function Candidates({
  id,
  links,
  onReviewed,
}: {
  id: string;
  /** The reviewed links (null while loading): a candidate's review form shows its decision. */
  links: SubjectLink[] | null;
  onReviewed(): void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const lng = i18n.language;
  const [load] = useLoad(`candidates ${id}`, () =>
    api.get<CandidatesView>(`/api/missing/${encodeURIComponent(id)}/candidates`),
  );
  return (
    <section className="panel" aria-labelledby="report-candidates" data-testid="candidates">
      <h2 id="report-candidates">{t('missingReport.candidates.heading')}</h2>
      <p className="notice" role="note" data-testid="candidates-notice">
        {t('missingReport.candidates.notice')}
      </p>
      {load.state === 'loading' && (
        <p className="muted" role="status">
          {t('missingReport.candidates.loading')}
        </p>
      )}
      {load.state === 'failed' && (
        <p className="alert" role="alert">
          {t('missingReport.candidates.error', { message: load.message })}
        </p>
      )}
      {load.state === 'ready' && load.value.candidates.length === 0 && (
        <p className="muted">{t('missingReport.candidates.none')}</p>
      )}
      {load.state === 'ready' && load.value.candidates.length > 0 && (
        <>
          <p className="muted">
            {t('missingReport.candidates.intro', {
              shown: formatCount(load.value.candidates.length, lng),
              total: formatCount(load.value.subjects, lng),
            })}
          </p>
          <ol className="candidates">
            {load.value.candidates.map((c) => (
              <CandidateItem key={c.subject} c={c}>
                <ReviewForm
                  report={id}
                  subject={c.subject}
                  current={links?.find((l) => l.subject === c.subject)}
                  onDone={onReviewed}
                />
              </CandidateItem>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function CandidateItem({ c, children }: { c: Candidate; children?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const n = (x: number) => formatCount(x, lng);
  const headingId = `candidate-${c.subject}`;
  return (
    <li className="candidate" data-testid="candidate" data-subject={c.subject}>
      <h3 id={headingId}>
        {t('missingReport.candidates.candidate', { rank: n(c.rank), subject: c.subject })}
        {c.number !== null && (
          <span className="muted">
            {' · '}
            {t('missingReport.candidates.number', { number: `\u2068${c.number}\u2069` })}
          </span>
        )}
      </h3>
      <p data-testid="candidate-counts">
        {t('missingReport.candidates.counts', {
          agreed: n(c.agreed),
          close: n(c.close),
          disagreed: n(c.disagreed),
          missing: n(c.missing),
        })}
      </p>
      <div className="table-wrap">
        <table
          className="data-table factors"
          aria-label={t('missingReport.candidates.factorsLabel', { subject: c.subject })}
        >
          <thead>
            <tr>
              <th scope="col">{t('missingReport.candidates.factor')}</th>
              <th scope="col">{t('missingReport.candidates.outcome')}</th>
              <th scope="col">{t('missingReport.candidates.detail')}</th>
            </tr>
          </thead>
          <tbody>
            {c.factors.map((f) => (
              <tr
                key={f.factor}
                data-testid="factor"
                data-factor={f.factor}
                data-outcome={f.outcome}
              >
                <th scope="row">{t(`missingReport.candidates.factors.${f.factor}`)}</th>
                <td>
                  <span className={`outcome outcome-${f.outcome}`}>
                    {t(`missingReport.candidates.outcomes.${f.outcome}`)}
                  </span>
                </td>
                <td>
                  {/* The server's reasoning, in English as `custody missing candidates` prints it. */}
                  <bdi dir="ltr" lang="en">
                    {f.detail}
                  </bdi>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {children}
    </li>
  );
}
