import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClient, type SessionView } from './api';
import { pageFor } from './pages';
import { SignInPage } from './pages/SignInPage';
import { useLocationPath } from './router';
import { SessionContext, type SessionApi, type SessionState } from './session/session';
import { Shell } from './shell/Shell';

export function App() {
  const { t } = useTranslation();
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const path = useLocationPath();
  const api = useMemo(
    () =>
      new ApiClient({
        // Only a signed-in session can end: a request still in flight when the person signed out
        // comes back 401 too, and must not turn "you have signed out" into "your session ended".
        onUnauthenticated: () =>
          setState((prev) =>
            prev.status === 'signed-in' ? { status: 'signed-out', reason: 'expired' } : prev,
          ),
      }),
    [],
  );

  // Resume a session the browser still holds (the cookie is HttpOnly: only the server can say).
  useEffect(() => {
    api.get<SessionView>('/api/session').then(
      (session) => {
        api.setCsrfToken(session.csrf_token);
        setState({ status: 'signed-in', session });
      },
      () => setState({ status: 'signed-out', reason: 'start' }),
    );
  }, [api]);

  const sessionApi = useMemo<SessionApi | null>(() => {
    if (state.status !== 'signed-in') return null;
    return {
      api,
      session: state.session,
      async signOut() {
        await api.delete('/api/session').catch(() => undefined);
        api.setCsrfToken(null);
        setState({ status: 'signed-out', reason: 'signed-out' });
      },
    };
  }, [api, state]);

  if (state.status === 'loading') {
    return (
      <p className="boot" role="status">
        {t('app.name')}
      </p>
    );
  }
  if (state.status === 'signed-out' || sessionApi === null) {
    return (
      <SignInPage
        api={api}
        reason={state.status === 'signed-out' ? state.reason : 'start'}
        onSignedIn={(session) => {
          api.setCsrfToken(session.csrf_token);
          setState({ status: 'signed-in', session });
        }}
      />
    );
  }
  const Page = pageFor(path);
  return (
    <SessionContext.Provider value={sessionApi}>
      <Shell path={path}>
        <Page />
      </Shell>
    </SessionContext.Provider>
  );
}
