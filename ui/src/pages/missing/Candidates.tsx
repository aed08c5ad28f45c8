import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../i18n';
import { useSession } from '../../session/session';
import { useLoad } from '../catalogue/useLoad';
import { ReviewForm } from './Identification';
import type { Candidate, CandidatesView, FactorResult, SubjectLink } from './types';

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
  const w = (x: number) => new Intl.NumberFormat(lng, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' }).format(x);
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
          score: w(c.score),
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
              <th scope="col">{t('missingReport.candidates.weight')}</th>
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
                data-weight={f.weight}
              >
                <th scope="row">{t(`missingReport.candidates.factors.${f.factor}`)}</th>
                <td>
                  <span className={`outcome outcome-${f.outcome}`}>
                    {t(`missingReport.candidates.outcomes.${f.outcome}`)}
                  </span>
                </td>
                <td>{w(f.weight)}</td>
                <td data-code={f.code}>
                  <FactorWhy f={f} />
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

/**
 * Why a factor came out as it did, in the page's language, from the server's code and parameters.
 * Names and dates stay as recorded (isolated, so that a Latin unit name or a date keeps its order
 * inside an Arabic sentence). A code this page does not know falls back to the server's English.
 */
function FactorWhy({ f }: { f: FactorResult }) {
  const { t, i18n } = useTranslation();
  const ar = i18n.language.startsWith('ar');
  const key = `missingReport.candidates.why.${f.code}`;
  if (!i18n.exists(key))
    return (
      <bdi dir="ltr" lang="en">
        {f.detail}
      </bdi>
    );
  const iso = (v: string | number | undefined): string =>
    `\u2068${typeof v === 'number' ? formatCount(v, i18n.language) : (v ?? '')}\u2069`;
  const word = (v: string | number | undefined): string => {
    const k = `missingReport.candidates.whyWords.${String(v)}`;
    return i18n.exists(k) ? t(k as never) : iso(v);
  };
  const p = f.params;
  const term = (group: 'markKinds' | 'regions', code: string): string =>
    i18n.exists(`missingReport.${group}.${code}`)
      ? t(`missingReport.${group}.${code}` as never)
      : code;
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(p)) values[k] = iso(v);
  Object.assign(values, {
    unit: iso(ar ? p.unit_ar : p.unit),
    subject_unit: iso(ar ? p.subject_unit_ar : p.subject_unit),
    which: word(p.which),
    event: word(p.event),
    sex: word(p.sex),
    report: word(p.report),
    subject: word(p.subject),
  });
  const marks = (f.marks ?? []).map((m) =>
    t('missingReport.am.mark', {
      kind: term('markKinds', m.kind),
      region: term('regions', m.region),
    }),
  );
  return (
    <span>
      {String(t(key as never, values as never))}
      {marks.length > 0 && ` ${marks.join(ar ? '، ' : ', ')}`}
    </span>
  );
}
