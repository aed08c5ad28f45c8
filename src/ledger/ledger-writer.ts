import type { EntryDraft } from './entry-details.js';
import type { Ledger, StoredEntry } from './ledger.service.js';

/** When a writer signs a checkpoint, besides at close. */
export interface CheckpointCadence {
  /** Sign once this many entries follow the last signed checkpoint (checked after each commit). */
  everyEntries: number;
  /** Sign when the oldest unsigned entry is this old (null: only by count and at close). */
  everyMs: number | null;
}

/** A CLI command: signs at the end, and every 10,000 entries of a long run. */
export const COMMAND_CADENCE: CheckpointCadence = { everyEntries: 10_000, everyMs: null };
/** A long-lived writer (the server): at least every 10 s or every 1,000 entries. */
export const SERVICE_CADENCE: CheckpointCadence = { everyEntries: 1_000, everyMs: 10_000 };

/** Calls `tick` every `intervalMs` until the returned function is called. Injected in tests. */
export type Ticker = (intervalMs: number, tick: () => void) => () => void;

export const intervalTicker: Ticker = (intervalMs, tick) => {
  const t = setInterval(tick, intervalMs);
  t.unref(); // never what keeps a process alive: close() signs the rest
  return () => clearInterval(t);
};

export interface LedgerWriterOptions {
  /** A ledger opened for writing: its tail already authenticated (loadLedger with writer deps). */
  ledger: Ledger;
  /**
   * The writer lock (LedgerLock: a kernel OFD lock on the ledger), held for this writer's whole
   * life and released by close(). Null when the caller holds and releases it (a CLI command).
   */
  lock: { release(): Promise<void> } | null;
  /** For the cadence only (entry times come from the ledger's own clock). */
  clock: () => number;
  cadence: CheckpointCadence;
  ticker?: Ticker;
  /** How often the ticker checks the age of the unsigned entries (default 1 s). */
  tickMs?: number;
  /** Whether close() also closes the ledger (false when the caller's cleanup does). */
  closeLedger?: boolean;
}

/**
 * The ledger's writer, for as long as its owner lives: one CLI command, or the server.
 *
 * It appends only through Ledger.append (the batch intent first, then the entries, then their
 * leaves), so a crash at any point leaves either nothing new or entries an intent authenticates,
 * and it adopts nothing it did not write: the ledger it is given was authenticated when opened
 * (tail-authentication.ts), and every append and signature first checks that the file is as this
 * writer left it (LEDGER_CHANGED_UNDER_WRITER otherwise). Commits and signatures run one at a
 * time, in order; a signature that fails on the timer is reported by the next commit or close.
 */
export class LedgerWriter {
  private queue: Promise<unknown> = Promise.resolve();
  /** Clock time of the first commit after the last signed checkpoint (null: nothing unsigned). */
  private unsignedSince: number | null = null;
  private failure: Error | null = null;
  private readonly stopTicker: (() => void) | null;
  private closed = false;

  constructor(private readonly o: LedgerWriterOptions) {
    const every = o.cadence.everyMs;
    if (every === null) this.stopTicker = null;
    else {
      const tickMs = Math.min(o.tickMs ?? 1000, every);
      this.stopTicker = (o.ticker ?? intervalTicker)(tickMs, () => {
        // The check runs every tickMs, so it signs entries once they are every - tickMs old:
        // none waits longer than `every` for its signature.
        this.tick(every - tickMs).catch((e: unknown) => {
          this.failure ??= e instanceof Error ? e : new Error(String(e));
        });
      });
    }
  }

  get ledger(): Ledger {
    return this.o.ledger;
  }

  /**
   * Appends the drafts (durably, under the batch-intent rule) and signs when the count cadence is
   * due. `onStaged`: see Ledger.append.
   */
  commit(drafts: readonly EntryDraft[], onStaged?: (stored: readonly StoredEntry[]) => void): Promise<StoredEntry[]> {
    return this.serial(async () => {
      this.assertUsable();
      const { ledger } = this.o;
      const stored = await ledger.append(drafts, onStaged);
      if (stored.length > 0) this.unsignedSince ??= this.o.clock();
      if (ledger.size - ledger.signedSize >= this.o.cadence.everyEntries) await this.sign();
      return stored;
    });
  }

  /** Signs a checkpoint now (for the entries so far), unless one exists for this size. */
  checkpoint(): Promise<string | null> {
    return this.serial(async () => {
      this.assertUsable();
      return this.sign();
    });
  }

  /** Resolves once every commit and signature queued so far has finished. */
  async idle(): Promise<void> {
    await this.serial(() => Promise.resolve());
  }

  /** Stops the timer, signs what is unsigned, and releases the lock (and the ledger, if it owns it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopTicker?.();
    try {
      await this.serial(() => this.sign());
      if (this.failure !== null) throw this.failure;
    } finally {
      try {
        if (this.o.closeLedger === true) await this.o.ledger.close();
      } finally {
        await this.o.lock?.release();
      }
    }
  }

  private async tick(minAgeMs: number): Promise<void> {
    await this.serial(async () => {
      if (this.closed || this.failure !== null || this.unsignedSince === null) return;
      if (this.o.clock() - this.unsignedSince >= minAgeMs) await this.sign();
    });
  }

  private async sign(): Promise<string | null> {
    const note = await this.o.ledger.checkpoint();
    this.unsignedSince = null;
    return note;
  }

  private assertUsable(): void {
    if (this.closed) throw new Error('this ledger writer is closed');
    if (this.failure !== null) throw this.failure;
  }

  private serial<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f, f);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
