import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CaseHeading } from './CaseHeading';
import { formatCount } from '../../i18n';
import { Link, useLocationSearch } from '../../router';
import { useSession } from '../../session/session';
import { failureText } from './CasePage';
import { CasePhotos, type CasePhoto } from './Photos';
import { caseHref, statusText, useGet } from './QueuePage';
import { decisionsOf, dependentsOf, fieldsOf, shownDependents } from './decisions';
import { localisedCodebook } from './codebook-text';
import { fieldLabel, valueLabel } from './field-labels';
import { prepareAndSign } from './signing';
import type { AdjudicationQueue, AnswersView, Prepared } from './types';
import './exam.css';

/** The fixed vocabularies (src/examination/codebook/types.ts): what a decision may be, beside the examiners' own values. */
const VOCABULARY: { match: (field: string) => boolean; values: readonly string[] }[] = [
  { match: (f) => f === 'sex', values: ['male', 'female', 'undetermined'] },
  {
    match: (f) => f === 'age_band',
    values: ['<18', '18-29', '30-39', '40-49', '50-59', '60+', 'undetermined'],
  },
  {
    match: (f) => /^findings\.[^.]+\.value$/.test(f),
    values: ['present', 'absent', 'cannot_assess'],
  },
];
const MAX_PHOTOS = 200;

