import { createContext, useContext } from 'react';
import type { ApiClient, SessionView } from '../api';

/** Why the sign-in page is showing: a first visit, a sign-out, or a session that ended. */
export type SignedOutReason = 'start' | 'signed-out' | 'expired';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; reason: SignedOutReason }
  | { status: 'signed-in'; session: SessionView };

export interface SessionApi {
  api: ApiClient;
  session: SessionView;
  signOut(): Promise<void>;
}

export const SessionContext = createContext<SessionApi | null>(null);

/** The signed-in session and the API client; only pages inside the shell call it. */
export function useSession(): SessionApi {
  const s = useContext(SessionContext);
  if (s === null) throw new Error('useSession outside a signed-in shell');
  return s;
}
