// Exact all-pairs search over PDQ hashes: every record pair whose hashes, or one's dihedral
// variant and the other's hash, lie within the threshold (Hamming distance over 256 bits).
//
// Why querying only the originals against an index of originals AND variants is exact: the
// relation asks, for a pair {a, b}, for d(a, b) and for d(V(a), b) and d(V(b), a) over the 7
// variants V. Every one of these compares an original with some hash; indexing every hash and
// probing with every original therefore meets each term from the original's side (from a for
// d(V(b), a), from b for d(V(a), b)). Both sides are needed: PDQ derives a variant from the DCT
// and re-thresholds it at its own median, so d(V(a), b) and d(a, V⁻¹(b)) may differ, and a
// variant of a is not a bit permutation of a. Probing with the 8n hashes against the n originals
// would find the same terms but pay the per-query probes 8 times over; this way round the
// index is 8 times larger and only the candidate count grows, which the plan accounts for.
import {
  checkDistinctIds,
  checkThreshold,
  packRecords,
  type HashRecord,
  type PackedHashes,
  type Pair,
} from './packed.js';
import type { Units } from './dedupe.js';
import type { Substring } from './plan.js';
import { preparePass, prepareSearch } from './search.js';
import { sweepQueries, type Hits } from './sweep.js';
import { collectPairs } from './collect.js';

export const DEFAULT_THRESHOLD = 31;

export interface FindPairsOptions {
  /** Largest Hamming distance reported, 0..256; 31 by default (the PDQ document's suggestion). */
  threshold?: number;
  /** Also compare each record's 7 dihedral variants with the other records' hashes. */
  dihedral: boolean;
}

/**
 * Every unordered pair {a, b} (a < b by id) within the threshold. distance is the minimum of the
 * plain distance and, with `dihedral`, of each variant of either record against the other's
 * hash; kind is 'pdq' when the plain distance achieves that minimum, else 'pdq-dihedral'.
 * Exact: the result equals bruteForcePairs. Pure, single-threaded; see findPairsParallel.
 *
 * @example
 *   findPairs([{ id: 1, hash: h }, { id: 2, hash: h }], { dihedral: false })
 *   // [{ a: 1, b: 2, distance: 0, kind: 'pdq' }]
 */
export function findPairs(records: readonly HashRecord[], opts: FindPairsOptions): Pair[] {
  const threshold = checkThreshold(opts.threshold ?? DEFAULT_THRESHOLD);
  const ids = Float64Array.from(records, (r) => r.id);
  checkDistinctIds(ids);
  return findPackedPairs(packRecords(records, opts.dihedral), ids, threshold);
}

/** The search itself, on packed hashes (ids[i] is record i's id). `plan` overrides the planner. */
export function findPackedPairs(packed: PackedHashes, ids: Float64Array, threshold: number, plan?: Substring[]): Pair[] {
  const { units, hits } = searchUnits(packed, checkThreshold(threshold), plan);
  return collectPairs(packed.count, units, hits, ids);
}

/** Unit pairs of every pass; the pass buffers die with this frame, before pairs are collected. */
function searchUnits(packed: PackedHashes, threshold: number, plan?: Substring[]): { units: Units; hits: Hits[] } {
  const prepared = prepareSearch(packed, threshold, plan);
  const hits: Hits[] = [];
  const counter = new Int32Array(1);
  for (let j = 0; j < prepared.plan.length; j++) {
    const job = preparePass(prepared, j, counter);
    counter[0] = 0;
    hits.push(sweepQueries(job));
  }
  return { units: prepared.units, hits };
}
