import { findPairs, type HashRecord } from '../near-duplicates/index.js';
import { hammingDistance, parseHash256 } from '../pdq/hash256.js'; // not the index: it loads sharp
import { buildClusters, type Match } from './clusters.js';
import type { AlignTransform, CropBox } from './crop-align.js';
import { MIN_PARALLEL_PAIRS, openAlignPool, type AlignPool } from './align-parallel.js';
import {
  alignPair,
  cropCandidates,
  verifiesCrop,
  verifiesOverlap,
  type VerifiedCrop,
} from './crop-match.js';
import {
  alignOverlap,
  compose,
  cropToOriginal,
  inverseTurn,
  invert,
  type FrameMap,
} from './crop-overlap.js';
import { GREY_NEIGHBOURS, nearestByGrey } from './grey-candidates.js';
import { inSmallComponents, MAX_GREY_QUERIES } from './grey-coverage.js';

/** What the similarity search needs of each analysed object. */
export interface HashedObject {
  sha256: string;
  pdq: string;
  /** The 7 dihedral variants (rotate90 … flipMinus1), 64 hex each. */
  dihedral: string[];
  /** Crop-region hashes (see analysis/image/raster CROP_REGIONS). */
  crops: string[];
  /** The small square greyscale raster for crop alignment (analyses since custody-image/3). */
  grey?: Uint8Array;
}

export interface SimilarPair {
  a: string;
  b: string;
  distance: number;
  kind: Match['kind'];
  /**
   * For a crop whose alignment was verified: which of the two is the larger view (the likely
   * original), the box of it the other shows (fractions of its stored width and height: left
   * and top edges, right and bottom edges), and how the crop was turned or mirrored.
   */
  crop?: { original: string; box: CropBox; transform: AlignTransform };
  /**
   * For two views that overlap without either containing the other (kind 'overlap', e.g. two
   * crops of one original): the overlap's box in `a` and in `b` (fractions of each one's stored
   * width and height), and how `b` was turned or mirrored relative to `a`'s pixels.
   */
  overlap?: OverlapInfo;
}

export interface OverlapInfo {
  a: CropBox;
  b: CropBox;
  transform: AlignTransform;
}

export interface SimilarityCluster {
  id: string;
  objects: string[];
  max_distance: number;
}

export const DEFAULT_PDQ_THRESHOLD = 31;
/** Crop matches are held to a stricter distance: a region hash is a weaker signal. */
export const DEFAULT_CROP_THRESHOLD = 24;

/**
 * Every pair of objects in the whole archive within the threshold: plain PDQ, PDQ over the 8
 * dihedral variants (rotations and flips), and the crop signal (an object's region hashes against
 * every other object's full hash). Exact: the multi-index search misses no pair (see
 * analysis/near-duplicates). Pairs are reported once, with the strongest kind that found them.
 */
export interface SimilarityOptions {
  threshold?: number;
  cropThreshold?: number;
  align?: boolean;
  hop?: boolean;
  /** The one hop also links views that overlap (by composing their relations to the third). */
  overlap?: boolean;
  /** Objects no match links meet their nearest by grey descriptor (grey-candidates.ts). */
  grey?: boolean;
  /** …unless more than this many need it (default MAX_GREY_QUERIES): then that step is skipped. */
  greyMaxQueries?: number;
  /** How many nearest objects each of them is aligned with (default GREY_NEIGHBOURS). */
  greyNeighbours?: number;
}

/** Pairs the alignment step is about to align, and the answers of those aligned elsewhere. */
type AlignBatch = (readonly [number, number])[];
type Answers = Map<string, VerifiedCrop | null> | undefined;
type Steps<T> = Generator<AlignBatch, T, Answers>;

export function findSimilarPairs(
  objects: readonly HashedObject[],
  opts: SimilarityOptions = {},
): SimilarPair[] {
  const steps = similaritySteps(objects, opts);
  let r = steps.next(undefined);
  while (r.done !== true) r = steps.next(undefined);
  return r.value;
}

/**
 * findSimilarPairs with the alignments on worker threads (one per core by default): each step's
 * pairs are aligned there before the step reads them, so the result is findSimilarPairs', pair
 * for pair. Without a compiled build (the test runner's TypeScript) it aligns on this thread.
 */
