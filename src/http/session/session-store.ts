import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Role } from '../../accounts/index.js';

export interface Session {
  readonly account: string;
  readonly role: Role;
  readonly csrfToken: string;
  readonly createdAt: number;
  lastSeen: number;
}

/**
 * Sessions held in the server's memory, keyed by the SHA-256 of the cookie's random token (a
 * memory dump does not yield usable cookies). A restart signs everyone out. The server never
 * accepts a session id it did not issue (no fixation): sign-in always issues a new one.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(
    readonly idleTimeoutMs: number,
    private readonly now: () => number,
  ) {}

  create(account: string, role: Role): { token: string; session: Session } {
    const token = randomBytes(32).toString('base64url');
    const t = this.now();
    const session: Session = {
      account,
      role,
      csrfToken: randomBytes(32).toString('base64url'),
      createdAt: t,
      lastSeen: t,
    };
    this.sessions.set(key(token), session);
    return { token, session };
  }

  /** The live session of a cookie token, touched; undefined when unknown or idle too long (then dropped). */
  get(token: string | undefined): Session | undefined {
    if (token === undefined || token.length > 100) return undefined;
    const k = key(token);
    const s = this.sessions.get(k);
    if (s === undefined) return undefined;
    const t = this.now();
    if (t - s.lastSeen > this.idleTimeoutMs) {
      this.sessions.delete(k);
      return undefined;
    }
    s.lastSeen = t;
    return s;
  }

  delete(token: string | undefined): void {
    if (token !== undefined) this.sessions.delete(key(token));
  }

  /** Ends every session of an account (disabled, role changed, password changed). */
  endAll(account: string): void {
    for (const [k, s] of this.sessions) if (s.account === account) this.sessions.delete(k);
  }
}

function key(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented CSRF token with the session's. */
export function csrfMatches(session: Session, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(session.csrfToken, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
