import { createHash } from 'node:crypto';
import type { ArchiveIndexRepository } from '../../db/archive-index.repository.js';
import type { AnalysesTable, ItemsTable } from '../../db/index.js';
import type { Ledger } from '../../ledger/ledger.service.js';
import { DIHEDRAL_VARIANTS } from '../pdq/dct.js'; // not the index: it loads sharp
import { hammingDistance } from '../pdq/hash256.js';
import {
  alignPair,
  CANDIDATE_FULL_THRESHOLD,
  CANDIDATE_REGION_REGION_THRESHOLD,
  CANDIDATE_REGION_THRESHOLD,
  verifiesCrop,
} from './crop-match.js';
import {
  clusterObjects,
  DEFAULT_CROP_THRESHOLD,
  DEFAULT_PDQ_THRESHOLD,
  findSimilarPairsParallel,
  type HashedObject,
  type SimilarityCluster,
  type SimilarPair,
} from './similarity.service.js';
import {
  GREY_QUERY_MAX_COMPONENT,
  greyStepCoverage,
  greyStepOf,
  greyStepOfCounts,
  MAX_GREY_QUERIES,
  type GreyStepCoverage,
  type GreyStepOfObject,
} from './grey-coverage.js';
import {
  cacheKeyOf,
  CLUSTERS_CACHE_KEY,
  clustersKeyOf,
  CROPS_CACHE_KEY,
  decodeCache,
  decodeClusterOf,
  decodeCropOriginOf,
  decodeGreyCounts,
  encodeCache,
  encodeClusters,
  encodeCropOrigins,
  SIMILARITY_CACHE_KEY,
  type CacheKey,
  type CropOrigin,
  type GreyCounts,
} from './similarity-cache.js';

export { greyStepOf, type GreyStepCoverage, type GreyStepOfObject } from './grey-coverage.js';

/**
 * What the archive's near-duplicates read: the index (analyses, items, withdrawals, the cached
 * pairs) and the ledger (the analyses' entries, to rebuild the grey rasters of candidates).
 */
export interface SimilarityPorts {
  readonly index: Pick<
    ArchiveIndexRepository,
    | 'withdrawnObjects'
    | 'listAnalyses'
    | 'listItems'
    | 'getDerived'
    | 'putDerived'
    | 'analysisInputsSize'
    | 'getAnalysis'
    | 'getObject'
    | 'itemsBySha256'
  >;
  readonly ledger: Pick<Ledger, 'read'>;
}

export interface ArchiveSimilarity {
  objects: HashedObject[];
  pairs: SimilarPair[];
  clusters: (SimilarityCluster & { items: string[] })[];
  clusterOf: Map<string, string>;
  /** Whether the grey-descriptor step ran (grey-coverage.ts), and which objects needed it. */
  grey: GreyStepCoverage;
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
    /** Write the clusters' cache even when the pairs came from theirs (it was stale or absent). */
    writeClusters?: boolean;
    items?: readonly Pick<ItemsTable, 'id' | 'sha256'>[];
  } = {},
): Promise<ArchiveSimilarity> {
  const analysesSize = await archive.index.analysisInputsSize(); // before the inputs: see similarity-cache.ts
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
  const { pairs, computed } = await cachedPairs(archive, objects, analyses, opts.threshold);
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
  // The analyses that keep a grey raster (every one since custody-image/3 whose image decoded,
  // which a PDQ hash implies) are those the grey step takes part with.
  const withGrey = new Set(analyses.filter((a) => keepsGrey(a)).map((a) => a.sha256));
  const grey = greyStepCoverage(
    objects.map((o) => ({ sha256: o.sha256, grey: withGrey.has(o.sha256) })),
    pairs,
  );
  if (opts.threshold === undefined && (computed || opts.writeClusters === true)) {
    const key = clustersKeyOf(analysesSize);
    await archive.index
      .putDerived(CLUSTERS_CACHE_KEY, encodeClusters(key, clusters, grey))
      .catch(() => undefined);
    const crops = encodeCropOrigins(key, cropOrigins(pairs));
    await archive.index.putDerived(CROPS_CACHE_KEY, crops).catch(() => undefined);
  }
  return { objects, pairs, clusters, clusterOf, grey };
}

