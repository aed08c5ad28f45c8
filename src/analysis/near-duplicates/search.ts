// The steps shared by the single-threaded and the parallel search: dedupe, plan, and per pass
// the sorted table plus the job that sweeps it (plain data, so it can be posted to a worker).
import { dedupeEntries, type Units } from './dedupe.js';
import { memoryOf, popcount32, type PackedHashes } from './packed.js';
import {
  allocPassBuffers,
  buildPass,
  HALF,
  passSort,
  rotationFor,
  tileBitsFor,
  type PassBuffers,
  type PassSort,
} from './pass.js';
import { checkPlan, flipMasks, planSubstrings, type Substring } from './plan.js';
import type { SweepJob } from './sweep.js';

export interface PreparedSearch {
  readonly packed: PackedHashes;
  readonly threshold: number;
  readonly units: Units;
  readonly plan: readonly Substring[];
  readonly planWords: Int32Array;
  readonly buffers: PassBuffers;
}

/**
 * Dedupes the hashes, plans the substrings (unless `override`) and allocates the pass buffers. The
 * plan is complete within `completeWithin` (the threshold unless smaller: FindPairsOptions).
 */
export function prepareSearch(
  packed: PackedHashes,
  threshold: number,
  override?: Substring[],
  shared = false,
  completeWithin = threshold,
): PreparedSearch {
  // The sorted rows' memory, sized for every entry (units are fewer when hashes repeat), is lent
  // to the dedupe first: its scratch is then overwritten, not left as garbage.
  const rows = new Uint32Array(memoryOf(packed.entries * HALF * 4, shared));
  const units = dedupeEntries(packed, shared, rows.buffer);
  const within = Math.min(threshold, completeWithin);
  const plan = override ?? planSubstrings(units.queryCount, units.reps.length, within);
  checkPlan(plan, within);
  const maxBits = Math.max(...plan.map((s) => s.length));
  const buffers = allocPassBuffers(maxBits, units.reps.length, units.queryCount, shared, rows);
  const planWords = Int32Array.from(plan.flatMap((s) => [s.start, s.length, s.radius]));
  return { packed, threshold, units, plan, planWords, buffers };
}

/** Sorts the units for substring j; the job sweeps the tiles handed out by `counter`. */
export function preparePass(s: PreparedSearch, j: number, counter: Int32Array): SweepJob {
  buildPass(s.packed.words, s.units.reps, s.packed.count, s.plan[j]!, s.buffers);
  return sweepJob(s, j, counter);
}

/** The sort of substring j's pass in `parts` parts a phase (worker threads), on the shared buffers. */
export function passSortOf(s: PreparedSearch, j: number, parts: number): PassSort {
  return passSort(s.packed.words, s.units.reps, s.packed.count, s.plan[j]!, s.buffers, parts, true);
}

/** The sweep of substring j's pass, once it is sorted. */
export function sweepJob(s: PreparedSearch, j: number, counter: Int32Array): SweepJob {
  const sub = s.plan[j]!;
  const tileBits = tileBitsFor(sub.length);
  const high = flipMasks(sub.length - tileBits, sub.radius);
  const low = flipMasks(tileBits, sub.radius);
  const { off, sortedEntry, sortedWords, qKey, qPos, qWords, qStart } = s.buffers;
  return {
    off,
    sortedEntry,
    sortedWords,
    words: s.packed.words,
    qKey,
    qPos,
    qWords,
    qStart,
    rotation: rotationFor(sub),
    tileBits,
    tiles: 1 << (sub.length - tileBits),
    highMasks: high.masks,
    highWeights: high.masks.map((m) => popcount32(m)),
    lowMasks: low.masks,
    lowUpTo: low.upTo,
    radius: sub.radius,
    counter,
    count: s.packed.count,
    threshold: s.threshold,
    plan: s.planWords,
    pass: j,
  };
}

/**
 * The pass buffers' memory once the last pass is swept, largest first, for collectPairs to reuse
 * (ScratchArena): at a million clustered objects the pairs expand to tens of millions of entries
 * while the unreachable pass buffers would otherwise wait for a garbage collection (peak memory).
 */
export function spentBuffers(b: PassBuffers): ArrayBufferLike[] {
  return [b.sortedWords, b.off, b.sortedEntry, b.qWords, b.lowKey, b.qKey, b.qPos]
    .map((a) => a.buffer)
    .sort((x, y) => y.byteLength - x.byteLength);
}
