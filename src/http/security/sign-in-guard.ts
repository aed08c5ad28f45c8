import { createHmac } from 'node:crypto';
import { actorKey } from '../../core/index.js';
import { HttpError } from '../errors.js';
import type { SecurityEvent, SecurityLog } from './security-log.adapter.js';

export interface SignInLimits {
  /** Failed sign-ins of one name within `windowMs` that lock it (default 5). */
  maxFailures: number;
  /** The window the failures are counted in, and how long a lock lasts (default 15 min). */
  windowMs: number;
  /** Sign-in requests per IP address per minute (default 30). */
  perIpPerMinute: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  maxFailures: 5,
  windowMs: 15 * 60 * 1000,
  perIpPerMinute: 30,
};

/** An hourly count of failed sign-ins of one existing account: what the ledger gets. */
export interface FailureCount {
  account: string;
  /** The UTC hour, `YYYY-MM-DDTHH`. */
  hour: string;
  count: number;
}

/**
 * Lockout and the failure record of sign-in. Names are kept only as an HMAC under a key the
 * server holds (never in clear: a password typed into the name field must not be stored), and
 * the lock is by that name, whether or not an account has it, so a lock says nothing about
 * which names exist. Failures of existing accounts are also counted per hour, for the ledger.
 */
export class SignInGuard {
  private readonly failures = new Map<string, number[]>();
  private readonly lockedUntil = new Map<string, number>();
  private readonly counts = new Map<string, FailureCount>();

  constructor(
    private readonly key: Buffer,
    private readonly limits: SignInLimits,
    private readonly now: () => number,
    private readonly log: SecurityLog,
  ) {}

  mac(typedName: string): string {
    let normal: string;
    try {
      normal = actorKey(typedName);
    } catch {
      normal = typedName;
    }
    return createHmac('sha256', this.key).update(normal, 'utf8').digest('hex');
  }

  /** Refuses (HTTP_RATE_LIMITED, with the seconds to wait) while the name is locked. */
  async assertNotLocked(typedName: string, ip: string, account: string | null): Promise<void> {
    const mac = this.mac(typedName);
    const until = this.lockedUntil.get(mac);
    const t = this.now();
    if (until === undefined) return;
    if (until <= t) {
      this.lockedUntil.delete(mac);
      return;
    }
    await this.log.append(this.event('sign-in-locked', mac, ip, account, 'locked'));
    const retryAfterS = Math.ceil((until - t) / 1000);
    throw new HttpError(
      'HTTP_RATE_LIMITED',
      `too many failed sign-ins of this name: try again in ${retryAfterS} s`,
      { details: { retry_after_s: retryAfterS } },
    );
  }

  /** Records a failed sign-in: the security log, the lock count, the hourly count of an existing account. */
  async failed(
    typedName: string,
    ip: string,
    account: string | null,
    reason: SecurityEvent['reason'],
  ): Promise<void> {
    const mac = this.mac(typedName);
    const t = this.now();
    const recent = (this.failures.get(mac) ?? []).filter((f) => t - f < this.limits.windowMs);
    recent.push(t);
    if (recent.length >= this.limits.maxFailures) {
      this.lockedUntil.set(mac, t + this.limits.windowMs);
      this.failures.delete(mac);
    } else this.failures.set(mac, recent);
    if (account !== null) {
      const hour = hourOf(t);
      const k = `${account}\u0000${hour}`;
      const c = this.counts.get(k);
      if (c === undefined) this.counts.set(k, { account, hour, count: 1 });
      else c.count++;
    }
    await this.log.append(this.event('sign-in-failed', mac, ip, account, reason));
  }

  succeeded(typedName: string): void {
    this.failures.delete(this.mac(typedName));
  }

  /**
   * Takes the counts of the hours that have ended (all of them when `all`, at stop): each becomes
   * one `account.sign-in-failures` entry. A count taken is not taken again.
   */
  takeCounts(all = false): FailureCount[] {
    const current = hourOf(this.now());
    const out: FailureCount[] = [];
    for (const [k, c] of this.counts)
      if (all || c.hour < current) {
        out.push(c);
        this.counts.delete(k);
      }
    return out.sort((a, b) => a.hour.localeCompare(b.hour) || a.account.localeCompare(b.account));
  }

  /** Puts counts back (their entry could not be written; the next attempt retries). */
  restoreCounts(counts: readonly FailureCount[]): void {
    for (const c of counts) {
      const k = `${c.account}\u0000${c.hour}`;
      const have = this.counts.get(k);
      if (have === undefined) this.counts.set(k, { ...c });
      else have.count += c.count;
    }
  }

  private event(
    event: SecurityEvent['event'],
    mac: string,
    ip: string,
    account: string | null,
    reason: SecurityEvent['reason'],
  ): SecurityEvent {
    return { event, time: new Date(this.now()).toISOString(), ip, name_mac: mac, account, reason };
  }
}

function hourOf(t: number): string {
  return new Date(t).toISOString().slice(0, 13);
}
