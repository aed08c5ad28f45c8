// Photographs as clerks name them: an item id, the SHA-256 of its bytes, or its original path in
// a delivery (`DELIVERY:path/in/delivery`, or the path alone when one delivery has it). Untrusted
// input (an imported sheet): every value resolves to items or to a reason, never to a guess.
// Resolved with one query per kind and per 1,000 values, not one query per row.
import type { IndexReads } from '../ports.js';

export type ItemRefResolution = { items: string[] } | { error: string };

const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const SHA256_RE = /^[0-9a-fA-F]{64}$/;

/** A path as written in a sheet, in the form the index keeps (forward slashes, no leading ./). */
export function normaliseItemPath(p: string): string {
  return p
    .normalize('NFC')
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/)+/, '')
    .replace(/\/{2,}/g, '/');
}

/**
 * Resolves each reference to the items it names. An id names one item; a digest names every
 * receipt of those bytes (the same photograph); a path names the item at that path, in the named
 * delivery or, without one, in the only delivery that has it: a path in several deliveries is an
 * error naming every candidate.
 */
export async function resolveItemRefs(
  archive: IndexReads<'listDeliveries' | 'itemsWhereIn'>,
  refs: readonly string[],
): Promise<Map<string, ItemRefResolution>> {
  const unique = [...new Set(refs.map((r) => r.trim()))];
  const out = new Map<string, ItemRefResolution>();
  const ids = unique.filter((r) => ULID_RE.test(r));
  const digests = unique.filter((r) => SHA256_RE.test(r));
  const paths = unique.filter((r) => !ULID_RE.test(r) && !SHA256_RE.test(r));
  const deliveries = new Set((await archive.index.listDeliveries()).map((d) => d.id));
  const split = new Map<string, { delivery: string | null; path: string }>(
    paths.map((ref): [string, { delivery: string | null; path: string }] => {
      const colon = ref.indexOf(':');
      const delivery = colon > 0 ? ref.slice(0, colon) : null;
      return delivery !== null && deliveries.has(delivery)
        ? [ref, { delivery, path: normaliseItemPath(ref.slice(colon + 1)) }]
        : [ref, { delivery: null, path: normaliseItemPath(ref) }];
    }),
  );
  const found = new Set((await archive.index.itemsWhereIn('id', ids)).map((i) => i.id));
  for (const id of ids) out.set(id, found.has(id) ? { items: [id] } : { error: `no item ${id}` });
  const bySha = group(
    await archive.index.itemsWhereIn(
      'sha256',
      digests.map((d) => d.toLowerCase()),
    ),
    (i) => i.sha256,
  );
  for (const d of digests) {
    const items = bySha.get(d.toLowerCase()) ?? [];
    out.set(
      d,
      items.length > 0
        ? { items: items.map((i) => i.id) }
        : { error: `no item has the SHA-256 ${d}` },
    );
  }
  const byPath = group(
    await archive.index.itemsWhereIn(
      'relative_path',
      [...split.values()].map((s) => s.path),
    ),
    (i) => i.relative_path,
  );
  for (const [ref, { delivery, path }] of split) {
    const candidates = (byPath.get(path) ?? []).filter(
      (i) => delivery === null || i.delivery_id === delivery,
    );
    if (candidates.length === 1 && candidates[0] !== undefined)
      out.set(ref, { items: [candidates[0].id] });
    else if (candidates.length === 0)
      out.set(ref, { error: `no item at ${delivery === null ? '' : `${delivery}:`}${path}` });
    else
      out.set(ref, {
        error: `${path} is ambiguous: ${candidates.map((i) => `${i.delivery_id}:${i.relative_path} (item ${i.id})`).join(', ')}; write DELIVERY:path`,
      });
  }
  return out;
}

function group<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
  return m;
}
