// Percentile bootstrap over units (B. Efron and R. J. Tibshirani, An Introduction to the
// Bootstrap, Chapman & Hall 1993, ch. 13): resample the units with replacement, recompute the
// coefficient, and take the 2.5th and 97.5th percentiles of the resampled values. Reproducible
// bit for bit: the generator and the seed are documented (prng.ts) and part of the result.
import { requireCount } from './errors.js';
import { BOOTSTRAP_SEED, PRNG_DESCRIPTION, seededPrng } from './prng.js';

export const DEFAULT_RESAMPLES = 2000;

export interface BootstrapOptions {
  /** Number of resamples; default 2,000. */
  resamples?: number;
  /** Seed string; default 'custody-bootstrap-v1'. */
  seed?: string;
}

export interface BootstrapInterval {
  method: string;
  /** 2.5th and 97.5th percentiles; null when no resample gave a value. */
  lower: number | null;
  upper: number | null;
  resamples: number;
  /** Resamples whose coefficient was defined (e.g. not every value identical). */
  validResamples: number;
  seed: string;
  prng: string;
}

/**
 * The p-quantile of ascending `sorted` by linear interpolation between order statistics:
 * R's default, type 7 (R. J. Hyndman and Y. Fan, "Sample quantiles in statistical packages",
 * The American Statistician 50 (1996) 361–365): h = (m − 1)p, x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
 *
 * @example
 *   quantileType7([1, 2, 3, 4], 0.25) // 1.75, as R's quantile(1:4, 0.25)
 */
export function quantileType7(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of an empty list');
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] ?? Number.NaN;
  return a + (h - lo) * (b - a);
}

/**
 * A 95% percentile-bootstrap interval for `statistic` over `units` units. Resample r (r = 0, 1, …)
 * draws `units` indexes, each `prng.nextInt(units)` in order, from one generator seeded once, and
 * calls `statistic(indexes)`; null results are dropped and counted out of `validResamples`.
 *
 * @example
 *   bootstrapUnits(data.length, (idx) => mean(idx.map((i) => data[i])))
 *   // { method: 'percentile bootstrap over units', lower, upper, resamples: 2000, … }
 */
export function bootstrapUnits(
  units: number,
  statistic: (indexes: readonly number[]) => number | null,
  options: BootstrapOptions = {},
): BootstrapInterval {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? BOOTSTRAP_SEED;
  requireCount(resamples, 'resamples', 1, 1_000_000);
  requireCount(units, 'units', 0);
  const values: number[] = [];
  if (units > 0) {
    const prng = seededPrng(seed);
    const indexes = new Array<number>(units).fill(0);
    for (let r = 0; r < resamples; r++) {
      for (let i = 0; i < units; i++) indexes[i] = prng.nextInt(units);
      const v = statistic(indexes);
      if (v !== null && Number.isFinite(v)) values.push(v);
    }
  }
  values.sort((a, b) => a - b);
  const any = values.length > 0;
  return {
    method: 'percentile bootstrap over units',
    lower: any ? quantileType7(values, 0.025) : null,
    upper: any ? quantileType7(values, 0.975) : null,
    resamples,
    validResamples: values.length,
    seed,
    prng: PRNG_DESCRIPTION,
  };
}