/** The adjudicator's queue: revealed cases whose examiners disagree, by plan and code. */
export function AdjudicationQueuePage() {
  const { t, i18n } = useTranslation();
  const queue = useGet<AdjudicationQueue>('/api/adjudication/queue');
  return (
    <div className="page exam-page">
      <h1>{t('exam.adj.heading')}</h1>
      <p className="muted">{t('exam.adj.intro')}</p>
      {queue.state === 'loading' && <p role="status">{t('exam.loading')}</p>}
      {queue.state === 'failed' && (
        <p className="alert" role="alert">
          {t('exam.error', { message: queue.message })}
        </p>
      )}
      {queue.state === 'ready' && queue.value.cases.length === 0 && <p>{t('exam.adj.empty')}</p>}
      {queue.state === 'ready' && queue.value.cases.length > 0 && (
        <section className="panel" aria-labelledby="adj-cases">
          <h2 id="adj-cases">{t('exam.adj.cases')}</h2>
          <table className="exam-table" data-testid="adjudication-table">
            <thead>
              <tr>
                <th scope="col">{t('exam.adj.plan')}</th>
                <th scope="col">{t('exam.queue.case')}</th>
                <th scope="col">{t('exam.adj.disagreements')}</th>
                <th scope="col">{t('exam.queue.status')}</th>
              </tr>
            </thead>
            <tbody>
              {queue.value.cases.map((c) => (
                <tr key={`${c.plan}-${c.case}`}>
                  <td>{c.plan_name}</td>
                  <td dir="ltr" className="mono">
                    <Link href={caseHref('adjudication', c.plan, c.case)}>{c.case}</Link>
                  </td>
                  <td>{formatCount(c.disagreements, i18n.language)}</td>
                  <td>{statusText(t, c.status)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}

/**
 * The case's photographs: their number comes with the answers; from a server that does not send
 * it, the blurred previews (not recorded) are asked for in turn.
 */
function usePhotos(
  plan: string,
  code: string,
  ready: boolean,
  count: number | undefined,
): CasePhoto[] | null {
  const [photos, setPhotos] = useState<CasePhoto[] | null>(null);
  useEffect(() => {
    if (!ready) return;
    let live = true;
    const base = `/api/plans/${plan}/cases/${code}/photos`;
    if (count !== undefined) {
      setPhotos(
        Array.from({ length: count }, (_, i) => ({
          n: i + 1,
          preview: `${base}/${i + 1}/preview`,
          original: `${base}/${i + 1}/original`,
        })),
      );
      return;
    }
    void (async () => {
      const out: CasePhoto[] = [];
      for (let n = 1; n <= MAX_PHOTOS; n++) {
        const r = await fetch(`${base}/${n}/preview?size=256`, { credentials: 'same-origin' });
        if (!r.ok) break;
        out.push({ n, preview: `${base}/${n}/preview`, original: `${base}/${n}/original` });
      }
      if (live) setPhotos(out);
    })();
    return () => {
      live = false;
    };
  }, [plan, code, ready, count]);
  return photos;
}

export function AdjudicationCasePage() {
  const { t } = useTranslation();
  const search = new URLSearchParams(useLocationSearch());
  const plan = search.get('plan') ?? '';
  const code = search.get('code') ?? '';
  const valid = /^[0-9A-Za-z]{26}$/.test(plan) && /^k-[0-9a-f]{12}$/.test(code);
  const [reload, setReload] = useState(0);
  const data = useGet<AnswersView>(
    valid ? `/api/plans/${plan}/cases/${code}/answers` : null,
    reload,
  );
  const photos = usePhotos(
    plan,
    code,
    data.state === 'ready',
    data.state === 'ready' ? data.value.photos : undefined,
  );
  const [selected, setSelected] = useState(1);
  return (
    <div className="page exam-page">
      <CaseHeading
        back="/adjudication"
        backLabel={t('exam.adj.back')}
        code={code}
        valid={valid}
        load={data}
      />
      {data.state === 'ready' && (
        <div className="exam-columns even">
          {photos === null ? (
            <p role="status">{t('exam.loading')}</p>
          ) : (
            <CasePhotos
              plan={plan}
              code={code}
              photos={photos}
              selected={selected}
              onSelect={setSelected}
            />
          )}
          <Answers key={reload} view={data.value} onDone={() => setReload((r) => r + 1)} />
        </div>
      )}
    </div>
  );
}

function Answers({ view, onDone }: { view: AnswersView; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const answers = view.answers ?? [];
  const rows = answers.map((a) => fieldsOf(a.answer));
  const fields = [...new Set(rows.flatMap((r) => [...r.keys()]))];
  const disputed = view.disagreements ?? [];
  const disputedSet = new Set(disputed.map((d) => d.field));
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(disputed.map((d) => [d.field, d.values[0]?.value ?? ''])),
  );
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [keyPassword, setKeyPassword] = useState('');
  const [sending, setSending] = useState<
    { state: 'idle' | 'working' } | { state: 'failed'; message: string }
  >({ state: 'idle' });
  const finalFields = view.final === null ? null : fieldsOf(view.final);
  // A finding decided 'present' brings its regions, which the adjudicator then sets (issue 13:
  // "any field that follows from the value they decide"), unless they are disputed themselves.
  const shown = shownDependents(dependentsOf([...disputedSet], fields), values);
  // Fields and values by the codebook's labels, in the page's language when the codebook carries
  // a translation into it (else its English); the field names that are not codebook terms in the page's.
  const shownIn = view.codebook === undefined ? null : localisedCodebook(view.codebook, i18n.language);
  const cb = shownIn?.codebook;
  const termLang = shownIn?.text.attrs.lang ?? 'en';
  const label = (field: string): string =>
    fieldLabel(field, cb, {
      sex: t('exam.case.sex'),
      ageBand: t('exam.case.ageBand'),
      regions: (finding) => t('exam.case.regions', { finding }),
    });
  const shownValue = (field: string, value: string | undefined) => (
    <bdi lang={termLang}>{valueLabel(field, value ?? '', cb)}</bdi>
  );

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setSending({ state: 'working' });
    const base = `/api/plans/${view.plan}/cases/${view.case}`;
    const decisions = decisionsOf([...disputedSet], shown, values, reasons);
    try {
      await prepareAndSign(
        api,
        keyPassword,
        () => api.post<Prepared>(`${base}/adjudication/prepare`, { decisions }),
        (token, signature) => api.post(`${base}/adjudication`, { token, signature }),
      );
      setKeyPassword('');
      setSending({ state: 'idle' });
      onDone();
    } catch (err) {
      setSending({ state: 'failed', message: failureText(t, err) });
    }
  };

  return (
    <section className="panel" aria-labelledby="answers-heading">
      <h2 id="answers-heading">{t('exam.adj.answers')}</h2>
      <p className="muted">{statusText(t, view.status)}</p>
      <table className="exam-table answers" data-testid="answers-table">
        <thead>
          <tr>
            <th scope="col">{t('exam.adj.field')}</th>
            {answers.map((_, i) => (
              <th scope="col" key={i}>
                {t('exam.adj.examiner', { n: i + 1 })}
              </th>
            ))}
            {finalFields !== null && <th scope="col">{t('exam.adj.final')}</th>}
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => (
            <tr key={f} className={disputedSet.has(f) ? 'disputed' : undefined} data-field={f}>
              <th scope="row" title={f}>
                <bdi>{label(f)}</bdi>
                {disputedSet.has(f) && <span className="badge">{t('exam.adj.differ')}</span>}
              </th>
              {rows.map((r, i) => (
                <td key={i} data-value={r.get(f) ?? ''}>
                  {shownValue(f, r.get(f))}
                </td>
              ))}
              {finalFields !== null && <td>{shownValue(f, finalFields.get(f))}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      {view.adjudicated ? (
        <p className="ok" role="status" data-testid="adjudicated">
          {t('exam.adj.done')}
        </p>
      ) : (
        disputed.length > 0 && (
          <form className="stack" onSubmit={(e) => void submit(e)} data-testid="decisions">
            <h3>{t('exam.adj.decisions')}</h3>
            {disputed.map((d) => {
              const vocabulary = VOCABULARY.find((v) => v.match(d.field))?.values;
              const options = [
                ...new Set([...d.values.map((v) => v.value), ...(vocabulary ?? [])]),
              ];
              const id = `decide-${d.field.replace(/[^a-z0-9_-]/gi, '-')}`;
              return (
                <fieldset key={d.field} className="decision" data-testid={`decision-${d.field}`}>
                  <legend title={d.field}>
                    <bdi>{label(d.field)}</bdi>
                  </legend>
                  <label htmlFor={id}>
                    {d.field.endsWith('.regions') ? t('exam.adj.regions') : t('exam.adj.value')}
                  </label>
                  {d.field.endsWith('.regions') ? (
                    <input
                      id={id}
                      dir="ltr"
                      value={values[d.field] ?? ''}
                      onChange={(e) => setValues({ ...values, [d.field]: e.target.value })}
                    />
                  ) : (
                    <select
                      id={id}
                      value={values[d.field] ?? ''}
                      onChange={(e) => setValues({ ...values, [d.field]: e.target.value })}
                    >
                      {options.map((o) => (
                        <option key={o} value={o}>
                          {valueLabel(d.field, o, cb)}
                        </option>
                      ))}
                    </select>
                  )}
                  <label>
                    {t('exam.adj.reason')}
                    <textarea
                      rows={2}
                      required
                      value={reasons[d.field] ?? ''}
                      onChange={(e) => setReasons({ ...reasons, [d.field]: e.target.value })}
                    />
                  </label>
                </fieldset>
              );
            })}
            {shown.map((d) => (
              <fieldset key={d.field} className="decision" data-testid={`decision-${d.field}`}>
                <legend title={d.field}>
                  <bdi>{label(d.field)}</bdi>
                </legend>
                <p className="muted small">
                  {t('exam.adj.follows', { field: `\u2068${label(d.value)}\u2069` })}
                </p>
                <label>
                  {t('exam.adj.regions')}
                  <input
                    dir="ltr"
                    value={values[d.field] ?? ''}
                    onChange={(e) => setValues({ ...values, [d.field]: e.target.value })}
                  />
                </label>
                <label>
                  {t('exam.adj.reason')}
                  <textarea
                    rows={2}
                    value={reasons[d.field] ?? ''}
                    onChange={(e) => setReasons({ ...reasons, [d.field]: e.target.value })}
                  />
                </label>
              </fieldset>
            ))}
            <label>
              {t('exam.sign.password')}
              <input
                type="password"
                autoComplete="off"
                value={keyPassword}
                onChange={(e) => setKeyPassword(e.target.value)}
                required
              />
            </label>
            <p className="muted small">{t('exam.sign.note')}</p>
            <button type="submit" className="button primary" disabled={sending.state === 'working'}>
              {sending.state === 'working' ? t('exam.sign.working') : t('exam.adj.sign')}
            </button>
            {sending.state === 'failed' && (
              <p className="alert" role="alert" data-testid="adjudication-failed">
                {sending.message}
              </p>
            )}
          </form>
        )
      )}
    </section>
  );
}
