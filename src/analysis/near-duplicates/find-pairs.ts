// Exact all-pairs search over PDQ hashes (Hamming distance over 256 bits), multi-index hashing
// after Norouzi, Punjani & Fleet (TPAMI 2014): plan.ts cuts the hash into substrings, pass.ts
// sorts every distinct hash by one substring, sweep.ts probes the table with the originals,
// collect.ts turns unit pairs into labelled record pairs.
//
// The relation, for a pair {a, b}: D = min(d(a, b), d(V(a), b), d(V(b), a)) over the 7 dihedral
// variants V. It is symmetric on purpose. If a variant were a bit permutation P of the hash,
// d(P(a), b) = d(a, P⁻¹(b)) and one side would do (P⁻¹ is again a dihedral transform). PDQ's
// variants are not: each is hashed from a transformed DCT and thresholded at its own median, so
// d(V(a), b) and d(V(b), a) differ, and a one-sided relation would depend on which id is smaller.
//
// Why probing with the originals only is exact: every term of D compares an original (a or b)
// with some hash (an original or a variant). The index holds every hash and every original
// probes it, so each term is met from its original's side (d(V(b), a) by a's query, d(V(a), b)
// by b's). Probing with all 8n hashes against the n originals would meet the same terms but pay
// the probes 8 times over; this way the index is 8 times larger and only candidates grow.
import { collectPairs, pairsOf, type Scratch } from './collect.js';
import type { Units } from './dedupe.js';
import {
  checkPacked,
  checkThreshold,
  idsOf,
  packRecords,
  type HashRecord,
  type PackedHashes,
  type Pair,
  type PairColumns,
  type RecordIds,
} from './packed.js';
import type { Substring } from './plan.js';
import { preparePass, prepareSearch, spentBuffers } from './search.js';
import { sweepQueries, type Hits } from './sweep.js';

export const DEFAULT_THRESHOLD = 31;

export interface FindPairsOptions {
  /** Largest Hamming distance reported, 0..256; 31 by default (the PDQ document's suggestion). */
  threshold?: number;
  /** Also compare each record's 7 dihedral variants with the other records' hashes. */
  dihedral: boolean;
  /**
   * With `dihedral`: each record holds up to this many variants (any other views of it, e.g. the
   * region hashes of the crop search) instead of exactly the 7 dihedral ones.
   */
  variantsPerRecord?: number;
  /**
   * Plans the multi-index search for this smaller distance: every pair within it is found, and a
   * pair between it and the threshold only when one of its substrings lies within its radius. For
   * a prefilter's candidates at a loose threshold (64, 80), where an exact search is all but a
   * brute force, quadratic in the records (crop-match.ts); the distances reported are still exact
   * for the variants met.
   */
  completeWithin?: number;
}

/**
 * Every unordered pair {a, b} (a < b by id) within the threshold. distance is the minimum of the
 * plain distance and, with `dihedral`, of each variant of either record against the other's
 * hash; kind is 'pdq' when the plain distance achieves that minimum, else 'pdq-dihedral'.
 * Exact: the result equals bruteForcePairs. Pairs come ordered by the positions of their records.
 * Pure and single-threaded; findPairsParallel spreads the search over worker threads.
 *
 * @example
 *   findPairs([{ id: 1, hash: h }, { id: 2, hash: h }], { dihedral: false })
 *   // [{ a: 1, b: 2, distance: 0, kind: 'pdq' }]
 */
export function findPairs(records: readonly HashRecord[], opts: FindPairsOptions): Pair[] {
  const threshold = checkThreshold(opts.threshold ?? DEFAULT_THRESHOLD);
  const ids = idsOf(records);
  const packed = packRecords(records, opts.dihedral, false, opts.variantsPerRecord);
  const within = checkThreshold(opts.completeWithin ?? threshold);
  return pairsOf(columnsOf(packed, ids, threshold, undefined, within));
}

/**
 * The same on hashes the caller packed (ids[i] is record i's id), with the pairs as columns: at
 * a million records the 8 million Uint8Arrays of HashRecord cost V8 over a gigabyte by
 * themselves, and tens of millions of Pair objects as much again. `plan` overrides the planner
 * (tests).
 */
export function findPackedPairs(
  packed: PackedHashes,
  ids: RecordIds,
  threshold: number,
  plan?: Substring[],
): PairColumns {
  checkPacked(packed, ids);
  return columnsOf(packed, ids, checkThreshold(threshold), plan);
}

function columnsOf(
  packed: PackedHashes,
  ids: RecordIds,
  threshold: number,
  plan?: Substring[],
  completeWithin = threshold,
): PairColumns {
  const { units, hits, scratch } = searchUnits(packed, threshold, plan, completeWithin);
  return collectPairs(packed.count, units, hits, ids, packed.perRecord, scratch);
}

/** Unit pairs of every pass, and the pass buffers, spent: collectPairs reuses them as scratch. */
function searchUnits(
  packed: PackedHashes,
  threshold: number,
  plan: Substring[] | undefined,
  completeWithin: number,
): { units: Units; hits: Hits[]; scratch: Scratch } {
  const prepared = prepareSearch(packed, threshold, plan, false, completeWithin);
  const hits: Hits[] = [];
  const counter = new Int32Array(1);
  for (let j = 0; j < prepared.plan.length; j++) {
    const job = preparePass(prepared, j, counter);
    counter[0] = 0;
    hits.push(...sweepQueries(job));
  }
  return { units: prepared.units, hits, scratch: spentBuffers(prepared.buffers) };
}
