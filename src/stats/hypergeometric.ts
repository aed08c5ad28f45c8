// The exact 95% interval for the number K of affected members of a finite population of M, from
// k affected among n drawn without replacement: the without-replacement counterpart of the
// Clopper–Pearson interval. It is the set of K not rejected by either one-sided test at α/2,
//   { K : P(X >= k | K) >= 0.025  and  P(X <= k | K) >= 0.025 },   X ~ Hypergeometric(M, K, n),
// as in J. P. Buonaccorsi, "A note on confidence intervals for proportions in finite populations",
// The American Statistician 41 (1987) 215–218, and W. Wang, "Exact optimal confidence intervals for
// hypergeometric parameters", JASA 110 (2015) 1491–1499 (the interval he starts from).
//
// P(X >= k | K) grows with K and P(X <= k | K) shrinks, so the set is an interval [L, U] whose ends
// are found by bisection over K.
//
// Each tail is summed outward from k, away from the mode, by the ratio of successive terms
//   P(X = x + 1) / P(X = x) = (K − x)(n − x) / ((x + 1)(M − K − n + x + 1)),
// with Neumaier's compensated sum, and stops once a term falls below 2⁻⁶⁰ of the sum (the pmf is
// log-concave, so every later term is smaller still). A tail that would contain the mode is taken
// as the complement of the other side. The first term is computed in logs by C. Loader's
// saddle-point method ("Fast and accurate computation of binomial probabilities", 2000; R's
// dbinom_raw and dhyper), which keeps full relative precision when M is large: the Lanczos
// log-factorials used before lose it (ln M! for M = 10¹³ is about 3.7·10¹⁴, so its last bit is
// worth 0.06 in the log of the probability). The work per tail is about ten standard deviations
// of X, at most √n / 2 · 10, so it is bounded by the largest n accepted (MAX_TRIALS).
import { requireCount, StatsError } from './errors.js';
import { HALF_ALPHA_95 } from './proportion.js';
import { lnFactorial } from './special.js';

/**
 * The largest population the interval is computed for. Every count below it is an exact double
 * (2⁵³ ≈ 9.007·10¹⁵), and the interval at this size is checked against exact BigInt arithmetic in
 * hypergeometric.test.ts; larger populations are refused with STATS_OUT_OF_RANGE.
 */
export const MAX_EXACT_POPULATION = 1e15;
/** The largest sample size (trials) accepted, which bounds the work per tail (see above). */
export const MAX_TRIALS = 1e9;

/**
 * A tail within this relative distance of α/2 is a near tie, which doubles cannot decide (an exact
 * tie happens: M = 40, n = 1, k = 1, K = 1 gives P = 1/40). Near ties are decided in exact BigInt
 * arithmetic when n <= EXACT_TIE_MAX_TRIALS; above, they are resolved toward inclusion, which keeps
 * the interval on the conservative (wider) side. Far from a tie the floating-point tail (relative
 * error far below 10⁻⁹) decides.
 */
const TIE_TOLERANCE = 1e-9;
/** The largest n for which near ties are decided exactly (the BigInt sums stay small and fast). */
export const EXACT_TIE_MAX_TRIALS = 400;
/**
 * For those n, the band handed to exact arithmetic: still far above the floating-point error of a
 * tail of at most 401 terms (about 10⁻¹³ relative), and narrow, so few BigInt sums are needed.
 */
const EXACT_TIE_BAND = 1e-11;
/** A tail stops when its next term is below this fraction of the sum so far. */
const NEGLIGIBLE = 2 ** -60;
const LN_2PI = Math.log(2 * Math.PI);

/**
 * stirlerr(n) = ln n! − ((n + ½) ln n − n + ½ ln 2π), the error of Stirling's formula (Loader
 * 2000, eq. 3): from ln n! (exact summation) for n <= 15, from the Stirling series
 * 1/12n − 1/360n³ + 1/1260n⁵ − 1/1680n⁷ + 1/1188n⁹ above (terms dropped as R's stirlerr does).
 */
