// One thing's custody trail: the ledger entries that name an item, a subject or an object,
// whether in the entry's `items` / `objects` or anywhere in its details (a subject link, an
// examination case, a sample frame, a decision). A value matches only as a whole string.
import type { Archive } from '../app.js';
import type { JsonValue } from '../core/index.js';
import type { LedgerEntry } from '../ledger/index.js';

export type TrailTarget = { item: string } | { subject: string } | { object: string };

/**
 * The ids an entry must name to belong to the trail: an item's trail includes its object's
 * (analysis, withdrawal, purge speak of bytes), an object's includes its items'.
 */
export async function trailIds(archive: Archive, target: TrailTarget): Promise<Set<string>> {
  if ('subject' in target) return new Set([target.subject]);
  if ('item' in target) {
    const item = await archive.index.getItem(target.item);
    return new Set(item === undefined ? [target.item] : [target.item, item.sha256]);
  }
  const items = await archive.index.itemsBySha256(target.object);
  return new Set([target.object, ...items.map((i) => i.id)]);
}

export function entryNames(entry: LedgerEntry, ids: ReadonlySet<string>): boolean {
  return entry.items.some((i) => ids.has(i)) || entry.objects.some((o) => ids.has(o)) || mentions(entry.details, ids);
}

function mentions(v: JsonValue | undefined, ids: ReadonlySet<string>): boolean {
  if (typeof v === 'string') return ids.has(v);
  if (Array.isArray(v)) return v.some((x) => mentions(x, ids));
  if (v !== null && typeof v === 'object') return Object.values(v).some((x) => mentions(x, ids));
  return false;
}
