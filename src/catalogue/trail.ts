// One thing's custody trail: the ledger entries that name an item, a subject or an object,
// whether in the entry's `items` / `objects` or anywhere in its details (a subject link, an
// examination case, a sample frame, a decision). A value matches only as a whole string.
import type { IndexReads } from './ports.js';
import type { JsonValue } from '../core/index.js';
import type { LedgerEntry } from '../ledger/index.js';

export type TrailTarget = { item: string } | { subject: string } | { object: string };

/**
 * The ids an entry must name to belong to the trail: an item's trail includes its object's
 * (analysis, withdrawal, purge speak of bytes), an object's includes its items'.
 */
export async function trailIds(
  archive: IndexReads<'getItem' | 'itemsBySha256'>,
  target: TrailTarget,
): Promise<Set<string>> {
  if ('subject' in target) return new Set([target.subject]);
  if ('item' in target) {
    const item = await archive.index.getItem(target.item);
    return new Set(item === undefined ? [target.item] : [target.item, item.sha256]);
  }
  const items = await archive.index.itemsBySha256(target.object);
  return new Set([target.object, ...items.map((i) => i.id)]);
}

export function entryNames(entry: LedgerEntry, ids: ReadonlySet<string>): boolean {
  return (
    entry.items.some((i) => ids.has(i)) ||
    entry.objects.some((o) => ids.has(o)) ||
    mentions(entry.details, ids)
  );
}

function mentions(v: JsonValue | undefined, ids: ReadonlySet<string>): boolean {
  if (typeof v === 'string') return ids.has(v);
  if (Array.isArray(v)) return v.some((x) => mentions(x, ids));
  if (v !== null && typeof v === 'object') return Object.values(v).some((x) => mentions(x, ids));
  return false;
}

const TRAIL_ID = /^(?:[0-9A-Z]{26}|[0-9a-f]{64})$/;

/** The ledger's reading side, as a trail index needs it (the archive's Ledger). */
export interface LedgerReader {
  readonly size: number;
  read(from: number, to: number): Promise<{ entry: LedgerEntry }[]>;
}

/**
 * Which entries name each id (an item, a subject, an object), kept in memory by a long-lived
 * reader (the server) and caught up with the ledger before each use, so an item's trail costs a
 * few entry reads instead of a pass over the whole ledger. Only id-shaped strings are kept; the
 * entries themselves are read back from the ledger (each checked against its leaf).
 */
export class TrailIndex {
  private readonly byId = new Map<string, number[]>();
  private scanned = 0;

  async catchUp(ledger: LedgerReader): Promise<void> {
    for (let a = this.scanned; a < ledger.size; a += 1000) {
      for (const { entry } of await ledger.read(a, Math.min(ledger.size, a + 1000))) {
        const ids = new Set<string>([...entry.items, ...entry.objects]);
        collectIds(entry.details, ids);
        for (const id of ids) {
          const list = this.byId.get(id);
          if (list === undefined) this.byId.set(id, [entry.seq]);
          else list.push(entry.seq);
        }
        this.scanned = entry.seq + 1;
      }
    }
  }

  /** The seqs of the entries naming any of `ids`, ascending. */
  seqsNaming(ids: ReadonlySet<string>): number[] {
    const out = new Set<number>();
    for (const id of ids) for (const s of this.byId.get(id) ?? []) out.add(s);
    return [...out].sort((x, y) => x - y);
  }
}

function collectIds(v: JsonValue | undefined, out: Set<string>): void {
  if (typeof v === 'string') {
    if (TRAIL_ID.test(v)) out.add(v);
  } else if (Array.isArray(v)) for (const x of v) collectIds(x, out);
  else if (v !== null && typeof v === 'object')
    for (const x of Object.values(v)) collectIds(x, out);
}
