import { describe, expect, it } from 'vitest';
import { hasCode } from '../core/index.js';
import { hypergeometricInterval, hypergeometricTails } from './hypergeometric.js';

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
