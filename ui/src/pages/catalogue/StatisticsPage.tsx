import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { FindingView, Interval95, StatisticsView } from '../../api';
import { formatCount } from '../../i18n';
import { Link, navigate, useLocationSearch } from '../../router';
import { useSession } from '../../session/session';
import { alphaBand, coefficient, percent, unitName } from './figures';
import { PrevalenceChart } from './PrevalenceChart';
import { useLoad } from './useLoad';
import './catalogue.css';

/**
 * A plan's statistics (GET /api/statistics/:plan, as `custody stats --json`): prevalence per
 * finding (the weighted estimate named as weighted, the raw count, the interval and its method),
 * agreement per finding on Krippendorff's scale, the breakdown by unit, and the checkpoint every
 * figure was computed from, named on each table. The plan is in the URL (`?plan=`).
 */
export function StatisticsPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const plan = new URLSearchParams(useLocationSearch()).get('plan');
  const [draft, setDraft] = useState(plan ?? '');
  const [load] = useLoad(plan, () =>
    api.get<StatisticsView>(`/api/statistics/${encodeURIComponent(plan ?? '')}`),
  );
  // The plans to choose from (GET /api/statistics); the box still takes any name or id.
  const [plans, setPlans] = useState<{ id: string; name: string; method: string; size: number }[]>(
    [],
  );
  useEffect(() => {
    let live = true;
    api.get<{ plans: typeof plans }>('/api/statistics').then(
      (r) => live && setPlans(r.plans),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const name = draft.trim();
    navigate(name === '' ? '/statistics' : `/statistics?plan=${encodeURIComponent(name)}`);
  };
  return (
    <div className="page catalogue-page">
      <h1>{t('statistics.heading')}</h1>
      <p className="muted">{t('statistics.intro')}</p>
      <form className="plan-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="plan-name">{t('statistics.plan')}</label>
          <input
            id="plan-name"
            dir="auto"
            value={draft}
            aria-describedby="plan-hint"
            list="plan-list"
            onChange={(e) => setDraft(e.target.value)}
          />
          <datalist id="plan-list">
            {plans.map((p) => (
              <option key={p.id} value={p.name} />
            ))}
          </datalist>
          <p id="plan-hint" className="muted hint">
            {t('statistics.planHint')}
          </p>
        </div>
        <button type="submit" className="button quiet">
          {t('statistics.show')}
        </button>
      </form>
      {plan === null && <p>{t('statistics.noPlan')}</p>}
      {plan === null && plans.length > 0 && (
        <nav aria-label={t('statistics.plans')}>
          <p>{t('statistics.plans')}</p>
          <ul data-testid="plan-links">
            {plans.map((p) => (
              <li key={p.id}>
                <Link href={`/statistics?plan=${encodeURIComponent(p.name)}`}>
                  <bdi>{p.name}</bdi>
                </Link>{' '}
                <span className="muted">
                  ({p.method}, {p.size})
                </span>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {plan !== null && load.state === 'loading' && (
        <p className="muted" role="status">
          {t('statistics.loading')}
        </p>
      )}
      {plan !== null && load.state === 'failed' && (
        <p className="alert" role="alert">
          {t('statistics.error', { message: `${load.message} (${load.code})` })}
        </p>
      )}
      {plan !== null && load.state === 'ready' && <Figures view={load.value} />}
    </div>
  );
}

export function intervalText(
  t: TFunction,
  i: { lower: number | null; upper: number | null },
  lng: string,
  fmt = percent,
): string {
  if (i.lower === null || i.upper === null) return '—';
  // Each bound isolated left to right (LRI … PDI): a negative bound keeps its sign in Arabic.
  const ltr = (x: number): string => `\u2066${fmt(x, lng)}\u2069`;
  return t('statistics.interval', { lower: ltr(i.lower), upper: ltr(i.upper) });
}

function Figures({ view }: { view: StatisticsView }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const n = (x: number): string => formatCount(x, lng);
  const at = t('statistics.checkpoint.caption', { size: n(view.checkpoint.tree_size) });
  const s = view.sample;
  // The findings the chart draws: those with an estimate (the server leaves the others out).
  const charted = view.findings.filter((f) => f.assessed > 0 && estimateOf(f) !== null).length;
  return (
    <>
      <section
        className="panel"
        aria-labelledby="checkpoint-heading"
        data-testid="stats-checkpoint"
      >
        <h2 id="checkpoint-heading">{t('statistics.checkpoint.heading')}</h2>
        <p>{t('statistics.checkpoint.body')}</p>
        <dl className="facts">
          <dt>{t('statistics.checkpoint.size')}</dt>
          <dd data-testid="stats-checkpoint-size">{n(view.checkpoint.tree_size)}</dd>
          <dt>{t('statistics.checkpoint.root')}</dt>
          <dd>
            <code dir="ltr" className="digest" data-testid="stats-checkpoint-root">
              {view.checkpoint.root}
            </code>
          </dd>
        </dl>
        <p className={view.checkpoint.signed ? 'verified' : 'alert'}>
          {view.checkpoint.signed
            ? t('statistics.checkpoint.signed')
            : t('statistics.checkpoint.unsigned')}
        </p>
      </section>
      <section className="panel" aria-labelledby="sample-heading">
        <h2 id="sample-heading">
          {t('statistics.sample.heading')}: <bdi>{s.name}</bdi>
        </h2>
        <dl className="facts">
          <dt>{t('statistics.sample.method')}</dt>
          <dd data-testid="stats-method">
            {t(`statistics.sample.methods.${s.method}`)}
            {s.stratify !== null && ` ${t(`statistics.sample.by.${s.stratify}`)}`}
          </dd>
          <dt>{t('statistics.sample.drawn')}</dt>
          <dd>{n(s.size)}</dd>
          <dt>{t('statistics.sample.frame')}</dt>
          <dd>{n(s.frame_size)}</dd>
          <dt>{t('statistics.sample.final')}</dt>
          <dd>
            {n(view.cases.final)}
            {(view.cases.awaiting_submissions > 0 || view.cases.awaiting_adjudication > 0) && (
              <span className="muted">
                {' · '}
                {t('statistics.sample.awaiting', {
                  submissions: n(view.cases.awaiting_submissions),
                  adjudication: n(view.cases.awaiting_adjudication),
                })}
              </span>
            )}
          </dd>
          <dt>{t('statistics.sample.codebook')}</dt>
          <dd>
            <code dir="ltr">{view.codebook.version}</code>
          </dd>
        </dl>
      </section>
      <Prevalence findings={view.findings} caption={at} />
      {charted > 0 && <PrevalenceChart plan={s.name} findings={charted} />}
      <Agreement findings={view.findings} caption={at} />
      <ByUnit findings={view.findings} caption={at} />
    </>
  );
}

function estimateOf(
  f: FindingView,
): { weighted: boolean; value: number; interval: Interval95 } | null {
  if (f.stratified !== null)
    return { weighted: true, value: f.stratified.estimate, interval: f.stratified.interval };
  if (f.proportion !== null && f.wilson !== null)
    return { weighted: false, value: f.proportion, interval: f.wilson };
  return null;
}

function Prevalence({ findings, caption }: { findings: FindingView[]; caption: string }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const n = (x: number): string => formatCount(x, lng);
  return (
    <section className="panel" aria-labelledby="prevalence-heading">
      <h2 id="prevalence-heading">{t('statistics.prevalence.heading')}</h2>
      <p className="muted">{t('statistics.prevalence.intro')}</p>
      <div className="table-wrap">
        <table className="data-table" data-testid="prevalence-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t('statistics.prevalence.finding')}</th>
              <th scope="col">{t('statistics.prevalence.estimate')}</th>
              <th scope="col">{t('statistics.prevalence.interval')}</th>
              <th scope="col">{t('statistics.prevalence.method')}</th>
              <th scope="col">{t('statistics.prevalence.raw')}</th>
            </tr>
          </thead>
          <tbody>
            {findings.map((f) => {
              const e = estimateOf(f);
              return (
                <tr key={f.code} data-testid="prevalence-row" data-finding={f.code}>
                  <th scope="row">
                    <bdi>{f.label}</bdi>
                  </th>
                  <td>
                    {e === null ? (
                      t('statistics.prevalence.none')
                    ) : (
                      <>
                        <strong>{percent(e.value, lng)}</strong>
                        <span className="figure-kind">
                          {e.weighted
                            ? t('statistics.prevalence.weighted')
                            : t('statistics.prevalence.unweighted')}
                        </span>
                      </>
                    )}
                  </td>
                  <td>{e === null ? '—' : intervalText(t, e.interval, lng)}</td>
                  <td>
                    {e === null ? (
                      '—'
                    ) : (
                      <bdi lang="en" dir="ltr">
                        {e.interval.method}
                      </bdi>
                    )}
                  </td>
                  <td>
                    {t('statistics.prevalence.rawValue', {
                      present: n(f.present),
                      assessed: n(f.assessed),
                    })}
                    {f.cannot_assess > 0 && (
                      <span className="muted figure-kind">
                        {t('statistics.prevalence.cannot', { n: n(f.cannot_assess) })}
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Agreement({ findings, caption }: { findings: FindingView[]; caption: string }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  return (
    <section className="panel" aria-labelledby="agreement-heading">
      <h2 id="agreement-heading">{t('statistics.agreement.heading')}</h2>
      <p className="muted">{t('statistics.agreement.intro')}</p>
      <div className="scale" data-testid="agreement-scale">
        <h3>{t('statistics.agreement.scaleHeading')}</h3>
        <ul>
          <li>{t('statistics.agreement.scale.perfect')}</li>
          <li>
            <span className="band reliable" aria-hidden="true" />
            {t('statistics.agreement.scale.reliable')}
          </li>
          <li>
            <span className="band tentative" aria-hidden="true" />
            {t('statistics.agreement.scale.tentative')}
          </li>
          <li>
            <span className="band no-conclusion" aria-hidden="true" />
            {t('statistics.agreement.scale.none')}
          </li>
        </ul>
      </div>
      <div className="table-wrap">
        <table className="data-table" data-testid="agreement-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t('statistics.prevalence.finding')}</th>
              <th scope="col">{t('statistics.agreement.alpha')}</th>
              <th scope="col">{t('statistics.prevalence.interval')}</th>
              <th scope="col">{t('statistics.prevalence.method')}</th>
              <th scope="col">{t('statistics.agreement.reading')}</th>
            </tr>
          </thead>
          <tbody>
            {findings.map((f) => {
              const a = f.agreement?.coefficients.find((c) => c.name === 'krippendorff_alpha');
              const band = alphaBand(a?.value ?? null);
              return (
                <tr key={f.code} data-testid="agreement-row" data-finding={f.code} data-band={band}>
                  <th scope="row">
                    <bdi>{f.label}</bdi>
                  </th>
                  <td>
                    {a?.value == null ? '—' : <bdi dir="ltr">{coefficient(a.value, lng)}</bdi>}
                  </td>
                  <td>{a === undefined ? '—' : intervalText(t, a.interval, lng, coefficient)}</td>
                  <td>
                    {a === undefined ? (
                      '—'
                    ) : (
                      <bdi lang="en" dir="ltr">
                        {a.interval.method}
                      </bdi>
                    )}
                  </td>
                  <td>
                    <span className={`band-label ${band}`}>
                      {t(`statistics.agreement.bands.${band}`)}
                    </span>
                    {band === 'not-computable' && (
                      <span className="muted figure-kind">
                        {t('statistics.agreement.notComputable')}
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function ByUnit({ findings, caption }: { findings: FindingView[]; caption: string }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const n = (x: number): string => formatCount(x, lng);
  return (
    <section className="panel" aria-labelledby="units-heading">
      <h2 id="units-heading">{t('statistics.units.heading')}</h2>
      <p className="muted">{t('statistics.units.intro')}</p>
      {findings.map((f) => (
        <div className="table-wrap" key={f.code}>
          <table className="data-table" data-testid="unit-breakdown" data-finding={f.code}>
            <caption>
              <bdi>{f.label}</bdi> · {caption}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('statistics.units.unit')}</th>
                <th scope="col">{t('statistics.units.count')}</th>
                <th scope="col">{t('statistics.units.proportion')}</th>
                <th scope="col">{t('statistics.prevalence.interval')}</th>
              </tr>
            </thead>
            <tbody>
              {f.breakdowns.unit.map((b) => (
                <tr key={b.key}>
                  <th scope="row">
                    {b.unit != null ? (
                      <bdi>{unitName(b.unit, lng)}</bdi>
                    ) : b.key === 'unknown' ? (
                      t('statistics.units.unknown')
                    ) : (
                      <bdi>{b.label ?? b.key}</bdi>
                    )}
                  </th>
                  <td>
                    {t('statistics.prevalence.rawValue', {
                      present: n(b.present),
                      assessed: n(b.assessed),
                    })}
                  </td>
                  <td>{b.proportion === null ? '—' : percent(b.proportion, lng)}</td>
                  <td>
                    {b.interval == null ? (
                      '—'
                    ) : (
                      <>
                        {intervalText(t, b.interval, lng)}{' '}
                        <span className="muted">
                          (
                          <bdi lang="en" dir="ltr">
                            {b.interval.method}
                          </bdi>
                          )
                        </span>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
