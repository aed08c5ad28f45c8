import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type VerificationsView } from '../api';
import { formatCount } from '../i18n';
import { Link, navigate, useLocationSearch } from '../router';
import {
  AUDIT_TABS,
  formatAuditQuery,
  pageStart,
  parseAuditQuery,
  TARGET_KINDS,
  validTarget,
  type AuditQuery,
  type TargetKind,
} from './audit/query';
import './audit/audit.css';
import { useSession } from '../session/session';

/** Ledger entries per page. */
const PAGE = 50;

interface LedgerEntryView {
  index: number;
  entry: {
    seq: number;
    time: string;
    actor: string;
    type: string;
    details?: Record<string, unknown>;
  };
  leaf_hash: string;
}
interface LedgerPage {
  size: number;
  entries: LedgerEntryView[];
  next_from: number | null;
}
interface ViewRow {
  seq: number;
  time: string;
  hour: string;
  account: string;
  name: string | null;
  role: string | null;
  action: string;
  item: string | null;
  sha256: string | null;
}
interface ViewsPage {
  views: ViewRow[];
  names_shown: boolean;
}
interface CheckpointsView {
  ledger_size: number;
  verifier_key: string;
  latest: { tree_size: number; root_hex: string; root_base64: string } | null;
}

type Load<T> =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; value: T };

