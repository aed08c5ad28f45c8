// The exact 95% interval for the number K of affected members of a finite population of M, from
// k affected among n drawn without replacement: the without-replacement counterpart of the
// Clopper–Pearson interval. It is the set of K not rejected by either one-sided test at α/2,
//   { K : P(X >= k | K) >= 0.025  and  P(X <= k | K) >= 0.025 },   X ~ Hypergeometric(M, K, n),
// as in J. P. Buonaccorsi, "A note on confidence intervals for proportions in finite populations",
// The American Statistician 41 (1987) 215–218, and W. Wang, "Exact optimal confidence intervals for
// hypergeometric parameters", JASA 110 (2015) 1491–1499 (the interval he starts from).
//
// P(X >= k | K) grows with K and P(X <= k | K) shrinks, so the set is an interval [L, U] whose ends
// are found by bisection over K; each tail is an exact sum of hypergeometric probabilities, each
// term computed from log-factorials (Lanczos ln Γ) and added with Neumaier's compensated sum.
import { requireCount, StatsError } from './errors.js';
import { HALF_ALPHA_95 } from './proportion.js';
import { lnFactorial } from './special.js';

/**
 * A tail within this relative distance of α/2 counts as equal to it. Doubles cannot tell an exact
 * tie (P = 1/40 happens: M = 40, n = 1, k = 1, K = 1) from a near one; resolving toward inclusion
 * keeps the interval on the conservative (wider) side.
 */
const TIE_TOLERANCE = 1e-9;

function lnChoose(a: number, b: number): number {
  return lnFactorial(a) - lnFactorial(b) - lnFactorial(a - b);
}

/** Sum of pmf(x) for x in [from, to]: Neumaier's compensated summation of exact terms. */
function pmfSum(from: number, to: number, n: number, bigK: number, bigM: number): number {
  const lnTotal = lnChoose(bigM, n);
  let sum = 0;
  let compensation = 0;
  for (let x = from; x <= to; x++) {
    const term = Math.exp(lnChoose(bigK, x) + lnChoose(bigM - bigK, n - x) - lnTotal);
    const t = sum + term;
    compensation += Math.abs(sum) >= term ? sum - t + term : term - t + sum;
    sum = t;
  }
  return Math.min(1, sum + compensation);
}

export interface HypergeometricTails {
  /** P(X <= k). */
  atMost: number;
  /** P(X >= k). */
  atLeast: number;
}

/**
 * Both tails at k of the hypergeometric distribution: n drawn without replacement from M of which
 * K are affected. P(X = x) = C(K, x) C(M − K, n − x) / C(M, n) (e.g. Johnson, Kemp & Kotz,
 * Univariate Discrete Distributions, 3rd ed., ch. 6). R: phyper(k, K, M − K, n) and
 * phyper(k − 1, K, M − K, n, lower.tail = FALSE).
 *
 * @example
 *   hypergeometricTails(1, 1, 1, 40) // { atMost: 1, atLeast: 0.025 }
 */
export function hypergeometricTails(
  k: number,
  n: number,
  bigK: number,
  bigM: number,
): HypergeometricTails {
  requireCount(bigM, 'population size', 1);
  requireCount(n, 'sample size', 0, bigM);
  requireCount(bigK, 'affected in population', 0, bigM);
  requireCount(k, 'affected in sample', 0, n);
  const xMin = Math.max(0, n - (bigM - bigK));
  const xMax = Math.min(n, bigK);
  const atMost = k < xMin ? 0 : k >= xMax ? 1 : pmfSum(xMin, k, n, bigK, bigM);
  const atLeast = k > xMax ? 0 : k <= xMin ? 1 : pmfSum(k, xMax, n, bigK, bigM);
  return { atMost, atLeast };
}

export interface HypergeometricInterval {
  method: string;
  /** Bounds on the number affected in the population. */
  countLower: number;
  countUpper: number;
  /** The same bounds divided by the population size. */
  proportionLower: number;
  proportionUpper: number;
}

const notRejected = (tail: number): boolean => tail >= HALF_ALPHA_95 * (1 - TIE_TOLERANCE);

/** Smallest K in [lo, hi] with pred(K), given pred is monotone false…true and pred(hi) holds. */
function firstTrue(lo: number, hi: number, pred: (bigK: number) => boolean): number {
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Largest K in [lo, hi] with pred(K), given pred is monotone true…false and pred(lo) holds. */
function lastTrue(lo: number, hi: number, pred: (bigK: number) => boolean): number {
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (pred(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The exact 95% interval for the number affected in a population of `populationSize`, given
 * `successes` affected among `trials` drawn without replacement (see the file comment for the
 * definition and sources). K is searched in [k, M − (n − k)], the values the sample allows.
 *
 * @example
 *   hypergeometricInterval(45, 100, 300)
 *   // { countLower: 111, countUpper: 160, proportionLower: 0.37, proportionUpper: 0.5333…, … }
 */
export function hypergeometricInterval(
  successes: number,
  trials: number,
  populationSize: number,
): HypergeometricInterval {
  requireCount(populationSize, 'population size', 1);
  requireCount(trials, 'trials', 1, populationSize);
  requireCount(successes, 'successes', 0, trials);
  const k = successes;
  const n = trials;
  const bigM = populationSize;
  const kMin = k;
  const kMax = bigM - (n - k);
  // P(X >= k | K) is non-decreasing in K and is 1 at kMax; P(X <= k | K) is non-increasing and 1 at kMin.
  const countLower = firstTrue(kMin, kMax, (K) =>
    notRejected(hypergeometricTails(k, n, K, bigM).atLeast),
  );
  const countUpper = lastTrue(kMin, kMax, (K) =>
    notRejected(hypergeometricTails(k, n, K, bigM).atMost),
  );
  if (countLower > countUpper) {
    throw new StatsError(
      'STATS_NO_CONVERGENCE',
      `hypergeometric interval came out empty (${k}/${n} of ${bigM})`,
    );
  }
  return {
    method: 'exact hypergeometric (test inversion, two one-sided tails >= 0.025)',
    countLower,
    countUpper,
    proportionLower: countLower / bigM,
    proportionUpper: countUpper / bigM,
  };
}