/**
 * For each object verified as a crop of another (a pair with a crop box), the likely original and
 * the box of it the crop shows; the first such pair in the pairs' order wins.
 */
export function cropOrigins(pairs: readonly SimilarPair[]): Map<string, CropOrigin> {
  const out = new Map<string, CropOrigin>();
  for (const p of pairs) {
    if (p.crop === undefined) continue;
    const cropped = p.crop.original === p.a ? p.b : p.a;
    if (!out.has(cropped))
      out.set(cropped, { original: p.crop.original, transform: p.crop.transform, box: p.crop.box });
  }
  return out;
}

/**
 * The likely original of one object (null: it is a crop of none), for display (`show`, the item
 * page): from the cached crop originals when they are current and the line read checks out (both
 * objects analysed and not withdrawn, and their grey rasters, read through the ledger, align again
 * to the same original, transform and box), else from archiveSimilarity's checked pairs, which
 * caches the crop originals again.
 */
export async function readCropOriginOf(
  archive: SimilarityPorts,
  sha256: string,
): Promise<CropOrigin | null> {
  const key = clustersKeyOf(await archive.index.analysisInputsSize());
  const cached = decodeCropOriginOf(await archive.index.getDerived(CROPS_CACHE_KEY), key, sha256);
  if (cached === null) return null;
  if (cached !== undefined && (await checkCropOrigin(archive, sha256, cached))) return cached;
  const s = await archiveSimilarity(archive, { writeClusters: true });
  return cropOrigins(s.pairs).get(sha256) ?? null;
}

/** Whether the two objects' grey rasters align again to exactly the cached crop. */
async function checkCropOrigin(
  archive: SimilarityPorts,
  cropped: string,
  o: CropOrigin,
): Promise<boolean> {
  // As the search aligns them: the smaller digest first (the analyses are read in digest order).
  const [first, second] = cropped < o.original ? [cropped, o.original] : [o.original, cropped];
  const analyses: AnalysesTable[] = [];
  for (const sha of [first, second]) {
    const a = await archive.index.getAnalysis(sha);
    if (a?.pdq == null || (await archive.index.getObject(sha))?.withdrawn_seq !== null)
      return false;
    analyses.push(a);
  }
  const greys = await readGreys(archive, analyses);
  const ga = greys.get(analyses[0]!.seq);
  const gb = greys.get(analyses[1]!.seq);
  if (ga === undefined || gb === undefined || ga.length !== gb.length) return false;
  const v = alignPair(0, 1, ga, gb, Math.round(Math.sqrt(ga.length)));
  if (v === null || !verifiesCrop(v) || [first, second][v.original] !== o.original) return false;
  const b = o.box;
  return (
    v.transform === o.transform &&
    v.box.left === b.left &&
    v.box.top === b.top &&
    v.box.right === b.right &&
    v.box.bottom === b.bottom
  );
}

/** Clusters with more members than this are read through archiveSimilarity (the check is quadratic). */
const MAX_CHECKED_CLUSTER = 100;

/**
 * The near-duplicate cluster of one object (null: it is in none), for display (`show`, the item
 * page): from the cached clusters when they are current and the cluster checks out (see
 * similarity-cache.ts; its members are read and its largest distance recomputed), else from
 * archiveSimilarity, which recomputes what is stale and caches the clusters again.
 */
