import { hostname } from 'node:os';
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { LedgerError } from './errors.js';

export interface LockOptions {
  /** How long to wait for another writer before failing, in milliseconds. */
  timeoutMs: number;
  command: string;
}

/**
 * One writer at a time, across processes, so that the ledger can never fork.
 * The lock is a file created with O_EXCL holding the owner's pid and host. A lock left by a
 * process that no longer exists on this host (killed with SIGKILL, power loss) is taken over.
 */
export class LedgerLock {
  private constructor(private readonly path: string) {}

  static async acquire(path: string, opts: LockOptions): Promise<LedgerLock> {
    const deadline = Date.now() + opts.timeoutMs;
    const me = JSON.stringify({ pid: process.pid, host: hostname(), command: opts.command, since: new Date().toISOString() });
    for (;;) {
      try {
        const fh = await open(path, 'wx', 0o644);
        try {
          await fh.writeFile(me);
          await fh.sync();
        } finally {
          await fh.close();
        }
        return new LedgerLock(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = await readHolder(path);
      if ((holder !== null && isStale(holder)) || (holder === null && (await olderThan(path, 30_000)))) {
        await unlink(path).catch(() => undefined);
        continue;
      }
      if (Date.now() >= deadline) {
        const who = holder === null ? 'another process' : `pid ${holder.pid} on ${holder.host} (custody ${holder.command}, since ${holder.since})`;
        throw new LedgerError('LEDGER_LOCKED', `the archive is being written by ${who}; try again when it has finished`, { details: { holder } });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async release(): Promise<void> {
    await unlink(this.path).catch(() => undefined);
  }
}

interface Holder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

async function readHolder(path: string): Promise<Holder | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<Holder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return null;
    return { pid: parsed.pid, host: parsed.host, command: String(parsed.command), since: String(parsed.since) };
  } catch {
    return null; // being written right now, or vanished: wait and look again
  }
}

/** A lock file that stays unreadable this long was left half-written by a killed process. */
async function olderThan(path: string, ms: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(path)).mtimeMs > ms;
  } catch {
    return false;
  }
}

function isStale(h: Holder): boolean {
  if (h.host !== hostname()) return false; // cannot tell for another machine: never steal
  try {
    process.kill(h.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
