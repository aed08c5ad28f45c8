import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { makePersonKey, personKeyFingerprint, signEnrolment } from '../../crypto/person-key';
import { useSession } from '../../session/session';
import type { MyKey } from './types';
import './exam.css';

const MIN_LENGTH = 10;

type Current = { state: 'loading' } | { state: 'none' } | { state: 'ready'; key: MyKey };
type Status =
  | { state: 'idle' }
  | { state: 'working' }
  | { state: 'done'; fingerprint: string; keyId: string }
  | { state: 'failed'; message: string };

/**
 * "My signing key" (examiners and adjudicators): the key is made here, encrypted under a key
 * password that is not the login password, self-signed and enrolled. The server keeps only the
 * encrypted key file; the fingerprint is confirmed on the signed paper enrolment form.
 */
export function KeyPage() {
  const { t } = useTranslation();
  const { api, session } = useSession();
  const [current, setCurrent] = useState<Current>({ state: 'loading' });
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ state: 'idle' });

  useEffect(() => {
    let live = true;
    api.get<MyKey>('/api/me/key').then(
      (key) => live && setCurrent({ state: 'ready', key }),
      () => live && setCurrent({ state: 'none' }),
    );
    return () => {
      live = false;
    };
  }, [api, status]);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (password.length < MIN_LENGTH) return setProblem(t('exam.key.tooShort', { n: MIN_LENGTH }));
    if (password !== again) return setProblem(t('exam.key.mismatch'));
    setProblem(null);
    setStatus({ state: 'working' });
    try {
      const made = await makePersonKey(password);
      const enrol = await signEnrolment(made.secretKey, session.account);
      made.secretKey.fill(0);
      const r = await api.post<{ key_id: string; fingerprint: string }>('/api/me/key', {
        ...enrol,
        encrypted_key: made.envelope,
      });
      // The fingerprint shown is computed here from the key made here, not taken from the server.
      const fingerprint = personKeyFingerprint(made.publicKey);
      if (r.fingerprint !== fingerprint) throw new Error(t('exam.key.fingerprintDiffers'));
      setPassword('');
      setAgain('');
      setStatus({ state: 'done', fingerprint, keyId: r.key_id });
    } catch (e) {
      setStatus({
        state: 'failed',
        message: e instanceof ApiError || e instanceof Error ? e.message : String(e),
      });
    }
  };

  return (
    <div className="page exam-page">
      <h1>{t('exam.key.heading')}</h1>
      <p className="muted">{t('exam.key.intro')}</p>
      <section className="panel" aria-labelledby="current-key">
        <h2 id="current-key">{t('exam.key.current')}</h2>
        {current.state === 'loading' && <p role="status">{t('exam.loading')}</p>}
        {current.state === 'none' && <p data-testid="no-key">{t('exam.key.none')}</p>}
        {current.state === 'ready' && (
          <dl className="facts" data-testid="current-key">
            <dt>{t('exam.key.fingerprint')}</dt>
            <dd dir="ltr" className="mono">
              {current.key.fingerprint}
            </dd>
            <dt>{t('exam.key.keyId')}</dt>
            <dd dir="ltr" className="mono">
              {current.key.key_id}
            </dd>
          </dl>
        )}
      </section>
      <section className="panel" aria-labelledby="new-key">
        <h2 id="new-key">{t('exam.key.make')}</h2>
        <p className="notice">{t('exam.key.notLogin')}</p>
        {current.state === 'ready' && <p className="muted">{t('exam.key.replaces')}</p>}
        <form className="stack" onSubmit={(e) => void submit(e)}>
          <label>
            {t('exam.key.password')}
            <input
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          </label>
          <label>
            {t('exam.key.again')}
            <input
              type="password"
              autoComplete="new-password"
              value={again}
              onChange={(e) => setAgain(e.target.value)}
              required
            />
          </label>
          {problem !== null && (
            <p className="alert" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="button primary" disabled={status.state === 'working'}>
            {status.state === 'working' ? t('exam.key.making') : t('exam.key.submit')}
          </button>
        </form>
        <div aria-live="polite">
          {status.state === 'done' && (
            <div data-testid="key-enrolled">
              <p>{t('exam.key.enrolled')}</p>
              <p className="fingerprint mono" dir="ltr" data-testid="fingerprint">
                {status.fingerprint}
              </p>
            </div>
          )}
          {status.state === 'failed' && (
            <p className="alert" role="alert">
              {t('exam.key.failed', { message: status.message })}
            </p>
          )}
        </div>
      </section>
    </div>
  );
}