export async function readClusterOf(
  archive: SimilarityPorts,
  sha256: string,
  /** The object's analysis: whether it keeps a grey raster decides whether it needed the grey step. */
  analysis: Pick<AnalysesTable, 'analyzer' | 'pdq'>,
): Promise<{
  cluster: (SimilarityCluster & { items: string[] }) | null;
  grey_step: GreyStepOfObject;
}> {
  const key = clustersKeyOf(await archive.index.analysisInputsSize());
  const text = await archive.index.getDerived(CLUSTERS_CACHE_KEY);
  const counts = decodeGreyCounts(text, key, MAX_GREY_QUERIES);
  const cached = decodeClusterOf(text, key, sha256);
  // Needed by this object exactly when it keeps a grey raster and its group is small (grey-coverage.ts).
  const view = (cluster: (SimilarityCluster & { items: string[] }) | null, c: GreyCounts) => ({
    cluster,
    grey_step: greyStepOfCounts(
      c,
      keepsGrey(analysis) && (cluster?.objects.length ?? 1) <= GREY_QUERY_MAX_COMPONENT,
    ),
  });
  if (counts !== undefined) {
    if (cached === null) return view(null, counts);
    if (cached !== undefined && cached.objects.length <= MAX_CHECKED_CLUSTER) {
      const checked = await checkCluster(archive, cached);
      if (checked !== null) return view(checked, counts);
    }
  }
  return clusterViewOf(await archiveSimilarity(archive, { writeClusters: true }), sha256);
}

/** One object's cluster and its grey-step view, from the whole archive's similarity. */
export function clusterViewOf(
  s: Pick<ArchiveSimilarity, 'clusters' | 'grey'>,
  sha256: string,
): { cluster: (SimilarityCluster & { items: string[] }) | null; grey_step: GreyStepOfObject } {
  return {
    cluster: s.clusters.find((c) => c.objects.includes(sha256)) ?? null,
    grey_step: greyStepOf(s.grey, sha256),
  };
}

/**
 * Null unless every member is a current analysed object and the members are connected by pairs
 * that could have been found (PDQ within the threshold over the turns and flips, or within the
 * looser distances at which a crop is even a candidate for alignment): a planted cluster of
 * unrelated objects is refused. The largest distance is recomputed.
 */
async function checkCluster(
  archive: SimilarityPorts,
  cluster: SimilarityCluster,
): Promise<(SimilarityCluster & { items: string[] }) | null> {
  const members: HashedObject[] = [];
  const items: string[] = [];
  for (const sha of cluster.objects) {
    const a = await archive.index.getAnalysis(sha);
    if (a?.pdq == null || (await archive.index.getObject(sha))?.withdrawn_seq !== null) return null;
    const dihedral = JSON.parse(a.pdq_dihedral_json) as Record<string, string> | null;
    const crops = JSON.parse(a.crops_json) as { hash?: unknown }[];
    members.push({
      sha256: sha,
      pdq: a.pdq,
      dihedral: DIHEDRAL_VARIANTS.map((k) => dihedral?.[k] ?? a.pdq ?? ''),
      crops: crops.flatMap((c) => (typeof c.hash === 'string' ? [c.hash] : [])),
    });
    for (const i of await archive.index.itemsBySha256(sha)) items.push(i.id);
  }
  if (!connected(members)) return null;
  const pairs = members.slice(1).map((m) => ({
    a: members[0]!.sha256,
    b: m.sha256,
    distance: 0,
    kind: 'pdq' as const,
  }));
  const [whole] = clusterObjects(members, pairs); // one component: only its largest distance is used
  if (whole === undefined) return null;
  return { ...cluster, max_distance: whole.max_distance, items: items.sort() };
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
): Promise<{ pairs: SimilarPair[]; computed: boolean }> {
  const seqOf = new Map(analyses.map((a) => [a.sha256, a.seq]));
  const settings = threshold === undefined ? {} : { threshold };
  const key = cacheKeyOf(
    objects.map((o) => ({ ...o, seq: seqOf.get(o.sha256) ?? -1 })),
    settings,
  );
  const cacheKey = `${SIMILARITY_CACHE_KEY}${threshold === undefined ? '' : `:${threshold}`}`;
  const cached = decodeCache(await archive.index.getDerived(cacheKey), key, objects, settings);
  if (cached !== null) return { pairs: cached, computed: false };
  const greys = await readGreys(archive, analyses);
  const withGrey = objects.map((o) => {
    const grey = greys.get(seqOf.get(o.sha256) ?? -1);
    return grey === undefined ? o : { ...o, grey };
  });
  const inputs = similaritySearchInputs(key, withGrey);
  let pairs: SimilarPair[];
  if (lastSearch?.inputs === inputs) pairs = [...lastSearch.pairs];
  else {
    pairs = await findSimilarPairsParallel(withGrey, settings);
    searchesRun++;
    lastSearch = { inputs, pairs: [...pairs] };
  }
  await archive.index.putDerived(cacheKey, encodeCache(key, pairs)).catch(() => undefined);
  return { pairs, computed: true };
}

