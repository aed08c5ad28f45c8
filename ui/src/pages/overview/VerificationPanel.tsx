import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type JobsView, type VerificationRun, type VerificationsView } from '../../api';
import { formatCount } from '../../i18n';
import { useSession } from '../../session/session';

/** How often a running verification's progress is asked for. */
const POLL_MS = 700;

/**
 * The last verification (from the ledger's fixity check entries), a button to run one (for the
 * roles that may), and its progress while it runs. The result comes from the server: the page
 * says so, and points to the independent check.
 */
export function VerificationPanel() {
  const { t, i18n } = useTranslation();
  const { api, session } = useSession();
  const [view, setView] = useState<VerificationsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const timer = useRef<number | null>(null);
  const mayRun = session.permissions?.includes('verify.run') ?? false;
  const n = (x: number): string => formatCount(x, i18n.language);

  const refresh = useCallback(async (): Promise<VerificationsView | null> => {
    try {
      const v = await api.get<VerificationsView>('/api/verifications');
      setView(v);
      setError(null);
      return v;
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      return null;
    }
  }, [api]);

  const poll = useCallback(() => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      void refresh().then((v) => {
        if (v?.current?.state === 'running') poll();
      });
    }, POLL_MS);
  }, [refresh]);

  useEffect(() => {
    void refresh().then((v) => {
      if (v?.current?.state === 'running') poll();
    });
    return () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    };
  }, [refresh, poll]);

  const start = async () => {
    setStarting(true);
    try {
      const run = await api.post<VerificationRun>('/api/verifications');
      setView((v) => ({ current: run, recorded: v?.recorded ?? [] }));
      setError(null);
      poll();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setStarting(false);
    }
  };

  const current = view?.current ?? null;
  const running = current?.state === 'running';
  const last = view?.recorded[0];
  const who = (actor: string): string =>
    actor === session.account ? t('overview.verification.you') : actor;

  return (
    <section className="panel" aria-labelledby="verification-heading">
      <h2 id="verification-heading">{t('overview.verification.heading')}</h2>
      {view === null && error === null && <p className="muted">{t('overview.loading')}</p>}
      {view !== null && last === undefined && !running && (
        <p data-testid="verification-none">{t('overview.verification.none')}</p>
      )}
      {last !== undefined && (
        <dl className="facts" data-testid="verification-last">
          <dt>{t('overview.verification.last')}</dt>
          <dd>
            <span
              className={last.result === 'pass' ? 'verified' : 'alert'}
              data-testid="verification-result"
            >
              {last.result === 'pass'
                ? t('overview.verification.passed')
                : t('overview.verification.failed', { count: last.findings })}
            </span>
          </dd>
          <dt>{t('overview.verification.when')}</dt>
          <dd>
            <time dateTime={last.time}>{new Date(last.time).toLocaleString(i18n.language)}</time>
          </dd>
          <dt>{t('overview.verification.by')}</dt>
          <dd>
            <code dir="ltr">{who(last.actor)}</code>
          </dd>
          {last.tree_size !== null && (
            <>
              <dt>{t('overview.verification.covered')}</dt>
              <dd>{n(last.tree_size)}</dd>
            </>
          )}
          <dt>{t('overview.verification.entry')}</dt>
          <dd>{n(last.seq)}</dd>
        </dl>
      )}
      {running && current !== null && (
        <div role="status" aria-live="polite" data-testid="verification-progress">
          <p>
            {current.stage === null
              ? t('overview.verification.running')
              : t('overview.verification.stage', {
                  stage: t(stageKey(current.stage), { defaultValue: current.stage }),
                  done: n(current.done),
                })}
          </p>
          {current.total !== null && current.total > 0 ? (
            <progress
              max={current.total}
              value={current.done}
              aria-label={t('overview.verification.running')}
            />
          ) : (
            <progress aria-label={t('overview.verification.running')} />
          )}
        </div>
      )}
      {current !== null && current.state === 'done' && current.findings.length > 0 && (
        <details>
          <summary>
            {t('overview.verification.findings', { count: current.findings_total })}
          </summary>
          <ul className="findings" data-testid="verification-findings">
            {current.findings.map((f, i) => (
              <li key={i}>
                <code dir="ltr">{f.code}</code>{' '}
                {f.subject !== null && <code dir="ltr">{f.subject}</code>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {current?.state === 'failed' && (
        <p className="alert" role="alert">
          {t('overview.verification.stopped', { message: current.error ?? '' })}
        </p>
      )}
      {error !== null && (
        <p className="alert" role="alert">
          {t('overview.verification.error', { message: error })}
        </p>
      )}
      {mayRun && (
        <button
          type="button"
          className="button primary"
          onClick={() => void start()}
          disabled={running || starting}
          data-testid="verify-now"
        >
          {running ? t('overview.verification.running') : t('overview.verification.run')}
        </button>
      )}
      <p className="caveat">{t('overview.verification.caveat')}</p>
    </section>
  );
}

function stageKey(stage: string): string {
  switch (stage) {
    case 'replaying the ledger':
      return 'overview.verification.stages.replay';
    case 'hashing objects':
      return 'overview.verification.stages.hash';
    case 'recording':
      return 'overview.verification.stages.record';
    default:
      return 'overview.verification.stages.start';
  }
}

/** Analysis jobs by state. */
export function JobsPanel() {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const [jobs, setJobs] = useState<JobsView | null>(null);
  useEffect(() => {
    let live = true;
    api.get<JobsView>('/api/jobs').then(
      (j) => live && setJobs(j),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  if (jobs === null) return null;
  const a = jobs.analyze_image;
  const total = a.pending + a.running + a.done + a.skipped + a.failed;
  const finished = a.done + a.skipped + a.failed;
  const n = (x: number): string => formatCount(x, i18n.language);
  return (
    <section className="panel" aria-labelledby="jobs-heading">
      <h2 id="jobs-heading">{t('overview.jobs.heading')}</h2>
      {total === 0 ? (
        <p>{t('overview.jobs.none')}</p>
      ) : (
        <>
          <progress max={total} value={finished} aria-label={t('overview.jobs.heading')} />
          <dl className="facts" data-testid="jobs">
            <dt>{t('overview.jobs.done')}</dt>
            <dd>{n(a.done)}</dd>
            <dt>{t('overview.jobs.pending')}</dt>
            <dd>{n(a.pending + a.running)}</dd>
            <dt>{t('overview.jobs.skipped')}</dt>
            <dd>{n(a.skipped)}</dd>
            <dt>{t('overview.jobs.failed')}</dt>
            <dd>{n(a.failed)}</dd>
          </dl>
          {a.pending + a.running > 0 && <p className="muted">{t('overview.jobs.how')}</p>}
        </>
      )}
    </section>
  );
}