export async function findSimilarPairsParallel(
  objects: readonly HashedObject[],
  opts: SimilarityOptions & {
    threads?: number;
    /** A step with fewer pairs than this aligns on this thread (default MIN_PARALLEL_PAIRS). */
    minParallelPairs?: number;
  } = {},
): Promise<SimilarPair[]> {
  let pool: AlignPool | null | undefined;
  try {
    const steps = similaritySteps(objects, opts);
    let r = steps.next(undefined);
    while (r.done !== true) {
      let ready: Answers;
      if (r.value.length > 0 && r.value.length >= (opts.minParallelPairs ?? MIN_PARALLEL_PAIRS)) {
        pool ??= openAlignPool(
          objects.map((o) => o.grey),
          opts.threads,
        );
        ready = pool === null ? undefined : await pool.alignAll(r.value);
      }
      r = steps.next(ready);
    }
    return r.value;
  } finally {
    await pool?.close();
  }
}

function* similaritySteps(
  objects: readonly HashedObject[],
  opts: SimilarityOptions,
): Steps<SimilarPair[]> {
  const threshold = opts.threshold ?? DEFAULT_PDQ_THRESHOLD;
  const cropThreshold = Math.min(threshold, opts.cropThreshold ?? DEFAULT_CROP_THRESHOLD);
  const records: HashRecord[] = objects.map((o, i) => ({
    id: i,
    hash: hexBytes(o.pdq),
    dihedral: o.dihedral.map(hexBytes),
  }));
  const best = new Map<string, Match>();
  for (const p of findPairs(records, { threshold, dihedral: true }))
    best.set(`${p.a}:${p.b}`, { a: p.a, b: p.b, distance: p.distance, kind: p.kind });

  // Crop signal: each object's region hashes stand as its variants, so that the search meets
  // exactly the region↔other-full-hash terms, probing with the full hashes only (not a query
  // per region hash). A pair whose plain distance wins is a PDQ match, already found above.
  const regions = Math.max(1, ...objects.map((o) => o.crops.length));
  const cropRecords: HashRecord[] = objects.map((o, i) => ({
    id: i,
    hash: hexBytes(o.pdq),
    dihedral: o.crops.map(hexBytes),
  }));
  const cropOpts = { threshold: cropThreshold, dihedral: true, variantsPerRecord: regions };
  for (const p of findPairs(cropRecords, cropOpts)) {
    if (p.kind === 'pdq') continue;
    const key = `${p.a}:${p.b}`;
    if (!best.has(key)) best.set(key, { a: p.a, b: p.b, distance: p.distance, kind: 'crop' });
  }
  const found: Aligned =
    opts.align === false
      ? { crops: new Map(), overlaps: new Map() }
      : yield* alignCrops(objects, best, {
          hop: opts.hop !== false,
          overlap: opts.overlap !== false,
          grey: opts.grey !== false,
          greyMaxQueries: opts.greyMaxQueries ?? MAX_GREY_QUERIES,
          greyNeighbours: opts.greyNeighbours ?? GREY_NEIGHBOURS,
        });
  return [...best.values()]
    .map((m) => {
      const crop = found.crops.get(`${m.a}:${m.b}`);
      const overlap = found.overlaps.get(`${m.a}:${m.b}`);
      return {
        a: objects[m.a]?.sha256 ?? '',
        b: objects[m.b]?.sha256 ?? '',
        distance: m.distance,
        kind: m.kind,
        ...(crop === undefined ? {} : { crop }),
        ...(overlap === undefined ? {} : { overlap }),
      };
    })
    .map((p) => (p.a < p.b ? p : swapped(p)))
    .sort((x, y) => (x.a === y.a ? (x.b < y.b ? -1 : 1) : x.a < y.a ? -1 : 1));
}

/**
 * An overlap as one of its two objects sees it (`fromA`: the pair's `a`): the box of the overlap in
 * itself and in the other, and how the other was turned relative to it.
 */
