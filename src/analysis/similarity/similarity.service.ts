import { findPairs, type HashRecord } from '../near-duplicates/index.js';
import { hammingDistance } from '../pdq/hash256.js'; // not the index: it loads sharp
import { buildClusters, type Match } from './clusters.js';

/** What the similarity search needs of each analysed object. */
export interface HashedObject {
  sha256: string;
  pdq: string;
  /** The 7 dihedral variants (rotate90 … flipMinus1), 64 hex each. */
  dihedral: string[];
  /** Crop-region hashes (see analysis/image/raster CROP_REGIONS). */
  crops: string[];
}

export interface SimilarPair {
  a: string;
  b: string;
  distance: number;
  kind: Match['kind'];
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
export function findSimilarPairs(
  objects: readonly HashedObject[],
  opts: { threshold?: number; cropThreshold?: number } = {},
): SimilarPair[] {
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

  // Crop signal: originals and region hashes in one search; keep only region↔other-original pairs.
  const n = objects.length;
  const owner: number[] = [];
  const cropRecords: HashRecord[] = objects.map((o, i) => ({ id: i, hash: hexBytes(o.pdq) }));
  objects.forEach((o, i) => {
    for (const c of o.crops) {
      owner.push(i);
      cropRecords.push({ id: n + owner.length - 1, hash: hexBytes(c) });
    }
  });
  for (const p of findPairs(cropRecords, { threshold: cropThreshold, dihedral: false })) {
    const isCropA = p.a >= n;
    const isCropB = p.b >= n;
    if (isCropA === isCropB) continue;
    const original = isCropA ? p.b : p.a;
    const cropOwner = owner[(isCropA ? p.a : p.b) - n] ?? -1;
    if (cropOwner === original || cropOwner < 0) continue;
    const a = Math.min(original, cropOwner);
    const b = Math.max(original, cropOwner);
    const key = `${a}:${b}`;
    const prior = best.get(key);
    if (prior === undefined) best.set(key, { a, b, distance: p.distance, kind: 'crop' });
    else if (prior.kind === 'crop' && p.distance < prior.distance) prior.distance = p.distance;
  }
  return [...best.values()]
    .map((m) => ({
      a: objects[m.a]?.sha256 ?? '',
      b: objects[m.b]?.sha256 ?? '',
      distance: m.distance,
      kind: m.kind,
    }))
    .map((p) => (p.a < p.b ? p : { ...p, a: p.b, b: p.a }))
    .sort((x, y) => (x.a === y.a ? (x.b < y.b ? -1 : 1) : x.a < y.a ? -1 : 1));
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
  const minOverVariants = (i: number, j: number): number => {
    const a = objects[i];
    const b = objects[j];
    if (a === undefined || b === undefined) return 0;
    let d = hammingDistance(a.pdq, b.pdq);
    for (const v of a.dihedral) d = Math.min(d, hammingDistance(v, b.pdq));
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
