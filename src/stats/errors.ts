import { CustodyError } from '../core/index.js';

/**
 * `STATS_INVALID_INPUT`: counts or ratings that cannot describe a real sample (k > n, a negative
 * size, a non-number at the interval level, ...). `STATS_NO_CONVERGENCE`: a numerical routine
 * did not reach its tolerance, which should never happen for valid input and is reported rather
 * than returning a number nobody can trust. `STATS_OUT_OF_RANGE`: valid counts beyond the range a
 * routine computes exactly, or within its time bound (e.g. a population over 10^15).
 */
export type StatsErrorCode = 'STATS_INVALID_INPUT' | 'STATS_NO_CONVERGENCE' | 'STATS_OUT_OF_RANGE';

export class StatsError extends CustodyError<StatsErrorCode> {}

/** Throws STATS_INVALID_INPUT unless `x` is a whole number with min <= x (<= max). */
export function requireCount(
  x: number,
  what: string,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): void {
  if (!Number.isSafeInteger(x) || x < min || x > max) {
    throw new StatsError(
      'STATS_INVALID_INPUT',
      `${what} must be a whole number in [${min}, ${max}], got ${x}`,
    );
  }
}