export function overlapSeenFrom(
  o: OverlapInfo,
  fromA: boolean,
): { self: CropBox; other: CropBox; transform: AlignTransform } {
  return fromA
    ? { self: o.a, other: o.b, transform: o.transform }
    : { self: o.b, other: o.a, transform: inverseTurn(o.transform) };
}

/** The pair named the other way round (an overlap's boxes swapped and its turn undone). */
function swapped(p: SimilarPair): SimilarPair {
  const { overlap, ...rest } = p;
  return {
    ...rest,
    a: p.b,
    b: p.a,
    ...(overlap === undefined
      ? {}
      : { overlap: { a: overlap.b, b: overlap.a, transform: inverseTurn(overlap.transform) } }),
  };
}

type CropInfo = NonNullable<SimilarPair['crop']>;
interface Aligned {
  crops: Map<string, CropInfo>;
  overlaps: Map<string, OverlapInfo>;
}

/** PDQ matches closer than this are copies, not crops: not aligned, and never vetoed. */
const MIN_ALIGNED_DISTANCE = 8;
/**
 * The one-hop step aligns the pairs of a match's neighbours only through an object with at most
 * this many matches: a large cluster (a burst of hundreds of frames) would cost its square.
 */
export const MAX_HOP_DEGREE = 48;

/** More than half a per cent cut from some side. */
function isCut(b: CropBox): boolean {
  return b.left > 0.005 || b.top > 0.005 || b.right < 0.995 || b.bottom < 0.995;
}

/**
 * The alignment step over the grey rasters (analyses without one, from before custody-image/3,
 * take no part, and their hash matches stand as found):
 * 1. hash matches at distance 8 or more are aligned: the box where they are crops, and the match
 *    dropped when it does not align (a same setting with another subject is within PDQ 31 of the
 *    photo; the alignment sees the subject differ);
 * 2. crops the hash signals miss: candidates from looser hash searches, aligned;
 * 3. one hop: two objects that both match a third are aligned with each other (a crop the
 *    prefilter did not pair with its original, but paired with a re-compressed or turned copy of
 *    it, meets the original this way); when neither contains the other, their two relations to
 *    the third compose into where one sits on the other, which is refined and verified over the
 *    overlap (crop-overlap.ts): two crops of one original, cut from different sides.
 * Adds the verified pairs to `best` as 'crop' or 'overlap' matches (distance: the nearest pair of
 * their hashes, see cropHashDistance), and returns the crop box of every match whose alignment
 * found a cut, and the overlap's boxes of every overlap.
 */
