import type { ArchiveIndexRepository } from '../../db/archive-index.repository.js';
import type { AnalysesTable, ItemsTable } from '../../db/index.js';
import type { Ledger } from '../../ledger/ledger.service.js';
import { DIHEDRAL_VARIANTS } from '../pdq/dct.js'; // not the index: it loads sharp
import {
  clusterObjects,
  findSimilarPairs,
  type HashedObject,
  type SimilarityCluster,
  type SimilarPair,
} from './similarity.service.js';
import { cacheKeyOf, decodeCache, encodeCache, SIMILARITY_CACHE_KEY } from './similarity-cache.js';

/**
 * What the archive's near-duplicates read: the index (analyses, items, withdrawals, the cached
 * pairs) and the ledger (the analyses' entries, to rebuild the grey rasters of candidates).
 */
export interface SimilarityPorts {
  readonly index: Pick<
    ArchiveIndexRepository,
    'withdrawnObjects' | 'listAnalyses' | 'listItems' | 'getDerived' | 'putDerived'
  >;
  readonly ledger: Pick<Ledger, 'read'>;
}

export interface ArchiveSimilarity {
  objects: HashedObject[];
  pairs: SimilarPair[];
  clusters: (SimilarityCluster & { items: string[] })[];
  clusterOf: Map<string, string>;
}

/**
 * Near-duplicates across the whole archive (not per user or per delivery), from the analysed
 * objects' hashes. Withdrawn objects take no part. Computed on demand: exact and fast enough
 * (see bench/near-duplicates) that nothing stale is ever shown.
 */
export async function archiveSimilarity(
  archive: SimilarityPorts,
  opts: {
    threshold?: number;
    /** Already read by the caller (every analysis, every item): not read a second time. */
    analyses?: readonly AnalysesTable[];
    items?: readonly Pick<ItemsTable, 'id' | 'sha256'>[];
  } = {},
): Promise<ArchiveSimilarity> {
  const withdrawn = new Set((await archive.index.withdrawnObjects()).map((o) => o.sha256));
  const objects: HashedObject[] = [];
  const analyses = (opts.analyses ?? (await archive.index.listAnalyses())).filter(
    (a) => a.pdq !== null && !withdrawn.has(a.sha256),
  );
  for (const a of analyses) {
    if (a.pdq === null) continue;
    const dihedral = JSON.parse(a.pdq_dihedral_json) as Record<string, string> | null;
    const crops = JSON.parse(a.crops_json) as { hash: string }[];
    objects.push({
      sha256: a.sha256,
      pdq: a.pdq,
      dihedral: DIHEDRAL_VARIANTS.map((k) => dihedral?.[k] ?? a.pdq ?? ''),
      crops: crops.map((c) => c.hash),
    });
  }
  const pairs = await cachedPairs(archive, objects, analyses, opts.threshold);
  const itemsBySha = new Map<string, string[]>();
  for (const item of opts.items ?? (await archive.index.listItems())) {
    const list = itemsBySha.get(item.sha256);
    if (list === undefined) itemsBySha.set(item.sha256, [item.id]);
    else list.push(item.id);
  }
  const clusters = clusterObjects(objects, pairs).map((c) => ({
    ...c,
    items: c.objects.flatMap((o) => itemsBySha.get(o) ?? []).sort(),
  }));
  const clusterOf = new Map<string, string>();
  for (const c of clusters) for (const o of c.objects) clusterOf.set(o, c.id);
  return { objects, pairs, clusters, clusterOf };
}

/**
 * The pairs from the index's cache when it is for exactly these inputs and checks out (see
 * similarity-cache.ts), else computed and cached. Failing to write the cache is not an error.
 */
async function cachedPairs(
  archive: SimilarityPorts,
  objects: HashedObject[],
  analyses: readonly AnalysesTable[],
  threshold: number | undefined,
): Promise<SimilarPair[]> {
  const seqOf = new Map(analyses.map((a) => [a.sha256, a.seq]));
  const settings = threshold === undefined ? {} : { threshold };
  const key = cacheKeyOf(
    objects.map((o) => ({ ...o, seq: seqOf.get(o.sha256) ?? -1 })),
    settings,
  );
  const cacheKey = `${SIMILARITY_CACHE_KEY}${threshold === undefined ? '' : `:${threshold}`}`;
  const cached = decodeCache(await archive.index.getDerived(cacheKey), key, objects, settings);
  if (cached !== null) return cached;
  const greys = await readGreys(archive, analyses);
  const withGrey = objects.map((o) => {
    const grey = greys.get(seqOf.get(o.sha256) ?? -1);
    return grey === undefined ? o : { ...o, grey };
  });
  const pairs = findSimilarPairs(withGrey, settings);
  await archive.index.putDerived(cacheKey, encodeCache(key, pairs)).catch(() => undefined);
  return pairs;
}

/** Analyzers whose entries carry no grey raster: not read for one. */
const WITHOUT_GREY = new Set(['custody-image/1', 'custody-image/2']);

/**
 * The grey rasters for crop alignment, from the analyses' own ledger entries (read through the
 * ledger, which checks each entry against its leaf hash): the index keeps only queryable columns.
 * Entries close together are read as one range.
 */
async function readGreys(
  archive: SimilarityPorts,
  analyses: readonly AnalysesTable[],
): Promise<Map<number, Uint8Array>> {
  const seqs = analyses
    .filter((a) => !WITHOUT_GREY.has(a.analyzer))
    .map((a) => a.seq)
    .sort((x, y) => x - y);
  const wanted = new Set(seqs);
  const out = new Map<number, Uint8Array>();
  for (let i = 0; i < seqs.length;) {
    let j = i;
    while (j + 1 < seqs.length && seqs[j + 1]! - seqs[j]! <= 16 && seqs[j + 1]! - seqs[i]! < 512)
      j++;
    for (const { entry } of await archive.ledger.read(seqs[i]!, seqs[j]! + 1)) {
      if (!wanted.has(entry.seq)) continue;
      const grey = parseGrey(entry.details.align_grey);
      if (grey !== null) out.set(entry.seq, grey);
    }
    i = j + 1;
  }
  return out;
}

/** Untrusted (a ledger entry's details): a square raster of 8–64 px a side, else nothing. */
function parseGrey(v: unknown): Uint8Array | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const { size, data } = v as { size?: unknown; data?: unknown };
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 8 || size > 64) return null;
  if (typeof data !== 'string') return null;
  const bytes = Buffer.from(data, 'base64');
  return bytes.length === size * size ? Uint8Array.from(bytes) : null;
}