function stirlerr(n: number): number {
  if (n <= 15) return n === 0 ? 0 : lnFactorial(n) - ((n + 0.5) * Math.log(n) - n + 0.5 * LN_2PI);
  const nn = n * n;
  const [s0, s1, s2, s3, s4] = [1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188];
  if (n > 500) return (s0 - s1 / nn) / n;
  if (n > 80) return (s0 - (s1 - s2 / nn) / nn) / n;
  if (n > 35) return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n;
  return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n;
}

/** bd0(x, np) = x ln(x / np) + np − x, by its series when x is near np (Loader 2000, eq. 5). */
function bd0(x: number, np: number): number {
  if (Math.abs(x - np) < 0.1 * (x + np)) {
    let v = (x - np) / (x + np);
    let s = (x - np) * v;
    let ej = 2 * x * v;
    v *= v;
    for (let j = 1; j < 1000; j++) {
      ej *= v;
      const next = s + ej / (2 * j + 1);
      if (next === s) return next;
      s = next;
    }
    return s;
  }
  return x * Math.log(x / np) + np - x;
}

/** ln of the binomial probability of x in N at p (q = 1 − p given separately): R's dbinom_raw. */
function lnBinomial(x: number, bigN: number, p: number, q: number): number {
  if (q === 0) return x === bigN ? 0 : -Infinity;
  if (x === 0) return bigN === 0 ? 0 : p < 0.1 ? -bd0(bigN, bigN * q) - bigN * p : bigN * Math.log(q);
  if (x === bigN) return q < 0.1 ? -bd0(bigN, bigN * p) - bigN * q : bigN * Math.log(p);
  const lc = stirlerr(bigN) - stirlerr(x) - stirlerr(bigN - x) - bd0(x, bigN * p) - bd0(bigN - x, bigN * q);
  return lc - 0.5 * (LN_2PI + Math.log(x) + Math.log1p(-x / bigN));
}

/**
 * ln P(X = x) = ln [C(K, x) C(M − K, n − x) / C(M, n)], as the ratio of three binomial
 * probabilities at p = n / M (R's dhyper): the factors p^x q^(…) cancel, and at this p the
 * denominator sits at its mode.
 */
function lnPmf(x: number, n: number, bigK: number, bigM: number): number {
  const p = n / bigM;
  const q = (bigM - n) / bigM;
  return lnBinomial(x, bigK, p, q) + lnBinomial(n - x, bigM - bigK, p, q) - lnBinomial(n, bigM, p, q);
}

/** P(X = x + 1) / P(X = x). */
function ratioUp(x: number, n: number, bigK: number, bigM: number): number {
  return ((bigK - x) * (n - x)) / ((x + 1) * (bigM - bigK - n + x + 1));
}

/**
 * Sum of P(X = x) from `start` toward `end` (step ±1), where the terms only decrease on the way:
 * compensated (Neumaier), stopping once a term is negligible against the sum.
 */
function outwardSum(start: number, end: number, n: number, bigK: number, bigM: number): number {
  const step = end >= start ? 1 : -1;
  let term = Math.exp(lnPmf(start, n, bigK, bigM));
  let sum = 0;
  let compensation = 0;
  for (let x = start; ; x += step) {
    const t = sum + term;
    compensation += Math.abs(sum) >= term ? sum - t + term : term - t + sum;
    sum = t;
    if (x === end) break;
    term *= step === 1 ? ratioUp(x, n, bigK, bigM) : 1 / ratioUp(x - 1, n, bigK, bigM);
    if (term <= (sum + compensation) * NEGLIGIBLE) break;
  }
  return Math.min(1, sum + compensation);
}

/** P(X <= k) (lower = true) or P(X >= k), for xMin < k < xMax. */
function tail(lower: boolean, k: number, n: number, bigK: number, bigM: number, xMin: number, xMax: number): number {
  // Is P(X = k) >= P(X = k − 1), i.e. is k at or left of the mode? Then terms decrease leftward from k.
  const leftOfMode = ratioUp(k - 1, n, bigK, bigM) >= 1;
  if (lower) return leftOfMode ? outwardSum(k, xMin, n, bigK, bigM) : Math.max(0, 1 - outwardSum(k + 1, xMax, n, bigK, bigM));
  return leftOfMode ? Math.max(0, 1 - outwardSum(k - 1, xMin, n, bigK, bigM)) : outwardSum(k, xMax, n, bigK, bigM);
}