function* alignCrops(
  objects: readonly HashedObject[],
  best: Map<string, Match>,
  opts: {
    hop: boolean;
    overlap: boolean;
    grey: boolean;
    greyMaxQueries: number;
    greyNeighbours: number;
  },
): Steps<Aligned> {
  const out: Aligned = { crops: new Map(), overlaps: new Map() };
  const withGrey = objects.flatMap((o, i) => (o.grey === undefined ? [] : [i]));
  if (withGrey.length < 2) return out;
  const tried = new Set<string>();
  const relations = new Relations(objects);
  const align = (a: number, b: number): CropInfo | null | undefined => {
    tried.add(`${a}:${b}`);
    const v = relations.align(a, b);
    if (v === undefined || v === null) return v;
    return { original: objects[v.original]?.sha256 ?? '', box: v.box, transform: v.transform };
  };
  // Each step first hands out the pairs it is about to align (the ones that are neither matched
  // nor tried when it starts), and reads the answers of those aligned elsewhere (Relations.accept).
  const untried = (pairs: Iterable<readonly [number, number]>): AlignBatch => {
    const out = new Map<string, readonly [number, number]>();
    for (const [a, b] of pairs) {
      const key = `${a}:${b}`;
      if (!best.has(key) && !tried.has(key)) out.set(key, [a, b]);
    }
    return [...out.values()];
  };
  // 1. The hash matches: a box where they are crops; dropped where they do not align.
  const matches = [...best].filter(
    ([, m]) => m.kind === 'crop' || m.distance >= MIN_ALIGNED_DISTANCE,
  );
  relations.accept(yield matches.map(([, m]) => [m.a, m.b] as const));
  for (const [key, m] of matches) {
    const crop = align(m.a, m.b);
    if (crop === null) best.delete(key);
    else if (crop !== undefined && (m.kind === 'crop' || isCut(crop.box))) out.crops.set(key, crop);
  }
  const addVerified = (a: number, b: number, crop: CropInfo, distance: number): void => {
    best.set(`${a}:${b}`, { a, b, distance, kind: 'crop' });
    out.crops.set(`${a}:${b}`, crop);
  };
  /** Aligns the pairs neither matched nor tried yet; each that verifies is added. */
  const alignUnmatched = (pairs: readonly (readonly [number, number])[]): void => {
    for (const [a, b] of pairs) {
      if (best.has(`${a}:${b}`) || tried.has(`${a}:${b}`)) continue;
      const crop = align(a, b);
      if (crop) addVerified(a, b, crop, cropHashDistance(objects[a]!, objects[b]!));
    }
  };
  // 2. Candidates from the looser hash searches.
  // Parsed here for this search only: hashBytesOf keeps an object's bytes while the object lives
  // (about 2.4 KB for its 18 hashes), which only the objects of an added pair need.
  const inputs = withGrey.map((i) => {
    const o = objects[i]!;
    return {
      pdq: hexBytes(o.pdq),
      dihedral: o.dihedral.map(hexBytes),
      crops: o.crops.map(hexBytes),
    };
  });
  const candidates = [...cropCandidates(inputs)].map(([key, distance]) => {
    const [x, y] = key.split(':').map(Number) as [number, number];
    return [
      Math.min(withGrey[x]!, withGrey[y]!),
      Math.max(withGrey[x]!, withGrey[y]!),
      distance,
    ] as const;
  });
  relations.accept(yield untried(candidates.map(([a, b]) => [a, b] as const)));
  for (const [a, b, distance] of candidates) {
    if (best.has(`${a}:${b}`) || tried.has(`${a}:${b}`)) continue;
    const crop = align(a, b);
    if (crop) addVerified(a, b, crop, distance);
  }
  // 2b. Objects still alone (a crop cut unevenly and turned or flipped, whose hashes are as far
  // from its original's as an unrelated scene's): candidates from their grey rasters' coarse
  // descriptor, nearest over the turns and flips (grey-candidates.ts), aligned.
  if (opts.grey) {
    const grey = greyCandidates(objects, withGrey, best, opts.greyMaxQueries, opts.greyNeighbours);
    const nearest = [...grey].flatMap(([q, ns]) =>
      ns.map((j) => [Math.min(q, j), Math.max(q, j)] as const),
    );
    relations.accept(yield untried(nearest));
    alignUnmatched(nearest);
    // 2c. A query still alone is aligned with the widest view its neighbours are crops of: its
    // nearest by the descriptor are often other crops of its original, and two crops cut from
    // different sides do not contain one another, but the original contains both.
    const linked = new Set([...best.values()].flatMap((m) => [m.a, m.b]));
    const widest = widestOriginals(objects, out.crops);
    const viaOriginal = [...grey].flatMap(([q, ns]) => {
      if (linked.has(q)) return [];
      const views = new Set(ns.flatMap((j) => widest.get(j) ?? []));
      views.delete(q);
      return [...views].map((o) => [Math.min(q, o), Math.max(q, o)] as const);
    });
    relations.accept(yield untried(viaOriginal));
    alignUnmatched(viaOriginal);
  }
  // 3. One hop through the matches so far (not through the pairs this step adds).
  if (!opts.hop) return out;
  const addOverlap = (via: number, a: number, b: number): boolean => {
    const o = opts.overlap ? relations.overlapVia(via, a, b) : null;
    if (o === null) return false;
    best.set(`${a}:${b}`, {
      a,
      b,
      distance: cropHashDistance(objects[a]!, objects[b]!),
      kind: o.kind,
    });
    if (o.kind === 'overlap') out.overlaps.set(`${a}:${b}`, o.overlap);
    else out.crops.set(`${a}:${b}`, o.crop);
    return true;
  };
  let fresh: [number, number][] = [];
  const hop = neighboursOf(best);
  const hopPairs = [...hop.values()]
    .filter((ns) => ns.length <= MAX_HOP_DEGREE)
    .flatMap((ns) =>
      ns.flatMap((x, i) => ns.slice(i + 1).map((y) => [Math.min(x, y), Math.max(x, y)] as const)),
    );
  relations.accept(yield untried(hopPairs));
  for (const [via, ns] of hop) {
    if (ns.length > MAX_HOP_DEGREE) continue;
    for (let i = 0; i < ns.length; i++) {
      for (let j = i + 1; j < ns.length; j++) {
        const a = Math.min(ns[i]!, ns[j]!);
        const b = Math.max(ns[i]!, ns[j]!);
        if (best.has(`${a}:${b}`)) continue;
        // A pair a candidate search aligned already is not aligned again; its overlap is tried
        // through each object both match until one verifies (their relations are kept).
        const crop = tried.has(`${a}:${b}`) ? null : align(a, b);
        if (crop) addVerified(a, b, crop, cropHashDistance(objects[a]!, objects[b]!));
        if (crop || addOverlap(via, a, b)) fresh.push([a, b]);
      }
    }
  }
  // 4. Further hops through the pairs the last one added, by composing relations only (no blind
  // search): a view linked only by the hop (a crop the prefilter missed, met through a copy)
  // meets the other views of the group this way.
  for (let round = 1; opts.overlap && round < HOP_ROUNDS && fresh.length > 0; round++) {
    const neighbours = neighboursOf(best);
    const seen = new Set<string>();
    const next: [number, number][] = [];
    for (const [x, y] of fresh) {
      for (const [via, other] of [
        [x, y],
        [y, x],
      ] as const) {
        const ns = neighbours.get(via) ?? [];
        if (ns.length > MAX_HOP_DEGREE) continue;
        for (const z of ns) {
          const a = Math.min(other, z);
          const b = Math.max(other, z);
          if (a === b || best.has(`${a}:${b}`) || seen.has(`${via}:${a}:${b}`)) continue;
          seen.add(`${via}:${a}:${b}`);
          if (addOverlap(via, a, b)) next.push([a, b]);
        }
      }
    }
    fresh = next;
  }
  return out;
}

