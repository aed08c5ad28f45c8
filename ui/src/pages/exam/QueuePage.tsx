import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { formatCount } from '../../i18n';
import { Link } from '../../router';
import { useSession } from '../../session/session';
import { discardClosedDrafts, expireDrafts } from './drafts';
import type { QueueView } from './types';
import './exam.css';

export type Load<T> =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; value: T };

export function useGet<T>(path: string | null, version = 0): Load<T> {
  const { api } = useSession();
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  useEffect(() => {
    if (path === null) return;
    let live = true;
    setLoad({ state: 'loading' });
    api.get<T>(path).then(
      (value) => live && setLoad({ state: 'ready', value }),
      (e: unknown) =>
        live &&
        setLoad({ state: 'failed', message: e instanceof ApiError ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [api, path, version]);
  return load;
}

export function caseHref(base: 'examination' | 'adjudication', plan: string, code: string): string {
  return `/${base}/case?${new URLSearchParams({ plan, code }).toString()}`;
}

/** The examiner's queue: my plans and my cases, by code only. */
export function QueuePage() {
  const { t, i18n } = useTranslation();
  const n = (x: number): string => formatCount(x, i18n.language);
  const { session } = useSession();
  const queue = useGet<QueueView>('/api/examination/queue');
  useEffect(() => expireDrafts(), []);
  // Drafts of cases no longer mine to answer (submitted, unassigned, plan gone) are deleted.
  useEffect(() => {
    if (queue.state !== 'ready') return;
    const open = new Set(
      queue.value.plans.flatMap((p) =>
        p.cases.filter((c) => c.mine === 'to_submit').map((c) => `${p.plan.id}.${c.case}`),
      ),
    );
    discardClosedDrafts(session.account, open);
  }, [queue, session.account]);
  return (
    <div className="page exam-page">
      <h1>{t('exam.queue.heading')}</h1>
      <p className="muted">{t('exam.queue.intro')}</p>
      {queue.state === 'loading' && <p role="status">{t('exam.loading')}</p>}
      {queue.state === 'failed' && (
        <p className="alert" role="alert">
          {t('exam.error', { message: queue.message })}
        </p>
      )}
      {queue.state === 'ready' && queue.value.plans.length === 0 && <p>{t('exam.queue.empty')}</p>}
      {queue.state === 'ready' &&
        queue.value.plans.map((p) => (
          <section key={p.plan.id} className="panel" aria-labelledby={`plan-${p.plan.id}`}>
            <h2 id={`plan-${p.plan.id}`}>{t('exam.queue.plan', { name: p.plan.name })}</h2>
            <p className="muted">
              {t('exam.codebook', { version: p.plan.codebook.version })}
              {p.finished && ` · ${t('exam.queue.finished')}`}
            </p>
            <table className="exam-table" data-testid="queue-table">
              <thead>
                <tr>
                  <th scope="col">{t('exam.queue.case')}</th>
                  <th scope="col">{t('exam.queue.mine')}</th>
                  <th scope="col">{t('exam.queue.submitted')}</th>
                  <th scope="col">{t('exam.queue.status')}</th>
                </tr>
              </thead>
              <tbody>
                {p.cases.map((c) => (
                  <tr key={c.case}>
                    <td dir="ltr" className="mono">
                      <Link href={caseHref('examination', p.plan.id, c.case)}>{c.case}</Link>
                    </td>
                    <td>{t(`exam.mine.${c.mine}`)}</td>
                    <td>
                      {t('exam.queue.of', { submitted: n(c.submitted), assigned: n(c.assigned) })}
                    </td>
                    <td>{statusText(t, c.status)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
    </div>
  );
}

const STATUSES = ['awaiting_submissions', 'revealed', 'awaiting_adjudication', 'final'] as const;

export function statusText(t: TFunction, status: string): string {
  return (STATUSES as readonly string[]).includes(status)
    ? t(`exam.status.${status as (typeof STATUSES)[number]}`)
    : status;
}
