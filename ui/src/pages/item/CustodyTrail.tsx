import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { browserCrypto } from '../../crypto';
import { formatCount } from '../../i18n';
import { useSession } from '../../session/session';
import { checkInclusion, type ProofCheck } from './proof-check';
import type { CheckpointsView, InclusionProofView, TrailEntry } from './types';

/** The verifier key pinned in this browser (page setting); first use shows the server's and asks. */
const PIN_KEY = 'custody.pinnedVerifierKey';

type Outcome =
  | { state: 'checking'; seq: number }
  | { state: 'done'; check: ProofCheck }
  | { state: 'not-covered'; seq: number; size: number }
  | { state: 'no-checkpoint'; seq: number }
  | { state: 'error'; seq: number; message: string };

/**
 * The item's ledger entries, and an inclusion proof of a chosen entry verified in this browser
 * against the latest signed checkpoint, with the pinned key. It says what such a check is worth.
 */
export function CustodyTrail({ trail }: { trail: TrailEntry[] }) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const [pinned, setPinned] = useState<string | null>(() => window.localStorage.getItem(PIN_KEY));
  const [serverKey, setServerKey] = useState<string | null>(null);
  const [keyError, setKeyError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const n = (x: number): string => formatCount(x, i18n.language);

  useEffect(() => {
    let live = true;
    api.get<CheckpointsView>('/api/checkpoints').then(
      (c) => live && setServerKey(c.verifier_key),
      (e: unknown) => live && setKeyError(e instanceof ApiError ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [api]);

  const pin = (key: string | null): void => {
    if (key === null) window.localStorage.removeItem(PIN_KEY);
    else window.localStorage.setItem(PIN_KEY, key);
    setPinned(key);
    setOutcome(null);
  };

  const verify = async (seq: number): Promise<void> => {
    if (pinned === null) return;
    setOutcome({ state: 'checking', seq });
    try {
      const c = await api.get<CheckpointsView>('/api/checkpoints');
      if (c.latest === null) return setOutcome({ state: 'no-checkpoint', seq });
      if (seq >= c.latest.tree_size)
        return setOutcome({ state: 'not-covered', seq, size: c.latest.tree_size });
      const proof = await api.get<InclusionProofView>(`/api/proofs/${seq}`, {
        size: c.latest.tree_size,
      });
      const check = checkInclusion(browserCrypto, {
        seq,
        note: c.latest.note,
        pinnedKey: pinned,
        proof,
      });
      setOutcome({ state: 'done', check });
    } catch (e) {
      setOutcome({ state: 'error', seq, message: e instanceof ApiError ? e.message : String(e) });
    }
  };

  const reason = (c: Extract<ProofCheck, { ok: false }>): string =>
    t(`item.trail.reasons.${c.step}`, { code: c.code ?? '' });

  return (
    <section className="panel" aria-labelledby="trail-heading">
      <h2 id="trail-heading">{t('item.trail.heading')}</h2>
      <p className="muted">{t('item.trail.intro')}</p>
      {trail.length === 0 ? (
        <p>{t('item.trail.none')}</p>
      ) : (
        <div className="table-wrap">
          <table className="trail" data-testid="trail">
            <thead>
              <tr>
                <th scope="col">{t('item.trail.seq')}</th>
                <th scope="col">{t('item.trail.time')}</th>
                <th scope="col">{t('item.trail.type')}</th>
                <th scope="col">{t('item.trail.action')}</th>
                <th scope="col">{t('item.trail.actor')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('item.trail.verify', { seq: '' })}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {trail.map((e) => (
                <tr key={e.seq} data-seq={e.seq}>
                  <td>{n(e.seq)}</td>
                  <td>
                    <time dateTime={e.time} dir="ltr">
                      {e.time.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')}
                    </time>
                  </td>
                  <td dir="ltr">{e.type}</td>
                  <td dir="ltr">{e.action ?? '—'}</td>
                  <td>
                    <code dir="ltr">{e.actor}</code>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button quiet"
                      disabled={pinned === null || outcome?.state === 'checking'}
                      onClick={() => void verify(e.seq)}
                    >
                      {t('item.trail.verify', { seq: n(e.seq) })}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <div className="proof-outcome" data-testid="proof-outcome" aria-live="polite">
        {outcome?.state === 'checking' && (
          <p className="muted">{t('item.trail.checking', { seq: n(outcome.seq) })}</p>
        )}
        {outcome?.state === 'done' && outcome.check.ok && (
          <div className="verified" data-testid="proof-verified">
            <p>
              <span className="verified-mark" aria-hidden="true" />
              {t('item.trail.verified', { seq: n(outcome.check.seq), size: n(outcome.check.size) })}
            </p>
            <p className="muted">
              {t('item.trail.root')}:{' '}
              <code dir="ltr" className="digest">
                {outcome.check.root}
              </code>
            </p>
            <pre dir="ltr" className="entry-bytes">
              {outcome.check.entry}
            </pre>
          </div>
        )}
        {outcome?.state === 'done' && !outcome.check.ok && (
          <p className="alert" role="alert" data-testid="proof-failed" data-step={outcome.check.step}>
            {t('item.trail.failed', { seq: n(outcome.check.seq), reason: reason(outcome.check) })}
          </p>
        )}
        {outcome?.state === 'not-covered' && (
          <p>{t('item.trail.notCovered', { seq: n(outcome.seq), size: n(outcome.size) })}</p>
        )}
        {outcome?.state === 'no-checkpoint' && <p>{t('item.trail.noCheckpoint')}</p>}
        {outcome?.state === 'error' && (
          <p className="alert" role="alert">
            {t('item.trail.failed', {
              seq: n(outcome.seq),
              reason: t('item.trail.reasons.request', { message: outcome.message }),
            })}
          </p>
        )}
      </div>

      <div className="pinned-key" data-testid="pinned-key">
        <h3>{t('item.trail.keyHeading')}</h3>
        {keyError !== null && (
          <p className="alert" role="alert">
            {t('item.trail.reasons.request', { message: keyError })}
          </p>
        )}
        {pinned === null && serverKey !== null && (
          <>
            <p>{t('item.trail.keyFirstUse')}</p>
            <code dir="ltr" className="digest" data-testid="server-key">
              {serverKey}
            </code>
            <p>
              <button type="button" className="button" onClick={() => pin(serverKey)}>
                {t('item.trail.keyPin')}
              </button>
            </p>
          </>
        )}
        {pinned !== null && (
          <>
            <p>{t('item.trail.keyPinned')}</p>
            <code dir="ltr" className="digest" data-testid="pinned-key-value">
              {pinned}
            </code>
            {serverKey !== null && serverKey !== pinned && (
              <p className="alert" role="alert">
                {t('item.trail.keyDiffers')}
              </p>
            )}
            <p>
              <button type="button" className="button quiet" onClick={() => pin(null)}>
                {t('item.trail.keyUnpin')}
              </button>
            </p>
          </>
        )}
        {pinned === null && trail.length > 0 && <p className="muted">{t('item.trail.pinFirst')}</p>}
      </div>
      <p className="caveat">{t('item.trail.caveat')}</p>
    </section>
  );
}