/**
 * For every object verified as a crop of another, the widest view it is a crop of: the original
 * in which its box is smallest (the lowest index on a tie).
 */
function widestOriginals(
  objects: readonly HashedObject[],
  crops: ReadonlyMap<string, CropInfo>,
): Map<number, number> {
  const out = new Map<number, { view: number; area: number }>();
  for (const [key, crop] of crops) {
    const [a, b] = key.split(':').map(Number) as [number, number];
    const [view, cropped] = objects[a]?.sha256 === crop.original ? [a, b] : [b, a];
    const area = (crop.box.right - crop.box.left) * (crop.box.bottom - crop.box.top);
    const prior = out.get(cropped);
    if (prior === undefined || area < prior.area || (area === prior.area && view < prior.view))
      out.set(cropped, { view, area });
  }
  return new Map([...out].map(([cropped, w]) => [cropped, w.view]));
}

/**
 * The grey-descriptor neighbours of every object with a raster that matches so far leave in a
 * small component (exact up to MAX_GREY_PAIRS queries × objects, from an approximate index above);
 * none when more than `maxQueries` objects are in such components.
 */
function greyCandidates(
  objects: readonly HashedObject[],
  withGrey: readonly number[],
  best: ReadonlyMap<string, Match>,
  maxQueries: number,
  neighbours: number,
): Map<number, number[]> {
  // A query is an object with a raster in a small component of the matches so far.
  const hasGrey = new Set(withGrey);
  const queries = inSmallComponents(
    objects.length,
    [...best.values()].map((m) => [m.a, m.b] as const),
    (i) => hasGrey.has(i),
  );
  if (queries.length > maxQueries) return new Map();
  const size = Math.round(Math.sqrt(objects[withGrey[0]!]!.grey!.length));
  return nearestByGrey(
    objects.map((o) => o.grey),
    size,
    queries,
    neighbours,
  );
}

