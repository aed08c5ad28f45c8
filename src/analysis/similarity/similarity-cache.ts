// The near-duplicate pairs, cached in the index (its `meta` table) so that `show --json` and the
// UI do not search the whole archive on every call. The index is rebuilt from the ledger and
// may be edited by anyone with the folder, so the cache is trusted only as far as it can be
// checked cheaply:
// - it is keyed by the analyses' ledger size (the highest analysis seq and their number) and by
//   the SHA-256 of every input it was computed from (each object's digest, analysis seq and
//   hashes, the withdrawn set, the thresholds, the matcher's version): a new analysis, a
//   withdrawal or an edited hash in the index changes the digest, and the pairs are recomputed;
// - each cached pair must name two current objects in order, with a known kind, and a hash
//   distance that is recomputed from the inputs and must agree (a planted or altered hash pair
//   is refused); a crop found by alignment must carry a well-formed box.
// A refused cache is recomputed, never trusted in part. Clusters are not cached: they are
// rebuilt from the pairs (union–find, cheap).
import { createHash } from 'node:crypto';
import { hammingDistance } from '../pdq/hash256.js'; // not the index: it loads sharp
import { ALIGN_TRANSFORMS, type AlignTransform, type CropBox } from './crop-align.js';
import {
  cropHashDistance,
  type HashedObject,
  type OverlapInfo,
  type SimilarPair,
} from './similarity.service.js';

/** The `meta` key the cache is kept under. */
export const SIMILARITY_CACHE_KEY = 'near_duplicates_cache';
/** Bumped whenever the matching changes what it finds. */
export const MATCHER_VERSION = 'near-dup/10';

export interface CacheKey {
  /** Highest ledger seq of the analyses the pairs were computed from, and their number. */
  analysesSize: number;
  analyses: number;
  /** SHA-256 over every input (see cacheKeyOf). */
  inputs: string;
}

/** The key for these inputs: computed from the index on every read, compared with the cache's. */
export function cacheKeyOf(
  objects: readonly (HashedObject & { seq: number })[],
  settings: { threshold?: number },
): CacheKey {
  // The grey rasters are not hashed: they sit in the analyses' ledger entries, which the seq
  // names and the ledger authenticates; the hashes are hashed, since they are read from the index.
  const h = createHash('sha256');
  h.update(`${MATCHER_VERSION}\n${settings.threshold ?? '-'}\n`);
  const sorted = [...objects].sort((x, y) => (x.sha256 < y.sha256 ? -1 : 1));
  for (const o of sorted)
    h.update(`${o.sha256}\t${o.seq}\t${o.pdq}\t${o.dihedral.join(',')}\t${o.crops.join(',')}\n`);
  return {
    analysesSize: objects.reduce((m, o) => Math.max(m, o.seq + 1), 0),
    analyses: objects.length,
    inputs: h.digest('hex'),
  };
}

export function encodeCache(key: CacheKey, pairs: readonly SimilarPair[]): string {
  return JSON.stringify({ key, pairs });
}

/**
 * The cached pairs if the cache is for exactly these inputs and every pair checks out against
 * them; null otherwise (absent, stale, malformed or tampered): the caller recomputes.
 */