/** Throws STATS_OUT_OF_RANGE past the population computed exactly or the trials bounded in time. */
export function requireWithinExactRange(populationSize: number, trials: number): void {
  if (populationSize > MAX_EXACT_POPULATION)
    throw new StatsError('STATS_OUT_OF_RANGE', `population ${populationSize} is larger than ${MAX_EXACT_POPULATION} (10^15), the largest the exact hypergeometric interval is computed for`);
  if (trials > MAX_TRIALS)
    throw new StatsError('STATS_OUT_OF_RANGE', `trials ${trials} is more than ${MAX_TRIALS} (10^9), the largest sample the intervals are computed for`);
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
  requireWithinExactRange(bigM, n);
  requireCount(bigK, 'affected in population', 0, bigM);
  requireCount(k, 'affected in sample', 0, n);
  const xMin = Math.max(0, n - (bigM - bigK));
  const xMax = Math.min(n, bigK);
  const atMost = k < xMin ? 0 : k >= xMax ? 1 : tail(true, k, n, bigK, bigM, xMin, xMax);
  const atLeast = k > xMax ? 0 : k <= xMin ? 1 : tail(false, k, n, bigK, bigM, xMin, xMax);
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

/** C(a, 0), C(a, 1), …, C(a, n) in BigInt: C(a, j + 1) = C(a, j)(a − j)/(j + 1) divides exactly. */
function binomials(a: number, n: number): bigint[] {
  const out = [1n];
  for (let j = 0; j < n; j++) out.push(((out[j] ?? 0n) * BigInt(a - j)) / BigInt(j + 1));
  return out;
}

/**
 * Decides whether a tail (P(X <= k) when `lower`, else P(X >= k)) at K is at least α/2: by the
 * floating-point tail away from a tie, exactly near one (see TIE_TOLERANCE).
 */
class TailTest {
  private total: bigint | null = null;

  constructor(
    private readonly k: number,
    private readonly n: number,
    private readonly bigM: number,
  ) {}

  notRejected(tail: number, lower: boolean, bigK: number): boolean {
    const exact = this.n <= EXACT_TIE_MAX_TRIALS;
    if (Math.abs(tail - HALF_ALPHA_95) > HALF_ALPHA_95 * (exact ? EXACT_TIE_BAND : TIE_TOLERANCE)) return tail > HALF_ALPHA_95;
    return !exact || this.exactAtLeastHalfAlpha(lower, bigK);
  }

  /** 40 · Σ C(K, x) C(M − K, n − x) >= C(M, n) over the tail, in BigInt: the exact test at 1/40. */
  private exactAtLeastHalfAlpha(lower: boolean, bigK: number): boolean {
    const { k, n, bigM } = this;
    this.total ??= binomials(bigM, n)[n] ?? 0n;
    const affected = binomials(bigK, n);
    const unaffected = binomials(bigM - bigK, n);
    let sum = 0n;
    for (let x = lower ? 0 : k; x <= (lower ? k : n); x++) sum += (affected[x] ?? 0n) * (unaffected[n - x] ?? 0n);
    return 40n * sum >= this.total;
  }
}

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
  requireWithinExactRange(populationSize, trials);
  requireCount(successes, 'successes', 0, trials);
  const k = successes;
  const n = trials;
  const bigM = populationSize;
  const kMin = k;
  const kMax = bigM - (n - k);
  // P(X >= k | K) is non-decreasing in K and is 1 at kMax; P(X <= k | K) is non-increasing and 1 at kMin.
  const test = new TailTest(k, n, bigM);
  const countLower = firstTrue(kMin, kMax, (K) =>
    test.notRejected(hypergeometricTails(k, n, K, bigM).atLeast, false, K),
  );
  const countUpper = lastTrue(kMin, kMax, (K) =>
    test.notRejected(hypergeometricTails(k, n, K, bigM).atMost, true, K),
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