/** Rounds of hops (the first one also searches blind for a crop; the others compose only). */
export const HOP_ROUNDS = 3;

function neighboursOf(best: ReadonlyMap<string, Match>): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const m of best.values()) {
    const a = out.get(m.a);
    if (a === undefined) out.set(m.a, [m.b]);
    else a.push(m.b);
    const b = out.get(m.b);
    if (b === undefined) out.set(m.b, [m.a]);
    else b.push(m.a);
  }
  return out;
}

/**
 * The verified relations between objects (which one shows which box of the other, turned how),
 * kept from every alignment that verified so that the one hop can compose them.
 */
class Relations {
  /** `${x}>${y}` → the map from y's frame to x's. */
  private readonly maps = new Map<string, FrameMap>();
  private readonly done = new Set<string>();
  /** alignPair's answers computed elsewhere (findSimilarPairsParallel), each read once. */
  private readonly ready = new Map<string, VerifiedCrop | null>();

  constructor(private readonly objects: readonly HashedObject[]) {}

  accept(ready: Answers): void {
    for (const [key, v] of ready ?? []) this.ready.set(key, v);
  }

  /** alignPair on the two rasters; undefined when either has none (or they differ in size). */
  align(a: number, b: number): VerifiedCrop | null | undefined {
    this.done.add(`${a}:${b}`);
    const ga = this.objects[a]?.grey;
    const gb = this.objects[b]?.grey;
    if (ga === undefined || gb === undefined || ga.length !== gb.length) return undefined;
    const key = `${a}:${b}`;
    const v = this.ready.has(key)
      ? (this.ready.get(key) ?? null)
      : alignPair(a, b, ga, gb, Math.round(Math.sqrt(ga.length)));
    this.ready.delete(key);
    if (v === null || !verifiesCrop(v)) return null;
    this.maps.set(`${v.original}>${v.cropped}`, cropToOriginal(v.box, v.transform));
    return v;
  }

  /** The map from y's frame to x's: from a verified alignment, made now if the two never were. */
  mapOf(x: number, y: number): FrameMap | null {
    const [a, b] = x < y ? [x, y] : [y, x];
    if (!this.done.has(`${a}:${b}`)) this.align(a, b);
    const direct = this.maps.get(`${x}>${y}`);
    if (direct !== undefined) return direct;
    const back = this.maps.get(`${y}>${x}`);
    return back === undefined ? null : invert(back);
  }

  /**
   * a and b, both related to `via`: b's frame → via's → a's is the estimate, verified over the
   * overlap. A verified overlap that covers one of the two whole is a crop.
   */
  overlapVia(
    via: number,
    a: number,
    b: number,
  ): { kind: 'overlap'; overlap: OverlapInfo } | { kind: 'crop'; crop: CropInfo } | null {
    const ga = this.objects[a]?.grey;
    const gb = this.objects[b]?.grey;
    if (ga === undefined || gb === undefined || ga.length !== gb.length) return null;
    const toA = this.mapOf(via, a);
    const toB = this.mapOf(via, b);
    if (toA === null || toB === null) return null;
    const v = alignOverlap(ga, gb, Math.round(Math.sqrt(ga.length)), compose(invert(toA), toB));
    if (v === null || !verifiesOverlap(v)) return null;
    this.done.add(a < b ? `${a}:${b}` : `${b}:${a}`);
    this.maps.set(`${a}>${b}`, v.map);
    const sha = (i: number): string => this.objects[i]?.sha256 ?? '';
    const t = v.params.transform;
    if (v.shareOther >= WHOLE)
      return { kind: 'crop', crop: { original: sha(a), box: v.boxFirst, transform: t } };
    if (v.shareFirst >= WHOLE)
      return {
        kind: 'crop',
        crop: { original: sha(b), box: v.boxOther, transform: inverseTurn(t) },
      };
    return { kind: 'overlap', overlap: { a: v.boxFirst, b: v.boxOther, transform: t } };
  }
}

/** An overlap that covers this share of a view is the whole of it (a crop of the other). */
const WHOLE = 0.985;

/**
 * The nearest pair of two objects' hashes that the crop signal compares (a region of either
 * against the other's full hash or its turns, the full hashes, a region against a region): the
 * distance an aligned crop is recorded with, which the cache checks against the same list.
 */
