import type { EntryDraft } from '../ledger/index.js';
import type { StoredEntry } from '../ledger/ledger.service.js';

interface Waiting {
  drafts: readonly EntryDraft[];
  resolve(stored: StoredEntry[]): void;
  reject(e: unknown): void;
}

/**
 * Group commit: the drafts of concurrent requests go to the ledger together, in one
 * `commit` (one batch intent, one fsync of the entries), and each request is answered with its
 * own entries only once the whole batch is durable. While one batch is being written, the next
 * gathers; a request never waits for more than the batch before its own. If a batch fails, every
 * request in it gets the error and nothing of it is acknowledged.
 *
 * A route that commits this way checks what it needs before it enqueues, so it must write only
 * what stays true whatever else is committed meanwhile (a decision on objects that exist);
 * routes whose checks depend on the ledger's state use the server's one-at-a-time write queue.
 */
/**
 * How long a batch may wait for the requests just answered to come back (their clients' next
 * request), when others are already waiting. Without it, clients that post one request after
 * another split into two groups that take turns, each waiting for the other's batch: a batch
 * then holds half of them and every request waits for two appends. The wait ends as soon as
 * every client of the batch just answered is back, and never lasts longer than `share` of that
 * batch's append (nor `maxMs`); after a batch of one with nothing pending (a lone client) there
 * is no wait.
 */
export interface GatherPolicy {
  share: number;
  maxMs: number;
  clock(): number;
  /** Calls `f` after `ms` (a timer); returns a cancel function. */
  after(ms: number, f: () => void): () => void;
}

/**
 * The server's: up to one append's time (at most 25 ms). The append (two fdatasyncs) is what a
 * request waits for anyway; with a shorter wait, on a busy machine whose clients take a few ms to
 * come back, a batch of 19 was followed by a batch of the 1 that came during it, alternately
 * (a third of the appends carried one entry, measured with 20 clients).
 */
export const SERVER_GATHER: GatherPolicy = {
  share: 1,
  maxMs: 25,
  clock: () => performance.now(),
  after(ms, f) {
    const t = setTimeout(f, ms);
    return () => clearTimeout(t);
  },
};

export class GroupCommit {
  private pending: Waiting[] = [];
  private draining = false;
  /** Called when a request joins the pending ones (the gather wait listens). */
  private arrived: (() => void) | null = null;

  constructor(
    private readonly commitBatch: (drafts: readonly EntryDraft[]) => Promise<StoredEntry[]>,
    private readonly maxEntries = 1000,
    private readonly gather: GatherPolicy | null = null,
  ) {}

  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]> {
    return new Promise<StoredEntry[]>((resolve, reject) => {
      this.pending.push({ drafts, resolve, reject });
      if (!this.draining) void this.drain();
      else this.arrived?.();
    });
  }

  /**
   * Waits (see GatherPolicy) until `answered` more requests are pending than now (the clients
   * just answered, back), or the time is up. A batch of one with nothing pending never waits.
   */
  private async gatherUpTo(answered: number, lastBatchMs: number): Promise<void> {
    const g = this.gather;
    if (g === null || (answered <= 1 && this.pending.length === 0)) return;
    const target = Math.min(this.pending.length + answered, this.maxEntries);
    const ms = Math.min(g.maxMs, lastBatchMs * g.share);
    if (ms < 1) return;
    await new Promise<void>((resolve) => {
      let cancel = () => undefined as void;
      const done = () => {
        cancel();
        this.arrived = null;
        resolve();
      };
      cancel = g.after(ms, done);
      this.arrived = () => {
        if (this.pending.length >= target) done();
      };
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        const batch: Waiting[] = [];
        let n = 0;
        while (this.pending.length > 0 && (batch.length === 0 || n + this.pending[0]!.drafts.length <= this.maxEntries)) {
          const w = this.pending.shift()!;
          batch.push(w);
          n += w.drafts.length;
        }
        const started = this.gather?.clock() ?? 0;
        try {
          const stored = await this.commitBatch(batch.flatMap((w) => w.drafts));
          let i = 0;
          for (const w of batch) {
            w.resolve(stored.slice(i, i + w.drafts.length));
            i += w.drafts.length;
          }
        } catch (e) {
          for (const w of batch) w.reject(e);
        }
        // The clients of this batch may each come back with their next request.
        await this.gatherUpTo(batch.length, (this.gather?.clock() ?? 0) - started);
      }
    } finally {
      this.draining = false;
    }
  }
}