export function decodeCache(
  text: string | undefined,
  key: CacheKey,
  objects: readonly HashedObject[],
  settings: { threshold?: number; cropThreshold?: number },
): SimilarPair[] | null {
  if (text === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  // Untrusted (a row anyone with the folder can edit): every field is checked.
  if (!isRecord(parsed) || !isRecord(parsed.key) || !Array.isArray(parsed.pairs)) return null;
  const k = parsed.key;
  if (k.analysesSize !== key.analysesSize || k.analyses !== key.analyses || k.inputs !== key.inputs)
    return null;
  const byDigest = new Map(objects.map((o) => [o.sha256, o]));
  const threshold = settings.threshold ?? 31;
  const out: SimilarPair[] = [];
  for (const p of parsed.pairs) {
    const pair = checkPair(p, byDigest, threshold);
    if (pair === null) return null;
    out.push(pair);
  }
  return out;
}

function checkPair(
  p: unknown,
  byDigest: Map<string, HashedObject>,
  threshold: number,
): SimilarPair | null {
  if (!isRecord(p)) return null;
  const { a, b, distance, kind, crop } = p;
  if (typeof a !== 'string' || typeof b !== 'string' || a >= b) return null;
  const oa = byDigest.get(a);
  const ob = byDigest.get(b);
  if (oa === undefined || ob === undefined || typeof distance !== 'number') return null;
  if (kind === 'pdq') {
    if (hammingDistance(oa.pdq, ob.pdq) !== distance || distance > threshold) return null;
  } else if (kind === 'pdq-dihedral') {
    const d = Math.min(
      ...[oa.pdq, ...oa.dihedral].map((h) => hammingDistance(h, ob.pdq)),
      ...ob.dihedral.map((h) => hammingDistance(h, oa.pdq)),
    );
    if (d !== distance || d > threshold) return null;
  } else if (kind === 'crop') {
    // A region hash of one against the full hash of the other (or, for an aligned crop, the
    // prefilter's distance, which may be region against region): it must be a distance some pair
    // of their hashes has.
    const fulls = (o: HashedObject): string[] => [o.pdq, ...o.dihedral];
    const near = [
      ...oa.crops.flatMap((c) => fulls(ob).map((h) => hammingDistance(c, h))),
      ...ob.crops.flatMap((c) => fulls(oa).map((h) => hammingDistance(c, h))),
      ...fulls(oa).map((h) => hammingDistance(h, ob.pdq)),
      // A region of one against a region of the other (crop candidates since near-dup/3).
      ...oa.crops.flatMap((c) => ob.crops.map((h) => hammingDistance(c, h))),
    ];
    if (!near.includes(distance)) return null;
  } else if (kind === 'overlap') {
    // Found only by composing two verified alignments (near-dup/5): its distance is the nearest
    // pair of their hashes (cropHashDistance), and it carries the overlap's box in each.
    if (distance !== cropHashDistance(oa, ob) || crop !== undefined) return null;
  } else return null;
  const out: SimilarPair = { a, b, distance, kind };
  if (crop !== undefined) {
    const c = checkCrop(crop, a, b);
    if (c === null) return null;
    out.crop = c;
  }
  if (kind === 'overlap') {
    const o = checkOverlap(p.overlap);
    if (o === null) return null;
    out.overlap = o;
  } else if (p.overlap !== undefined) return null;
  return out;
}

function checkBox(v: unknown): CropBox | null {
  if (!isRecord(v)) return null;
  const edges = [v.left, v.top, v.right, v.bottom];
  if (!edges.every((e) => typeof e === 'number' && e >= 0 && e <= 1)) return null;
  const [l, t, r, bo] = edges as number[];
  if (l! >= r! || t! >= bo!) return null;
  return { left: l!, top: t!, right: r!, bottom: bo! };
}

function checkOverlap(v: unknown): OverlapInfo | null {
  if (!isRecord(v) || !ALIGN_TRANSFORMS.includes(v.transform as AlignTransform)) return null;
  const a = checkBox(v.a);
  const b = checkBox(v.b);
  return a === null || b === null ? null : { a, b, transform: v.transform as AlignTransform };
}

function checkCrop(v: unknown, a: string, b: string): SimilarPair['crop'] | null {
  if (!isRecord(v) || !isRecord(v.box)) return null;
  const { original, transform } = v;
  if (original !== a && original !== b) return null;
  if (!ALIGN_TRANSFORMS.includes(transform as AlignTransform)) return null;
  const box = checkBox(v.box);
  return box === null ? null : { original: original, transform: transform as AlignTransform, box };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// The clusters, cached for reading one object's cluster without reading the whole archive's
// analyses (`show`, the item page). Checked cheaply, and trusted as far as the index is, for
// display only (decisions and reports go through archiveSimilarity and its checked pairs):
// - keyed by the analyses' ledger size: the ledger size at the last entry that wrote an analysis,
//   an object, an item, a delivery or a withdrawal (the index's `analysis_inputs` mark, projected
//   from the ledger: db/schema.ts, MarksTable; read before the analyses when the clusters are
//   computed, so that a cache can only be older than its key says), the threshold and the
//   matcher's version. A new analysis, an ingestion or a withdrawal makes it stale (a stale cache
//   costs one pass over the checked pairs, not a search: those are keyed by their inputs); an
//   entry that changes none of those (a decision, a sign-in, an audited view) leaves it current;
// - the cluster read must be well formed (sorted distinct digests, its id the smallest), its
//   object named in no other line, every member a current analysed object, and the members
//   linked by pairs the search could have found; its largest distance is recomputed from the
//   members' hashes (readClusterOf, archive-similarity.service.ts).
// One line per cluster, so that one cluster is found by a string search and only its line parsed.

/** The `meta` key the clusters are kept under. */
export const CLUSTERS_CACHE_KEY = 'near_duplicates_clusters';
// /2: keyed by the analyses' ledger size (/1 was keyed by the whole ledger's size, which the same
// number could equal: a /1 cache is never read as /2). /3: a second line gives the grey step's
// coverage (grey-coverage.ts), so that `show` can say whether the step ran without every pair.
const CLUSTERS_FORMAT = 'near-dup-clusters/3';

export interface ClustersKey {
  matcher: string;
  threshold: number | null;
  /**
   * The analyses' ledger size (ArchiveIndexRepository.analysisInputsSize) the index reflected when
   * the clusters were computed.
   */
  analysesSize: number;
}

export function clustersKeyOf(analysesSize: number, threshold?: number): ClustersKey {
  return { matcher: MATCHER_VERSION, threshold: threshold ?? null, analysesSize };
}

const keyText = (k: ClustersKey): string =>
  JSON.stringify([k.matcher, k.threshold, k.analysesSize]);

/** The grey step's coverage as the clusters' cache keeps it: how many objects needed it, of how many it takes. */
export interface GreyCounts {
  needing: number;
  limit: number;
}

export function encodeClusters(
  key: ClustersKey,
  clusters: readonly { objects: readonly string[]; max_distance: number }[],
  grey: GreyCounts,
): string {
  const lines = [`${CLUSTERS_FORMAT} ${keyText(key)}`, `grey ${grey.needing} ${grey.limit}`];
  for (const c of clusters) lines.push(`${c.max_distance} ${c.objects.join(' ')}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The grey step's coverage from the clusters' cache when it is current and its line well formed
 * (the limit must be the one the search uses), else undefined. Only the first two lines are read.
 * Trusted as far as the index is, like the clusters: for display.
 */
export function decodeGreyCounts(text: string | undefined, key: ClustersKey, limit: number): GreyCounts | undefined {
  if (text === undefined || !text.endsWith('\n')) return undefined;
  const head = text.indexOf('\n');
  if (head < 0 || text.slice(0, head) !== `${CLUSTERS_FORMAT} ${keyText(key)}`) return undefined;
  const m = /^grey (0|[1-9][0-9]{0,9}) (0|[1-9][0-9]{0,9})$/.exec(text.slice(head + 1, text.indexOf('\n', head + 1)));
  if (m === null || Number(m[2]) !== limit) return undefined;
  return { needing: Number(m[1]), limit };
}

/**
 * The cached cluster holding `sha256`: a cluster, null when the cache is current and names no
 * cluster for it (a singleton), or undefined when the cache is absent, stale or malformed (the
 * caller computes the clusters). Untrusted text: only the key line and the one line are parsed.
 */
export function decodeClusterOf(
  text: string | undefined,
  key: ClustersKey,
  sha256: string,
): { id: string; objects: string[]; max_distance: number } | null | undefined {
  if (text === undefined || !/^[0-9a-f]{64}$/.test(sha256)) return undefined;
  const head = text.indexOf('\n');
  if (head < 0 || text.slice(0, head) !== `${CLUSTERS_FORMAT} ${keyText(key)}`) return undefined;
  if (!text.endsWith('\n') || !text.startsWith('grey ', head + 1)) return undefined;
  const at = text.indexOf(` ${sha256}`, head);
  if (at < 0) return null;
  if (text.indexOf(` ${sha256}`, at + 65) >= 0) return undefined; // named twice: refused
  const start = text.lastIndexOf('\n', at) + 1;
  const line = text.slice(start, text.indexOf('\n', at));
  const [distance, ...objects] = line.split(' ');
  if (!/^(0|[1-9][0-9]{0,2})$/.test(distance ?? '') || Number(distance) > 256) return undefined;
  if (objects.length < 2 || !objects.every((o) => /^[0-9a-f]{64}$/.test(o))) return undefined;
  for (let i = 1; i < objects.length; i++) if (!(objects[i - 1]! < objects[i]!)) return undefined;
  return { id: objects[0]!, objects, max_distance: Number(distance) };
}

// The likely original of each object verified as a crop of another (what DIMENSIONS_UNLIKE_CAMERA
// names), cached beside the clusters under the same key, so that the indicators of one object
// (`show`, the item page) need not read every pair. One line per cropped object:
// `<cropped> <original> <transform> <left> <top> <right> <bottom>`. Untrusted: the line read is
// checked by aligning the two objects' grey rasters again, read from their analyses' ledger
// entries (readCropOriginOf, archive-similarity.service.ts); a line that does not align to the
// same original, transform and box is refused, and the pairs are read instead.

/** The `meta` key the crop originals are kept under. */
export const CROPS_CACHE_KEY = 'near_duplicates_crops';
const CROPS_FORMAT = 'near-dup-crops/2'; // /2: as the clusters

export interface CropOrigin {
  original: string;
  transform: AlignTransform;
  box: { left: number; top: number; right: number; bottom: number };
}

export function encodeCropOrigins(key: ClustersKey, origins: ReadonlyMap<string, CropOrigin>): string {
  const lines = [`${CROPS_FORMAT} ${keyText(key)}`];
  for (const [cropped, o] of [...origins].sort(([x], [y]) => (x < y ? -1 : 1))) {
    const b = o.box;
    lines.push(`${cropped} ${o.original} ${o.transform} ${b.left} ${b.top} ${b.right} ${b.bottom}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The cached likely original of `sha256`: one, null when the cache is current and names none, or
 * undefined when the cache is absent, stale or malformed. Only the key line and the one line are
 * parsed; the caller checks the line against the two objects' analyses.
 */
export function decodeCropOriginOf(
  text: string | undefined,
  key: ClustersKey,
  sha256: string,
): CropOrigin | null | undefined {
  if (text === undefined || !/^[0-9a-f]{64}$/.test(sha256)) return undefined;
  const head = text.indexOf('\n');
  if (head < 0 || text.slice(0, head) !== `${CROPS_FORMAT} ${keyText(key)}`) return undefined;
  if (!text.endsWith('\n')) return undefined;
  const at = text.indexOf(`\n${sha256} `, head - 1);
  if (at < 0) return null;
  if (text.indexOf(`\n${sha256} `, at + 1) >= 0) return undefined; // named twice: refused
  const [cropped, original, transform, ...edges] = text.slice(at + 1, text.indexOf('\n', at + 1)).split(' ');
  if (cropped !== sha256 || original === undefined || !/^[0-9a-f]{64}$/.test(original)) return undefined;
  if (original === sha256 || !ALIGN_TRANSFORMS.includes(transform as AlignTransform)) return undefined;
  if (edges.length !== 4 || !edges.every((e) => /^[0-9][0-9.e+-]*$/.test(e))) return undefined;
  const [left, top, right, bottom] = edges.map(Number) as [number, number, number, number];
  if (![left, top, right, bottom].every((e) => Number.isFinite(e) && e >= 0 && e <= 1)) return undefined;
  if (left >= right || top >= bottom) return undefined;
  return { original, transform: transform as AlignTransform, box: { left, top, right, bottom } };
}
