import { describe, expect, it } from 'vitest';
import { hasCode } from '../core/index.js';
import {
  hypergeometricInterval,
  hypergeometricTails,
  MAX_EXACT_POPULATION,
  MAX_TRIALS,
} from './hypergeometric.js';

// Exact arithmetic for the brute force: Pascal's triangle in BigInt.
const MAX_M = 40;
const C: bigint[][] = [];
for (let a = 0; a <= MAX_M; a++) {
  C[a] = [];
  for (let b = 0; b <= a; b++)
    C[a]![b] = b === 0 || b === a ? 1n : C[a - 1]![b - 1]! + C[a - 1]![b]!;
}
const choose = (a: number, b: number): bigint => (b < 0 || b > a ? 0n : C[a]![b]!);

/** Every K, enumerated, with both tails compared with 1/40 exactly: 40·Σ ≥ C(M, n). */
function bruteForce(k: number, n: number, M: number): [number, number] {
  const kept: number[] = [];
  for (let K = 0; K <= M; K++) {
    let atMost = 0n;
    let atLeast = 0n;
    for (let x = 0; x <= n; x++) {
      const ways = choose(K, x) * choose(M - K, n - x);
      if (x <= k) atMost += ways;
      if (x >= k) atLeast += ways;
    }
    if (40n * atMost >= choose(M, n) && 40n * atLeast >= choose(M, n)) kept.push(K);
  }
  for (let i = 1; i < kept.length; i++) expect(kept[i]).toBe(kept[i - 1]! + 1); // an interval
  return [kept[0]!, kept[kept.length - 1]!];
}

describe('hypergeometric interval against brute-force enumeration in exact arithmetic', () => {
  it('every k <= n <= M <= 16', () => {
    for (let M = 1; M <= 16; M++)
      for (let n = 1; n <= M; n++)
        for (let k = 0; k <= n; k++) {
          const got = hypergeometricInterval(k, n, M);
          expect([got.countLower, got.countUpper], `${k}/${n} of ${M}`).toEqual(
            bruteForce(k, n, M),
          );
        }
  });

  it('exact ties at 1/40 are kept (M = 40, n = 1: P = 1/40 exactly)', () => {
    for (const [k, n] of [
      [1, 1],
      [0, 1],
      [1, 2],
      [0, 39],
      [39, 39],
      [20, 39],
    ] as const) {
      const got = hypergeometricInterval(k, n, MAX_M);
      expect([got.countLower, got.countUpper], `${k}/${n} of 40`).toEqual(bruteForce(k, n, MAX_M));
    }
    expect(hypergeometricInterval(1, 1, 40).countLower).toBe(1);
    expect(hypergeometricTails(1, 1, 1, 40).atLeast).toBeCloseTo(0.025, 15);
  });
});

describe('against SciPy 1.17.1 (scipy.stats.hypergeom sf/cdf, every K enumerated)', () => {
  it.each([
    [93, 150, 2000, 1081, 1390],
    [0, 150, 2000, 0, 46],
    [150, 150, 2000, 1954, 2000],
    [7, 400, 12000, 87, 425],
  ])('%i/%i of %i -> [%i, %i]', (k, n, M, lo, hi) => {
    const got = hypergeometricInterval(k, n, M);
    expect([got.countLower, got.countUpper]).toEqual([lo, hi]);
    expect(got.proportionLower).toBe(lo / M);
    expect(got.proportionUpper).toBe(hi / M);
  });
});

describe('published example: Kauermann & Küchenhoff (2010), Stichproben, p. 53', () => {
  // The book (and R samplingbook::Sprop, tests/testthat/tests_ch2.r) reports 45 of 100 drawn from
  // N = 300 as "exact hypergeometric" [110, 161], and 2 of 100 as [2, 19]. Their limits are one
  // step outside the set defined here: they include the last K that is rejected at α/2 (the
  // boundary tails below are < 0.025), a more conservative convention. Our set is the tight one
  // and matches the current samplingbook source (R/Sprop.R, which no longer steps outward).
  it("45/100 of 300: [111, 160]; the book's 110 and 161 are each rejected at 0.025", () => {
    const got = hypergeometricInterval(45, 100, 300);
    expect([got.countLower, got.countUpper]).toEqual([111, 160]);
    expect(hypergeometricTails(45, 100, 110, 300).atLeast).toBeLessThan(0.025);
    expect(hypergeometricTails(45, 100, 161, 300).atMost).toBeLessThan(0.025);
    expect(hypergeometricTails(45, 100, 111, 300).atLeast).toBeGreaterThanOrEqual(0.025);
    expect(hypergeometricTails(45, 100, 160, 300).atMost).toBeGreaterThanOrEqual(0.025);
  });

  it("2/100 of 300: [2, 18]; the book's 19 is rejected at 0.025", () => {
    const got = hypergeometricInterval(2, 100, 300);
    expect([got.countLower, got.countUpper]).toEqual([2, 18]);
    expect(hypergeometricTails(2, 100, 19, 300).atMost).toBeLessThan(0.025);
  });

  it('the census edge case of the same tests: 50/60 of 61 -> [50, 51]', () => {
    const got = hypergeometricInterval(50, 60, 61);
    expect([got.countLower, got.countUpper]).toEqual([50, 51]);
  });
});

