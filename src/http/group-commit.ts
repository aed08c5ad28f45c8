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
export class GroupCommit {
  private pending: Waiting[] = [];
  private draining = false;

  constructor(
    private readonly commitBatch: (drafts: readonly EntryDraft[]) => Promise<StoredEntry[]>,
    private readonly maxEntries = 1000,
  ) {}

  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]> {
    return new Promise<StoredEntry[]>((resolve, reject) => {
      this.pending.push({ drafts, resolve, reject });
      if (!this.draining) void this.drain();
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
      }
    } finally {
      this.draining = false;
    }
  }
}
