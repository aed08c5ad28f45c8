import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type ApiClient, type SessionView } from '../api';
import type { SignedOutReason } from '../session/session';
import { LanguageSwitch } from '../shell/LanguageSwitch';

/** The sign-in form: name and password; the server sets the session cookie and returns its CSRF token. */
export function SignInPage({
  api,
  reason,
  onSignedIn,
}: {
  api: ApiClient;
  reason: SignedOutReason;
  onSignedIn(session: SessionView): void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent<HTMLFormElement>): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await api.post<SessionView>('/api/session', { name: name.trim(), password });
      setPassword('');
      onSignedIn(session);
    } catch (err) {
      const m = messageFor(err);
      setError(m.key === 'signIn.refused' ? t(m.key, { message: m.message }) : t(m.key));
      setBusy(false);
    }
  };

  const notice =
    reason === 'expired'
      ? t('signIn.expired')
      : reason === 'signed-out'
        ? t('signIn.signedOut')
        : null;
  return (
    <div className="sign-in-layout">
      <header className="sign-in-top">
        <LanguageSwitch />
      </header>
      <main id="main" className="sign-in-main">
        <div className="sign-in-card">
          <p className="brand sign-in-brand">
            <span className="brand-mark" aria-hidden="true" />
            <span className="brand-name">{t('app.name')}</span>
            <span className="brand-tagline">{t('app.tagline')}</span>
          </p>
          <h1>{t('signIn.heading')}</h1>
          <p className="muted">{t('signIn.intro')}</p>
          {notice !== null && (
            <p className="notice" role="status">
              {notice}
            </p>
          )}
          {error !== null && (
            <p className="alert" role="alert" id="sign-in-error">
              {error}
            </p>
          )}
          <form onSubmit={(e) => void submit(e)} noValidate={false}>
            <div className="field">
              <label htmlFor="sign-in-name">{t('signIn.name')}</label>
              <input
                id="sign-in-name"
                name="username"
                autoComplete="username"
                dir="auto"
                required
                maxLength={200}
                value={name}
                onChange={(e) => setName(e.target.value)}
                aria-describedby={error === null ? undefined : 'sign-in-error'}
                autoFocus
              />
            </div>
            <div className="field">
              <label htmlFor="sign-in-password">{t('signIn.password')}</label>
              <input
                id="sign-in-password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                maxLength={1024}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-describedby={error === null ? undefined : 'sign-in-error'}
              />
            </div>
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? t('signIn.submitting') : t('signIn.submit')}
            </button>
          </form>
        </div>
      </main>
    </div>
  );
}

/** Which message a failed sign-in shows (the key, so that t() is called where its type is known). */
function messageFor(
  err: unknown,
): { key: 'signIn.unreachable' | 'signIn.failed' } | { key: 'signIn.refused'; message: string } {
  if (!(err instanceof ApiError)) return { key: 'signIn.unreachable' };
  if (err.code === 'HTTP_SIGN_IN_FAILED') return { key: 'signIn.failed' };
  if (err.code === 'NETWORK') return { key: 'signIn.unreachable' };
  return { key: 'signIn.refused', message: err.message };
}