export function cropHashDistance(a: HashedObject, b: HashedObject): number {
  const x = hashBytesOf(a);
  const y = hashBytesOf(b);
  let d = 256;
  for (const c of x.crops) for (const h of y.fulls) d = Math.min(d, hammingDistance(c, h));
  for (const c of y.crops) for (const h of x.fulls) d = Math.min(d, hammingDistance(c, h));
  for (const h of x.fulls) d = Math.min(d, hammingDistance(h, y.pdq));
  for (const c of x.crops) for (const h of y.crops) d = Math.min(d, hammingDistance(c, h));
  return d;
}

interface HashBytes {
  of: Pick<HashedObject, 'pdq' | 'dihedral' | 'crops'>;
  pdq: Uint8Array;
  /** The full hash and its 7 turns. */
  fulls: Uint8Array[];
  crops: Uint8Array[];
}

/**
 * An object's hashes as bytes, parsed (and validated, as hammingDistance validates text) once per
 * object rather than once per comparison: the alignment step measures cropHashDistance for every
 * pair it adds, 268 distances each, and parsing the text was most of that.
 */
const hashBytes = new WeakMap<HashedObject, HashBytes>();

function hashBytesOf(o: HashedObject): HashBytes {
  const known = hashBytes.get(o);
  if (
    known !== undefined &&
    known.of.pdq === o.pdq &&
    known.of.dihedral === o.dihedral &&
    known.of.crops === o.crops
  )
    return known;
  const bytes = (hex: string): Uint8Array => {
    parseHash256(hex); // throws PDQ_BAD_HASH on anything but 64 hex digits
    return hexBytes(hex);
  };
  const pdq = bytes(o.pdq);
  const parsed: HashBytes = {
    of: { pdq: o.pdq, dihedral: o.dihedral, crops: o.crops },
    pdq,
    fulls: [pdq, ...o.dihedral.map(bytes)],
    crops: o.crops.map(bytes),
  };
  hashBytes.set(o, parsed);
  return parsed;
}

/** Connected components over the pairs; id = smallest member digest (stable while members are). */
export function clusterObjects(
  objects: readonly HashedObject[],
  pairs: readonly SimilarPair[],
): SimilarityCluster[] {
  const index = new Map(objects.map((o, i) => [o.sha256, i]));
  const matches: Match[] = pairs.map((p) => ({
    a: index.get(p.a) ?? 0,
    b: index.get(p.b) ?? 0,
    distance: p.distance,
    kind: p.kind,
  }));
  // Each member's hashes decoded once, not at every one of the cluster's pairs (the check is
  // quadratic in a cluster's size): hammingDistance on the bytes is the same distance, and text
  // that is not 64 hex digits is kept as text, for hammingDistance to refuse as before.
  const decoded = new Map<number, (string | Uint8Array)[]>();
  const hashesOf = (i: number, o: HashedObject): (string | Uint8Array)[] => {
    let hs = decoded.get(i);
    if (hs === undefined) {
      hs = [o.pdq, ...o.dihedral].map((h) =>
        /^[0-9a-fA-F]{64}$/.test(h) ? new Uint8Array(Buffer.from(h, 'hex')) : h,
      );
      decoded.set(i, hs);
    }
    return hs;
  };
  const minOverVariants = (i: number, j: number): number => {
    const a = objects[i];
    const b = objects[j];
    if (a === undefined || b === undefined) return 0;
    const [pa = a.pdq, ...turned] = hashesOf(i, a);
    const pb = hashesOf(j, b)[0] ?? b.pdq;
    let d = hammingDistance(pa, pb);
    for (const v of turned) d = Math.min(d, hammingDistance(v, pb));
    return d;
  };
  return buildClusters(objects.length, matches, minOverVariants)
    .map((c) => {
      const digests = c.members.map((i) => objects[i]?.sha256 ?? '').sort();
      return { id: digests[0] ?? '', objects: digests, max_distance: c.maxDistance };
    })
    .sort((x, y) => (x.id < y.id ? -1 : 1));
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}
