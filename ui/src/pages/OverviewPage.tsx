import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type StatusView } from '../api';
import { base64Of, browserCrypto, hexOf, verifyCheckpointWith } from '../crypto';
import { formatCount } from '../i18n';
import { useSession } from '../session/session';
import { JobsPanel, VerificationPanel } from './overview/VerificationPanel';

type Load =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; status: StatusView };

/** The archive at a glance: counts, deliveries, and the latest signed checkpoint. */
export function OverviewPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    let live = true;
    api.get<StatusView>('/api/status').then(
      (status) => live && setLoad({ state: 'ready', status }),
      (e: unknown) =>
        live &&
        setLoad({ state: 'failed', message: e instanceof ApiError ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [api]);

  return (
    <div className="page">
      <h1>{t('overview.heading')}</h1>
      {load.state === 'loading' && (
        <p className="muted" role="status">
          {t('overview.loading')}
        </p>
      )}
      {load.state === 'failed' && (
        <p className="alert" role="alert">
          {t('overview.error', { message: load.message })}
        </p>
      )}
      {load.state === 'ready' && <Status status={load.status} />}
    </div>
  );
}

function Status({ status }: { status: StatusView }) {
  const { t, i18n } = useTranslation();
  const n = (x: number): string => formatCount(x, i18n.language);
  const counts = [
    { key: 'items', label: t('overview.counts.items'), value: status.items },
    { key: 'deliveries', label: t('overview.counts.deliveries'), value: status.deliveries },
    { key: 'objects', label: t('overview.counts.objects'), value: status.objects },
    { key: 'ledger', label: t('overview.counts.ledger'), value: status.ledger_size },
  ];
  return (
    <>
      <section className="panel" aria-labelledby="counts-heading">
        <h2 id="counts-heading">{t('overview.counts.heading')}</h2>
        <dl className="counts">
          {counts.map((c) => (
            <div key={c.key} className="count" data-testid={`count-${c.key}`}>
              <dt>{c.label}</dt>
              <dd>{n(c.value)}</dd>
            </div>
          ))}
        </dl>
        {status.items === 0 && (
          <div className="empty">
            <h3>{t('overview.empty.heading')}</h3>
            <p>{t('overview.empty.body')}</p>
          </div>
        )}
      </section>
      <CheckpointPanel status={status} />
      <VerificationPanel />
      <JobsPanel />
      <section className="panel" aria-labelledby="archive-heading">
        <h2 id="archive-heading">{t('overview.archive.heading')}</h2>
        <dl className="facts">
          <dt>{t('overview.archive.id')}</dt>
          <dd>
            <code dir="ltr">{status.archive}</code>
          </dd>
          <dt>{t('overview.archive.origin')}</dt>
          <dd>
            <code dir="ltr">{status.origin}</code>
          </dd>
          <dt>{t('overview.archive.database')}</dt>
          <dd>
            <code dir="ltr">{status.database}</code>
          </dd>
        </dl>
      </section>
    </>
  );
}

/**
 * The latest signed checkpoint, opened in this browser with the project's pure checks on the
 * @noble adapter, its root in hex and base64 side by side. It says plainly what such a check is worth.
 */
function CheckpointPanel({ status }: { status: StatusView }) {
  const { t, i18n } = useTranslation();
  const note = status.checkpoint_note;
  const check =
    note === undefined || note === null
      ? null
      : verifyCheckpointWith(browserCrypto, note, status.verifier_key);
  return (
    <section className="panel" aria-labelledby="checkpoint-heading">
      <h2 id="checkpoint-heading">{t('overview.checkpoint.heading')}</h2>
      {status.signed_checkpoint === null ? (
        <p>{t('overview.checkpoint.none')}</p>
      ) : (
        <>
          <p className="muted">{t('overview.checkpoint.intro')}</p>
          <dl className="facts">
            <dt>{t('overview.checkpoint.size')}</dt>
            <dd data-testid="checkpoint-size">
              {formatCount(status.signed_checkpoint, i18n.language)}
            </dd>
          </dl>
          {check === null && <p>{t('overview.checkpoint.noteMissing')}</p>}
          {check !== null && check.ok && (
            <>
              <div className="root-pair">
                <div>
                  <h3>{t('overview.checkpoint.rootHex')}</h3>
                  <code dir="ltr" className="digest" data-testid="root-hex">
                    {hexOf(check.root)}
                  </code>
                </div>
                <div>
                  <h3>{t('overview.checkpoint.rootBase64')}</h3>
                  <code dir="ltr" className="digest" data-testid="root-base64">
                    {base64Of(check.root)}
                  </code>
                </div>
              </div>
              {check.origin === status.origin ? (
                <p className="verified" data-testid="checkpoint-verified">
                  <span className="verified-mark" aria-hidden="true" />
                  {t('overview.checkpoint.verified')}
                </p>
              ) : (
                <p className="alert" role="alert">
                  {t('overview.checkpoint.originMismatch', { origin: check.origin })}
                </p>
              )}
            </>
          )}
          {check !== null && !check.ok && (
            <p className="alert" role="alert" data-testid="checkpoint-failed">
              {t('overview.checkpoint.notVerified', { reason: `${check.code}: ${check.message}` })}
            </p>
          )}
          <dl className="facts">
            <dt>{t('overview.checkpoint.verifierKey')}</dt>
            <dd>
              <code dir="ltr" className="digest">
                {status.verifier_key}
              </code>
            </dd>
          </dl>
          <p className="caveat">{t('overview.checkpoint.caveat')}</p>
        </>
      )}
    </section>
  );
}