function useLoad<T>(path: string, query: Record<string, string | number | undefined>): Load<T> {
  const { api } = useSession();
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  const key = JSON.stringify([path, query]);
  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    api.get<T>(path, query).then(
      (value) => live && setLoad({ state: 'ready', value }),
      (e: unknown) =>
        live &&
        setLoad({ state: 'failed', message: e instanceof ApiError ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for path and query
  }, [api, key]);
  return load;
}

/**
 * The auditor's page (issue 13, "Ledger and audit"): the ledger with filters, the latest signed
 * checkpoint, who viewed what, and the verification runs. Everything here is read from the
 * ledger through the server; the URL keeps the tab and the filters.
 */
export function AuditPage() {
  const { t } = useTranslation();
  const search = useLocationSearch();
  const q = parseAuditQuery(search);
  const go = (next: AuditQuery): void => {
    const qs = formatAuditQuery(next);
    navigate(qs === '' ? '/audit' : `/audit?${qs}`);
  };
  return (
    <div className="page audit-page">
      <h1>{t('audit.heading')}</h1>
      <p className="muted">{t('audit.intro')}</p>
      <nav aria-label={t('audit.sections')} className="audit-tabs">
        <ul>
          {AUDIT_TABS.map((tab) => (
            <li key={tab}>
              <Link
                href={tab === 'ledger' ? '/audit' : `/audit?tab=${tab}`}
                aria-current={q.tab === tab ? 'page' : undefined}
              >
                {t(`audit.tabs.${tab}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {q.tab === 'ledger' && <LedgerTab q={q} go={go} />}
      {q.tab === 'views' && <ViewsTab q={q} go={go} />}
      {q.tab === 'verifications' && <VerificationsTab />}
    </div>
  );
}

function Failed({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <p className="alert" role="alert">
      {t('audit.error', { message })}
    </p>
  );
}

function LedgerTab({ q, go }: { q: AuditQuery; go: (q: AuditQuery) => void }) {
  const { t, i18n } = useTranslation();
  const n = (x: number): string => formatCount(x, i18n.language);
  const status = useLoad<CheckpointsView>('/api/checkpoints', {});
  const size = status.state === 'ready' ? status.value.ledger_size : null;
  // Without a filter: the newest page first. With one: that thing's entries from the start.
  const from =
    q.target === undefined ? (size === null ? null : pageStart(size, PAGE, q.from)) : (q.from ?? 0);
  return (
    <section aria-labelledby="ledger-heading" className="panel">
      <h2 id="ledger-heading">{t('audit.ledger.heading')}</h2>
      <TargetFilter q={q} go={go} />
      {status.state === 'ready' && status.value.latest !== null && (
        <p data-testid="audit-checkpoint">
          {t('audit.ledger.checkpoint', {
            size: n(status.value.latest.tree_size),
            total: n(status.value.ledger_size),
          })}{' '}
          <code dir="ltr" className="digest">
            {status.value.latest.root_hex}
          </code>
        </p>
      )}
      {status.state === 'failed' && <Failed message={status.message} />}
      {from !== null && <LedgerEntries q={q} from={from} size={size} go={go} />}
    </section>
  );
}

function TargetFilter({ q, go }: { q: AuditQuery; go: (q: AuditQuery) => void }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<TargetKind>(q.target?.kind ?? 'item');
  const [text, setText] = useState(q.target?.id ?? '');
  const [invalid, setInvalid] = useState(false);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (text.trim() === '') {
      setInvalid(false);
      go({ tab: 'ledger' });
      return;
    }
    const id = validTarget(kind, text);
    setInvalid(id === null);
    if (id !== null) go({ tab: 'ledger', target: { kind, id } });
  };
  return (
    <form
      className="audit-filter"
      onSubmit={submit}
      role="search"
      aria-label={t('audit.ledger.filter')}
    >
      <label>
        {t('audit.ledger.kind')}
        <select value={kind} onChange={(e) => setKind(e.target.value as TargetKind)}>
          {TARGET_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`audit.ledger.kinds.${k}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('audit.ledger.id')}
        <input
          dir="ltr"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={invalid}
          aria-describedby={invalid ? 'target-invalid' : undefined}
          spellCheck={false}
        />
      </label>
      <button type="submit" className="button quiet">
        {t('audit.filter')}
      </button>
      {q.target !== undefined && (
        <button
          type="button"
          className="button quiet"
          onClick={() => {
            setText('');
            go({ tab: 'ledger' });
          }}
        >
          {t('audit.clear')}
        </button>
      )}
      {invalid && (
        <p id="target-invalid" className="alert" role="alert">
          {t(kind === 'object' ? 'audit.ledger.invalidObject' : 'audit.ledger.invalidId')}
        </p>
      )}
    </form>
  );
}

function LedgerEntries({
  q,
  from,
  size,
  go,
}: {
  q: AuditQuery;
  from: number;
  size: number | null;
  go: (q: AuditQuery) => void;
}) {
  const { t, i18n } = useTranslation();
  const n = (x: number): string => formatCount(x, i18n.language);
  const page = useLoad<LedgerPage>('/api/ledger', {
    from,
    limit: PAGE,
    ...(q.target === undefined ? {} : { [q.target.kind]: q.target.id }),
  });
  if (page.state === 'loading') return <p className="muted">{t('audit.loading')}</p>;
  if (page.state === 'failed') return <Failed message={page.message} />;
  const { entries, next_from } = page.value;
  const newestFirst = q.target === undefined;
  const rows = newestFirst ? [...entries].reverse() : entries;
  return (
    <>
      {rows.length === 0 ? (
        <p>{t('audit.ledger.none')}</p>
      ) : (
        <div className="table-scroll">
          <table className="audit-table" data-testid="ledger-table">
            <caption className="visually-hidden">{t('audit.ledger.heading')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('audit.ledger.seq')}</th>
                <th scope="col">{t('audit.ledger.time')}</th>
                <th scope="col">{t('audit.ledger.actor')}</th>
                <th scope="col">{t('audit.ledger.type')}</th>
                <th scope="col">{t('audit.ledger.action')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const action = r.entry.details?.action;
                return (
                  <tr key={r.index}>
                    <td>{n(r.index)}</td>
                    <td>
                      <time dateTime={r.entry.time}>
                        {new Date(r.entry.time).toLocaleString(i18n.language, { timeZone: 'UTC' })}
                      </time>
                    </td>
                    <td>
                      <code dir="ltr">{r.entry.actor}</code>
                    </td>
                    <td>{r.entry.type}</td>
                    <td>{typeof action === 'string' ? <code dir="ltr">{action}</code> : ''}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <div className="pager">
        {newestFirst ? (
          <>
            <button
              type="button"
              className="button quiet"
              disabled={size === null || from + PAGE >= size}
              onClick={() => go({ ...q, from: from + PAGE })}
            >
              {t('audit.newer')}
            </button>
            <button
              type="button"
              className="button quiet"
              disabled={from === 0}
              onClick={() => go({ ...q, from: Math.max(0, from - PAGE) })}
            >
              {t('audit.older')}
            </button>
          </>
        ) : (
          next_from !== null && (
            <button
              type="button"
              className="button quiet"
              onClick={() => go({ ...q, from: next_from })}
            >
              {t('audit.more')}
            </button>
          )
        )}
      </div>
    </>
  );
}

function ViewsTab({ q, go }: { q: AuditQuery; go: (q: AuditQuery) => void }) {
  const { t, i18n } = useTranslation();
  const page = useLoad<ViewsPage>('/api/audit/views', {
    limit: 200,
    item: q.item,
    account: q.account,
    since: q.since,
  });
  const filtered = q.item !== undefined || q.account !== undefined || q.since !== undefined;
  return (
    <section aria-labelledby="views-heading" className="panel">
      <h2 id="views-heading">{t('audit.views.heading')}</h2>
      <p className="muted">{t('audit.views.intro')}</p>
      {filtered && (
        <p>
          {t('audit.views.filtered')}{' '}
          <button type="button" className="button quiet" onClick={() => go({ tab: 'views' })}>
            {t('audit.clear')}
          </button>
        </p>
      )}
      {page.state === 'loading' && <p className="muted">{t('audit.loading')}</p>}
      {page.state === 'failed' && <Failed message={page.message} />}
      {page.state === 'ready' && page.value.views.length === 0 && <p>{t('audit.views.none')}</p>}
      {page.state === 'ready' && page.value.views.length > 0 && (
        <div className="table-scroll">
          <table className="audit-table" data-testid="views-table">
            <caption className="visually-hidden">{t('audit.views.heading')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('audit.views.time')}</th>
                <th scope="col">{t('audit.views.who')}</th>
                <th scope="col">{t('audit.views.role')}</th>
                <th scope="col">{t('audit.views.what')}</th>
                <th scope="col">{t('audit.views.item')}</th>
              </tr>
            </thead>
            <tbody>
              {page.value.views.map((v) => (
                <tr key={v.seq}>
                  <td>
                    <time dateTime={v.time}>
                      {new Date(v.time).toLocaleString(i18n.language, { timeZone: 'UTC' })}
                    </time>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => go({ tab: 'views', account: v.account })}
                      title={t('audit.views.onlyAccount')}
                    >
                      {v.name ?? <code dir="ltr">{v.account}</code>}
                    </button>
                  </td>
                  <td>{v.role ?? ''}</td>
                  <td>{t(`audit.views.actions.${v.action}`, { defaultValue: v.action })}</td>
                  <td>
                    {v.item === null ? (
                      ''
                    ) : (
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => go({ tab: 'views', item: v.item! })}
                        title={t('audit.views.onlyItem')}
                      >
                        <code dir="ltr">{v.item}</code>
                      </button>
                    )}
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

function VerificationsTab() {
  const { t, i18n } = useTranslation();
  const n = (x: number): string => formatCount(x, i18n.language);
  const runs = useLoad<VerificationsView>('/api/verifications', {});
  return (
    <section aria-labelledby="verifications-heading" className="panel">
      <h2 id="verifications-heading">{t('audit.verifications.heading')}</h2>
      <p className="muted">{t('audit.verifications.intro')}</p>
      {runs.state === 'loading' && <p className="muted">{t('audit.loading')}</p>}
      {runs.state === 'failed' && <Failed message={runs.message} />}
      {runs.state === 'ready' && runs.value.recorded.length === 0 && (
        <p>{t('overview.verification.none')}</p>
      )}
      {runs.state === 'ready' && runs.value.recorded.length > 0 && (
        <div className="table-scroll">
          <table className="audit-table" data-testid="verifications-table">
            <caption className="visually-hidden">{t('audit.verifications.heading')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('audit.ledger.seq')}</th>
                <th scope="col">{t('audit.ledger.time')}</th>
                <th scope="col">{t('audit.ledger.actor')}</th>
                <th scope="col">{t('audit.verifications.result')}</th>
                <th scope="col">{t('audit.verifications.covered')}</th>
                <th scope="col">{t('audit.verifications.findings')}</th>
              </tr>
            </thead>
            <tbody>
              {runs.value.recorded.map((r) => (
                <tr key={r.seq}>
                  <td>{n(r.seq)}</td>
                  <td>
                    <time dateTime={r.time}>
                      {new Date(r.time).toLocaleString(i18n.language, { timeZone: 'UTC' })}
                    </time>
                  </td>
                  <td>
                    <code dir="ltr">{r.actor}</code>
                  </td>
                  <td>
                    {r.result === 'pass'
                      ? t('audit.verifications.pass')
                      : t('audit.verifications.fail')}
                  </td>
                  <td>{r.tree_size === null ? '' : n(r.tree_size)}</td>
                  <td>{n(r.findings)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