/**
 * The last search this process ran, by everything its pairs are a function of. A report draws its
 * pairs from an index replayed from the ledger at its checkpoint, which holds no cache, so each
 * report searched again (with the grey step, up to about 170 s of CPU on a large collection): the
 * server making a report in HTML and then in PDF with no new analysis between, or a footnote's
 * commands re-run in one process, now search once. Nothing here was read from disk: the pairs were
 * computed in this process from the inputs their key names.
 */
let lastSearch: { inputs: string; pairs: readonly SimilarPair[] } | null = null;
let searchesRun = 0;

/** How many whole-archive searches this process has run (for tests: a repeated one runs none). */
export function similaritySearchesRun(): number {
  return searchesRun;
}

/**
 * The inputs of one search: the cache key (the matcher's version, the settings, every object's
 * digest, analysis seq and hashes) and every grey raster, which the cache key leaves to the
 * ledger (one process may open many archives, and the seqs alone do not name their entries).
 */
export function similaritySearchInputs(key: CacheKey, objects: readonly HashedObject[]): string {
  const h = createHash('sha256');
  h.update(`${key.inputs}\n`);
  for (const o of objects) {
    h.update(`${o.sha256}\t${o.grey === undefined ? '-' : String(o.grey.length)}\n`);
    if (o.grey !== undefined) h.update(o.grey);
  }
  return h.digest('hex');
}

/** Analyzers whose entries carry no grey raster: not read for one. */
const WITHOUT_GREY = new Set(['custody-image/1', 'custody-image/2']);

/** Whether an analysis keeps a grey raster, and so takes part in the grey step (with its PDQ hash). */
function keepsGrey(a: Pick<AnalysesTable, 'analyzer' | 'pdq'>): boolean {
  return a.pdq !== null && !WITHOUT_GREY.has(a.analyzer);
}

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

/** Whether every member is linked to the others by a chain of pairs the search could have found. */
function connected(members: readonly HashedObject[]): boolean {
  const root = members.map((_, i) => i);
  const find = (x: number): number => (root[x] === x ? x : (root[x] = find(root[x]!)));
  let parts = members.length;
  for (let i = 0; i < members.length && parts > 1; i++) {
    for (let j = i + 1; j < members.length && parts > 1; j++) {
      if (find(i) === find(j) || !linkable(members[i]!, members[j]!)) continue;
      root[find(j)] = find(i);
      parts--;
    }
  }
  return parts === 1;
}

function linkable(a: HashedObject, b: HashedObject): boolean {
  const fullA = [a.pdq, ...a.dihedral];
  const fullB = [b.pdq, ...b.dihedral];
  const turned = Math.min(
    ...fullA.map((h) => hammingDistance(h, b.pdq)),
    ...fullB.map((h) => hammingDistance(h, a.pdq)),
  );
  if (turned <= Math.max(DEFAULT_PDQ_THRESHOLD, CANDIDATE_FULL_THRESHOLD)) return true;
  const near = (xs: readonly string[], ys: readonly string[], limit: number): boolean =>
    xs.some((x) => ys.some((y) => hammingDistance(x, y) <= limit));
  const region = Math.max(CANDIDATE_REGION_THRESHOLD, DEFAULT_CROP_THRESHOLD);
  return (
    near(a.crops, fullB, region) ||
    near(b.crops, fullA, region) ||
    near(a.crops, b.crops, CANDIDATE_REGION_REGION_THRESHOLD)
  );
}
