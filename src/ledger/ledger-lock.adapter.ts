import { constants } from 'node:fs';
import { hostname } from 'node:os';
import { open, readFile, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { LedgerError } from './errors.js';

export interface LockOptions {
  /** How long to wait for another writer before failing, in milliseconds. */
  timeoutMs: number;
  command: string;
  /** 'exclusive' for a writer; 'shared' for a reader that wants a still archive (verify). */
  kind: 'exclusive' | 'shared';
}

export interface LockPaths {
  /** The file the kernel lock is taken on: the ledger itself, which nobody can delete without destroying the archive. */
  ledger: string;
  /** A note of who holds the lock, for the message a waiting writer prints. Informational only. */
  holder: string;
}

type NativeLocks = (typeof import('fs-native-extensions'))['default'];
let nativeLocks: NativeLocks | null = null;

/** Loaded on the first lock, so that the commands that take none (most reads) do not pay for it. */
async function loadFsx(): Promise<NativeLocks> {
  return (nativeLocks ??= (await import('fs-native-extensions')).default);
}

/**
 * One writer at a time, across processes, so that the ledger can never fork.
 *
 * The exclusion is a kernel lock (Linux open-file-description lock, `fcntl(F_OFD_SETLK)`, through
 * fs-native-extensions) on the ledger file itself, held for the whole write. Deleting or editing
 * a lock file cannot remove it; the kernel drops it when the holder dies (SIGKILL, power loss),
 * so the takeover of a dead writer's lock is automatic. After the lock is granted the path is
 * checked to still name the locked file (a ledger renamed away and replaced would otherwise
 * give two writers two different files). The holder note (`writer.lock`) only says who holds it.
 */
export class LedgerLock {
  private constructor(
    private readonly handle: FileHandle,
    private readonly paths: LockPaths,
    private readonly kind: LockOptions['kind'],
  ) {}

  static async acquire(paths: LockPaths, opts: LockOptions): Promise<LedgerLock> {
    const fsx = await loadFsx();
    const deadline = Date.now() + opts.timeoutMs;
    for (;;) {
      // An exclusive OFD lock needs a descriptor open for writing, a shared one for reading.
      // Never through a link, never blocking on a FIFO in the ledger's place.
      const handle = await open(paths.ledger, (opts.kind === 'exclusive' ? constants.O_RDWR : constants.O_RDONLY) | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      let granted = false;
      try {
        granted = fsx.tryLock(handle.fd, 0, 0, { shared: opts.kind === 'shared' });
        if (granted && (await sameFile(handle, paths.ledger))) {
          const lock = new LedgerLock(handle, paths, opts.kind);
          if (opts.kind === 'exclusive') await lock.writeHolder(opts.command);
          return lock;
        }
      } catch (e) {
        await handle.close().catch(() => undefined);
        throw e;
      }
      // Not granted, or granted on a file that is no longer the ledger: let go and look again.
      if (granted) fsx.unlock(handle.fd);
      await handle.close();
      if (Date.now() >= deadline) {
        const holder = await readHolder(paths.holder);
        const who = holder === null ? 'another process' : `pid ${holder.pid} on ${holder.host} (custody ${holder.command}, since ${holder.since})`;
        throw new LedgerError('LEDGER_LOCKED', `the archive is being written by ${who}; try again when it has finished`, { details: { holder } });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async release(): Promise<void> {
    if (this.kind === 'exclusive') await unlink(this.paths.holder).catch(() => undefined);
    try {
      (await loadFsx()).unlock(this.handle.fd);
    } finally {
      await this.handle.close().catch(() => undefined);
    }
  }

  private async writeHolder(command: string): Promise<void> {
    const me = JSON.stringify({ pid: process.pid, host: hostname(), command, since: new Date().toISOString() });
    await writeFile(this.paths.holder, me, { mode: 0o640 }).catch(() => undefined);
  }
}

interface Holder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

/** True when `path` still names the file open on `handle` (same device and inode). */
export async function sameFile(handle: FileHandle, path: string): Promise<boolean> {
  const [a, b] = await Promise.all([handle.stat(), stat(path).catch(() => null)]);
  return b !== null && a.dev === b.dev && a.ino === b.ino;
}

async function readHolder(path: string): Promise<Holder | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<Holder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return null;
    return { pid: parsed.pid, host: parsed.host, command: String(parsed.command), since: String(parsed.since) };
  } catch {
    return null; // absent or half-written: the kernel lock is what counts
  }
}
