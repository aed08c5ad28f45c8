// Multi-index hashing plan (Norouzi, Punjani & Fleet, "Fast Exact Search in Hamming Space with
// Multi-Index Hashing", TPAMI 2014), with per-substring radii: disjoint substrings j of `length`
// s_j bits, each searched within `radius` t_j. If every substring of a pair differed in ≥ t_j + 1
// bits, the pair would differ in ≥ Σ(t_j + 1) bits, so Σ(t_j + 1) ≥ threshold + 1 guarantees
// that a pair within the threshold matches some substring within its radius (generalised
// pigeonhole; with equal radii it is the paper's ⌊r/m⌋). The substrings need not cover all 256
// bits: at threshold 0 one 24-bit substring is a complete plan.
import { NearDuplicateError } from './errors.js';

export interface Substring {
  readonly start: number;
  /** 0..24 bits; 0 means one bucket holding everything (the plan is then brute force). */
  readonly length: number;
  readonly radius: number;
}

/** Nanosecond-ish unit costs, measured on the target machine (see bench/near-duplicates.bench.ts). */
export interface CostModel {
  /** One bucket probe of one query (per flip mask). */
  readonly probe: number;
  /** One candidate compared against a query (filter popcounts). */
  readonly candidate: number;
  /** Sorting one indexed hash into a substring table. */
  readonly entry: number;
  /** Clearing and prefix-summing one slot of a direct-addressed table. */
  readonly slot: number;
}

export const DEFAULT_COSTS: CostModel = { probe: 2.5, candidate: 4, entry: 25, slot: 1 };

/** Tables are direct-addressed (2^s + 2 words): 24 bits keeps one at 64 MiB. */
export const MAX_SUBSTRING_BITS = 24;
const MAX_RADIUS = 4;
const HASH_BITS = 256;

/** Σ_{k ≤ t} C(s, k): the number of flip masks probed per query in an s-bit substring. */
export function ballSize(s: number, t: number): number {
  let total = 0;
  let c = 1;
  for (let k = 0; k <= Math.min(s, t); k++) {
    total += c;
    c = (c * (s - k)) / (k + 1);
  }
  return total;
}

/**
 * Chooses the substrings minimising the expected cost for `queries` probing hashes against
 * `entries` indexed ones, assuming uniformly distributed bits (exact dedup has already removed
 * the worst of clustered data). A dynamic programme over (bits used, Σ(t+1) still needed)
 * picks lengths and radii; brute force wins for tiny inputs.
 *
 * @example
 *   planSubstrings(1e6, 8e6, 31) // 10 substrings of 23–24 bits within 2, one of 20 bits within 1
 */
export function planSubstrings(
  queries: number,
  entries: number,
  threshold: number,
  costs: CostModel = DEFAULT_COSTS,
): Substring[] {
  const need = threshold + 1;
  const width = need + 1;
  const best = new Float64Array((HASH_BITS + 1) * width).fill(Infinity);
  const choice = new Int32Array((HASH_BITS + 1) * width);
  const unit: number[] = [];
  for (let s = 1; s <= MAX_SUBSTRING_BITS; s++) {
    for (let t = 0; t <= Math.min(MAX_RADIUS, s); t++) {
      const ball = ballSize(s, t);
      const candidates = (queries * entries * ball) / 2 ** s;
      unit[s * 8 + t] =
        queries * ball * costs.probe +
        candidates * costs.candidate +
        entries * costs.entry +
        2 ** s * costs.slot;
    }
  }
  best[0] = 0;
  for (let b = 1; b <= HASH_BITS; b++) {
    for (let q = 0; q <= need; q++) {
      let min = best[(b - 1) * width + q]!; // bit b - 1 left out of every substring
      let arg = 0;
      for (let s = 1; s <= Math.min(MAX_SUBSTRING_BITS, b); s++) {
        for (let t = 0; t <= Math.min(MAX_RADIUS, s); t++) {
          const cost = best[(b - s) * width + Math.max(0, q - t - 1)]! + unit[s * 8 + t]!;
          if (cost < min) {
            min = cost;
            arg = s * 8 + t;
          }
        }
      }
      best[b * width + q] = min;
      choice[b * width + q] = arg;
    }
  }
  const bruteCost = queries * entries * costs.candidate + entries * costs.entry;
  if (!(best[HASH_BITS * width + need]! < bruteCost)) return [{ start: 0, length: 0, radius: 0 }];
  const plan: Substring[] = [];
  let b = HASH_BITS;
  let q = need;
  while (b > 0) {
    const arg = choice[b * width + q]!;
    if (arg === 0) {
      b--;
      continue;
    }
    const s = arg >> 3;
    const t = arg & 7;
    plan.push({ start: b - s, length: s, radius: t });
    b -= s;
    q = Math.max(0, q - t - 1);
  }
  return plan.reverse();
}

/** Throws NEAR_DUP_BAD_PLAN unless the substrings are disjoint, in order, and satisfy the pigeonhole bound. */
export function checkPlan(plan: readonly Substring[], threshold: number): void {
  if (plan.length === 1 && plan[0]!.length === 0) return; // brute force: one bucket, no bound needed
  let bit = 0;
  let budget = 0;
  for (const s of plan) {
    if (
      s.start < bit ||
      s.length < 1 ||
      s.length > MAX_SUBSTRING_BITS ||
      s.radius < 0 ||
      s.radius > s.length
    ) {
      throw new NearDuplicateError(
        'NEAR_DUP_BAD_PLAN',
        'substrings must be disjoint and in order',
        { details: { ...s } },
      );
    }
    bit = s.start + s.length;
    budget += s.radius + 1;
  }
  if (bit > HASH_BITS || budget < threshold + 1) {
    throw new NearDuplicateError('NEAR_DUP_BAD_PLAN', 'substrings do not cover the threshold', {
      details: { bit, budget, threshold },
    });
  }
}

/** Every s-bit mask with at most t bits set, lightest first; upTo[w] counts those of weight ≤ w. */
export function flipMasks(s: number, t: number): { masks: Int32Array; upTo: Int32Array } {
  const masks = new Int32Array(ballSize(s, t));
  const upTo = new Int32Array(t + 1);
  let n = 0;
  const rec = (from: number, left: number, mask: number): void => {
    if (left === 0) {
      masks[n++] = mask;
      return;
    }
    for (let bit = from; bit <= s - left; bit++) rec(bit + 1, left - 1, mask | (1 << bit));
  };
  for (let w = 0; w <= t; w++) {
    if (w <= s) rec(0, w, 0);
    upTo[w] = n;
  }
  return { masks, upTo };
}
