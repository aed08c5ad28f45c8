import { describe, expect, it } from 'vitest';
import { seededPrng, type Prng } from '../../stats/index.js';
import { MISSING } from './fields.js';
import { estimateParameters, matchPosterior, type PatternCount } from './em.js';

const uniform = (rng: Prng): number => rng.nextUint32() / 2 ** 32;
function draw(rng: Prng, p: readonly number[]): number {
  let r = uniform(rng);
  for (let k = 0; k < p.length; k++) {
    r -= p[k] ?? 0;
    if (r < 0) return k;
  }
  return p.length - 1;
}

/** A population drawn from a known Fellegi–Sunter model (conditional independence holds by construction). */
const TRUE_M = [
  [0.85, 0.1, 0.05],
  [0.7, 0.2, 0.1],
  [0.9, 0.1],
  [0.6, 0.3, 0.1],
];
const TRUE_U = [
  [0.05, 0.15, 0.8],
  [0.1, 0.2, 0.7],
  [0.5, 0.5],
  [0.02, 0.08, 0.9],
];
const TRUE_LAMBDA = 0.05;
const PAIRS = 40_000;
const MISSING_RATE = 0.1;

function population(): PatternCount[] {
  const rng = seededPrng('em-recovery-v1');
  const counts = new Map<string, PatternCount>();
  for (let i = 0; i < PAIRS; i++) {
    const match = uniform(rng) < TRUE_LAMBDA;
    const levels = (match ? TRUE_M : TRUE_U).map((p) =>
      uniform(rng) < MISSING_RATE ? MISSING : draw(rng, p),
    );
    const key = levels.join(',');
    counts.set(key, { levels, count: (counts.get(key)?.count ?? 0) + 1 });
  }
  return [...counts.keys()].sort().map((k) => counts.get(k) as PatternCount);
}

describe('EM', () => {
  it('recovers known m, u and λ from a generated population', () => {
    // A neutral start: m leans to agreement, u is flat, λ is 0.2 (four times too high).
    const init = {
      m: TRUE_M.map((row) => row.map((_, k) => (k === 0 ? 0.6 : 0.4 / (row.length - 1)))),
      u: TRUE_U.map((row) => row.map(() => 1 / row.length)),
      lambda: 0.2,
    };
    const fit = estimateParameters(
      population(),
      TRUE_M.map((r) => r.length),
      init,
      {
        maxIterations: 1000,
        tolerance: 1e-9,
      },
    );
    expect(fit.converged).toBe(true);
    // About 1,800 matches with a field present: the standard error of a share is at most
    // √(0.25/1800) ≈ 0.012 for m and far less for u (38,000 non-matches). 0.035 is three standard
    // errors of m; the seed is fixed, so the test cannot flake, and a wrong E- or M-step misses by more.
    fit.m.forEach((row, f) =>
      row.forEach((x, k) => expect(Math.abs(x - (TRUE_M[f]?.[k] ?? 0))).toBeLessThan(0.035)),
    );
    fit.u.forEach((row, f) =>
      row.forEach((x, k) => expect(Math.abs(x - (TRUE_U[f]?.[k] ?? 0))).toBeLessThan(0.01)),
    );
    expect(Math.abs(fit.lambda - TRUE_LAMBDA)).toBeLessThan(0.005);
  });

  it('with u held at the random-pair shares (Splink), still recovers m and λ, and caps λ', () => {
    const init = {
      m: TRUE_M.map((row) => row.map((_, k) => (k === 0 ? 0.6 : 0.4 / (row.length - 1)))),
      u: TRUE_U.map((row) => [...row]),
      lambda: 0.2,
    };
    const opts = { maxIterations: 1000, tolerance: 1e-9, fixU: true };
    const fit = estimateParameters(
      population(),
      TRUE_M.map((r) => r.length),
      init,
      opts,
    );
    expect(fit.u).toEqual(TRUE_U);
    fit.m.forEach((row, f) =>
      row.forEach((x, k) => expect(Math.abs(x - (TRUE_M[f]?.[k] ?? 0))).toBeLessThan(0.035)),
    );
    expect(Math.abs(fit.lambda - TRUE_LAMBDA)).toBeLessThan(0.005);
    const capped = estimateParameters(
      population(),
      TRUE_M.map((r) => r.length),
      init,
      { ...opts, maxLambda: 0.01 },
    );
    expect(capped.lambda).toBe(0.01);
  });

  it('computes the Fellegi–Sunter posterior of a pattern as the formula does by hand', () => {
    // Two fields agreeing: P(match | γ) = λ·m1·m2 / (λ·m1·m2 + (1−λ)·u1·u2)
    //   = 0.01·0.9·0.8 / (0.01·0.9·0.8 + 0.99·0.1·0.25) = 0.0072 / 0.03195 = 0.225352…
    const params = {
      m: [
        [0.9, 0.1],
        [0.8, 0.2],
      ],
      u: [
        [0.1, 0.9],
        [0.25, 0.75],
      ],
      lambda: 0.01,
    };
    expect(matchPosterior([0, 0], params)).toBeCloseTo(0.0072 / 0.03195, 10);
    // A missing field drops out: 0.01·0.9 / (0.01·0.9 + 0.99·0.1) = 0.009 / 0.108.
    expect(matchPosterior([0, MISSING], params)).toBeCloseTo(0.009 / 0.108, 10);
    // Disagreeing on both: 0.01·0.1·0.2 / (0.01·0.1·0.2 + 0.99·0.9·0.75).
    expect(matchPosterior([1, 1], params)).toBeCloseTo(0.0002 / (0.0002 + 0.66825), 10);
  });

  it('gives a level no pair shows m = u = 0 (no evidence) instead of a weight out of nothing', () => {
    const patterns: PatternCount[] = [
      { levels: [0], count: 50 },
      { levels: [2], count: 5000 },
    ];
    const fit = estimateParameters(
      patterns,
      [3],
      { m: [[0.8, 0.15, 0.05]], u: [[0.1, 0.3, 0.6]], lambda: 0.01 },
      {
        maxIterations: 200,
        tolerance: 1e-9,
      },
    );
    expect(fit.m[0]?.[1]).toBe(0);
    expect(fit.u[0]?.[1]).toBe(0);
  });
});
