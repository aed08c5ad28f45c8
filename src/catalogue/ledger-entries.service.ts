// The ledger as `custody log` prints it and the server's ledger route pages it: each entry with
// its leaf hash and exact canonical bytes, optionally only one thing's custody trail.
import { toHex } from '../core/index.js';
import type { LedgerEntry } from '../ledger/index.js';
import type { Ledger } from '../ledger/ledger.service.js';
import type { IndexReads } from './ports.js';
import { entryNames, trailIds, type TrailTarget } from './trail.js';

/** What paging the ledger reads: the ledger, and the index to find a target's trail. */
type LedgerRowsPorts = IndexReads<'getItem' | 'itemsBySha256'> & {
  readonly ledger: Pick<Ledger, 'size' | 'read'>;
};

/** One entry as `custody log --json` prints it (one per line). */
export interface LedgerRow {
  index: number;
  entry: LedgerEntry;
  leaf_hash: string;
  /** The entry's canonical bytes (RFC 8785), base64: what its leaf hash is over. */
  canonical: string;
}

/**
 * Entries `from` (inclusive) to `to` (exclusive, capped at the ledger's size), in order, read a
 * thousand at a time; with a target, only those that name it (see trail.ts).
 */
export async function* ledgerRows(
  archive: LedgerRowsPorts,
  opts: { from: number; to?: number; target?: TrailTarget },
): AsyncGenerator<LedgerRow> {
  const to = Math.min(archive.ledger.size, opts.to ?? archive.ledger.size);
  const ids = opts.target === undefined ? null : await trailIds(archive, opts.target);
  for (let a = opts.from; a < to; a += 1000) {
    for (const s of await archive.ledger.read(a, Math.min(to, a + 1000))) {
      if (ids !== null && !entryNames(s.entry, ids)) continue;
      yield {
        index: s.entry.seq,
        entry: s.entry,
        leaf_hash: toHex(s.leafHash),
        canonical: s.bytes.toString('base64'),
      };
    }
  }
}