describe('tails and refusals', () => {
  it('tails sum to 1 + P(X = k)', () => {
    const t = hypergeometricTails(3, 10, 12, 40);
    const exact = Number(choose(12, 3) * choose(28, 7)) / Number(choose(40, 10));
    expect(t.atMost + t.atLeast - 1).toBeCloseTo(exact, 14);
  });

  it('refuses n > M and k > n', () => {
    for (const f of [
      () => hypergeometricInterval(1, 11, 10),
      () => hypergeometricInterval(6, 5, 10),
    ]) {
      let error: unknown;
      try {
        f();
      } catch (e) {
        error = e;
      }
      expect(hasCode(error, 'STATS_INVALID_INPUT')).toBe(true);
    }
  });
});

// Exact arithmetic at any size: C(K, x) C(M − K, n − x) summed in BigInt, each tail compared with
// 1/40 exactly, and the interval's ends found by the same bisection over K (both tails are monotone
// in K, so bisection on exact tails gives the exact ends). Independent of the floating-point code.
function exactWays(n: number, bigK: number, bigM: number): bigint[] {
  const choose = (a: bigint, b: number): bigint[] => {
    // C(a, 0..b) by C(a, j + 1) = C(a, j)(a − j)/(j + 1), exact at every step.
    const out = [1n];
    for (let j = 0; j < b; j++) out.push((out[j]! * (a - BigInt(j))) / BigInt(j + 1));
    return out;
  };
  const left = choose(BigInt(bigK), n);
  const right = choose(BigInt(bigM - bigK), n);
  return Array.from({ length: n + 1 }, (_, x) => left[x]! * right[n - x]!);
}

function exactInterval(k: number, n: number, bigM: number): [number, number] {
  let total = 1n;
  for (let j = 0; j < n; j++) total = (total * BigInt(bigM - j)) / BigInt(j + 1);
  const kept = (bigK: number, lower: boolean): boolean => {
    const ways = exactWays(n, bigK, bigM);
    const sum = ways.reduce((s, w, x) => ((lower ? x <= k : x >= k) ? s + w : s), 0n);
    return 40n * sum >= total;
  };
  const lo = k;
  const hi = bigM - (n - k);
  let a = lo;
  let b = hi;
  while (a < b) {
    const mid = a + Math.floor((b - a) / 2);
    if (kept(mid, false)) b = mid;
    else a = mid + 1;
  }
  const countLower = a;
  a = lo;
  b = hi;
  while (a < b) {
    const mid = a + Math.ceil((b - a) / 2);
    if (kept(mid, true)) a = mid;
    else b = mid - 1;
  }
  return [countLower, a];
}

describe('interval bounds: exact at the documented largest population, refused past it', () => {
  it.each([
    [0, 1],
    [1, 1],
    [1, 2],
    [0, 20],
    [1, 20],
    [7, 20],
    [20, 20],
    [0, 150],
    [3, 150],
    [93, 150],
    [150, 150],
    [51, 200],
  ])('%i of %i drawn from M = 10^15 matches exact BigInt arithmetic', (k, n) => {
    const got = hypergeometricInterval(k, n, MAX_EXACT_POPULATION);
    expect([got.countLower, got.countUpper]).toEqual(exactInterval(k, n, MAX_EXACT_POPULATION));
  });

  it('matches exact arithmetic on 40 pseudo-random draws with n <= 60 at populations up to 10^15', () => {
    let state = 20261201;
    const next = (m: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % m;
    };
    for (let i = 0; i < 40; i++) {
      const n = 1 + next(60);
      const k = next(n + 1);
      const M = MAX_EXACT_POPULATION - next(1_000_000_000);
      const got = hypergeometricInterval(k, n, M);
      expect([got.countLower, got.countUpper], `${k}/${n} of ${M}`).toEqual(exactInterval(k, n, M));
    }
  });

  it('matches exact arithmetic past 10^13, where the Lanczos log-factorials went wrong', () => {
    for (const M of [1e13 + 7, 3e14 + 1]) {
      const got = hypergeometricInterval(12, 80, M);
      expect([got.countLower, got.countUpper], `M = ${M}`).toEqual(exactInterval(12, 80, M));
    }
  });

  it('refuses a population past 10^15 and more than 10^9 trials with STATS_OUT_OF_RANGE', () => {
    const refusals = [
      () => hypergeometricInterval(3, 1_000_000_000, 9e15),
      () => hypergeometricInterval(0, 1, MAX_EXACT_POPULATION + 1),
      () => hypergeometricInterval(1, MAX_TRIALS + 1, 1e12),
      () => hypergeometricTails(0, 1, 1, MAX_EXACT_POPULATION + 1),
    ];
    for (const f of refusals) {
      let error: unknown;
      try {
        f();
      } catch (e) {
        error = e;
      }
      expect(hasCode(error, 'STATS_OUT_OF_RANGE')).toBe(true);
    }
  });

  it('computes the largest accepted sample: 5·10^8 of 10^9 drawn from 10^15', () => {
    // Normal approximation for the order of magnitude: 1.96 · sd of X around K·n/M.
    const got = hypergeometricInterval(500_000_000, MAX_TRIALS, MAX_EXACT_POPULATION);
    const centre = MAX_EXACT_POPULATION / 2;
    const halfWidth = 1.96 * Math.sqrt(0.25 / MAX_TRIALS) * MAX_EXACT_POPULATION;
    expect(Math.abs(centre - got.countLower - halfWidth) / halfWidth).toBeLessThan(0.001);
    expect(Math.abs(got.countUpper - centre - halfWidth) / halfWidth).toBeLessThan(0.001);
  });
});
