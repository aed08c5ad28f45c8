// Per-rule training (training.ts) on pair sets drawn from a known model, where one EM over all
// pairs is confounded, and the label-swap guard of EM (em.ts).
import { describe, expect, it } from 'vitest';
import { seededPrng, type Prng } from '../../stats/index.js';
import { estimateParameters, orientClasses, type PatternCount } from './em.js';
import { MISSING_CELL, patternCounts, trainPerRule } from './training.js';

const uniform = (rng: Prng): number => rng.nextUint32() / 2 ** 32;

/**
 * Five agree/disagree fields. A, B and E are names (matches agree 0.9, 0.9, 0.85; others 0.05,
 * independently). C and D are an arrest year and a branch: matches agree 0.8 each; among
 * non-matches a "cohort" of 1% (arrested the same year by the same branch) agrees 0.9 on both,
 * the rest 0.05. The cohort is 20 times the matches and agrees on two fields: one EM over all
 * pairs takes it for them. Inside the pairs of a rule on A and B the matches are a sixth and the
 * cohort a few pairs; inside the rule on C and D, which holds C and D out, the cohort is
 * non-matches like the others.
 */
const TRUE_M = [
  [0.9, 0.1],
  [0.9, 0.1],
  [0.8, 0.2],
  [0.8, 0.2],
  [0.85, 0.15],
];
const PAIRS = 400_000;
const MATCHES = 200;
const COHORT = 0.01;
const W = 5;
const LEVELS = [2, 2, 2, 2, 2];

function population(): {
  vectors: Uint8Array;
  masks: Uint32Array;
  all: PatternCount[];
  u: number[][];
} {
  const rng = seededPrng('per-rule-training-v1');
  const rows = new Uint8Array(PAIRS * W);
  for (let i = 0; i < PAIRS; i++) {
    const match = i < MATCHES;
    const cohort = !match && uniform(rng) < COHORT;
    const agree = (f: number): boolean =>
      uniform(rng) < (match ? (TRUE_M[f]?.[0] ?? 0) : (f === 2 || f === 3) && cohort ? 0.9 : 0.05);
    for (let f = 0; f < W; f++) rows[i * W + f] = agree(f) ? 0 : 1;
  }
  // Rule 0 blocks on A and B, rule 1 on C and D; the candidates are the pairs either finds.
  const ruleBits = (i: number): number =>
    (rows[i * W] === 0 && rows[i * W + 1] === 0 ? 1 : 0) +
    (rows[i * W + 2] === 0 && rows[i * W + 3] === 0 ? 2 : 0);
  const candidates = Array.from({ length: PAIRS }, (_, i) => i).filter((i) => ruleBits(i) > 0);
  const vectors = new Uint8Array(candidates.length * W);
  candidates.forEach((i, r) => vectors.set(rows.subarray(i * W, i * W + W), r * W));
  const masks = Uint32Array.from(candidates, ruleBits);
  const all = patternCounts(rows, LEVELS, () => true);
  // u as random pairs give it: the level shares among all pairs.
  const u = LEVELS.map((k, f) => {
    const row = new Array<number>(k).fill(0);
    for (let i = 0; i < PAIRS; i++)
      row[rows[i * W + f] ?? 0] = (row[rows[i * W + f] ?? 0] ?? 0) + 1;
    return row.map((c) => c / PAIRS);
  });
  return { vectors, masks, all, u };
}

const leaning = LEVELS.map(() => [0.8, 0.2]);

describe('per-rule training', () => {
  const pop = population();

  it('one EM over all pairs is confounded by the cohort (the failure per-rule training avoids)', () => {
    const fit = estimateParameters(
      pop.all,
      LEVELS,
      { m: leaning, u: pop.u, lambda: 0.01 },
      { maxIterations: 2_000, tolerance: 1e-9, fixU: true },
    );
    // It fits the cohort: the names barely agree in its "match" class, and λ is near the
    // cohort's share (0.0074 measured), fifteen times the matches'.
    expect(fit.m[0]?.[0] ?? 1).toBeLessThan(0.3);
    expect(fit.lambda).toBeGreaterThan((5 * MATCHES) / PAIRS);
  });

  it('recovers the known m of every field and λ, each rule with its own fields held out', () => {
    const model = trainPerRule({
      levelCounts: LEVELS,
      nameFields: [0, 1, 4],
      vectors: pop.vectors,
      masks: pop.masks,
      rules: [
        { name: 'A+B', fields: [0, 1] },
        { name: 'C+D', fields: [2, 3] },
      ],
      u: pop.u,
      fallbackM: pop.u,
      allPairs: pop.all,
      lambdaInit: 0.01,
      maxIterations: 2_000,
      tolerance: 1e-9,
    });
    expect(model.rules.map((r) => r.accepted)).toEqual([true, true]);
    // About 130–160 matches per rule: the standard error of an m near 0.85 is about 0.03; 0.1 is
    // three of them (0.06 the largest measured), and the confounded fit above misses by 0.6.
    model.m.forEach((row, f) =>
      row.forEach((x, k) => expect(Math.abs(x - (TRUE_M[f]?.[k] ?? 0))).toBeLessThan(0.1)),
    );
    expect(model.lambda).toBeGreaterThan((0.5 * MATCHES) / PAIRS);
    expect(model.lambda).toBeLessThan((2 * MATCHES) / PAIRS);
  });

  it('does not train on a rule with too few pairs, and falls back for the fields no rule frees', () => {
    const model = trainPerRule({
      levelCounts: LEVELS,
      nameFields: [0, 1, 4],
      vectors: pop.vectors.subarray(0, 10 * W),
      masks: pop.masks.subarray(0, 10),
      rules: [{ name: 'A+B', fields: [0, 1] }],
      u: pop.u,
      fallbackM: LEVELS.map(() => [0.5, 0.5]),
      allPairs: pop.all,
      lambdaInit: 0.01,
      maxIterations: 100,
      tolerance: 1e-6,
    });
    expect(model.rules[0]).toMatchObject({ accepted: false, reason: 'too-few-pairs' });
    expect(model.m).toEqual(LEVELS.map(() => [0.5, 0.5]));
  });

  it('reads pattern counts with missing cells and held fields as missing', () => {
    const vectors = Uint8Array.from([0, 1, MISSING_CELL, 0, 0, 0, 0, 1, 0]);
    expect(patternCounts(vectors, [2, 2, 2], () => true, new Set([1]))).toEqual([
      { levels: [0, -1, -1], count: 1 },
      { levels: [0, -1, 0], count: 2 },
    ]);
  });

  it('counts the patterns of many distinct rows with keys above 2^32 as a string-keyed count does', () => {
    // Twelve fields of eight levels (keys up to 9^12 ≈ 2.8·10^11), 20,000 rows, a few thousand
    // distinct: the open-addressing index grows several times and meets collisions.
    const levels = new Array<number>(12).fill(8);
    const rng = seededPrng('pattern-counts');
    const rows = 20_000;
    const vectors = new Uint8Array(rows * 12);
    for (let i = 0; i < vectors.length; i++) {
      const x = rng.nextInt(12);
      vectors[i] = x >= 8 ? MISSING_CELL : x % (i % 12 < 6 ? 2 : 8);
    }
    const select = (row: number): boolean => row % 3 !== 0;
    const held = new Set([2, 7]);
    const naive = new Map<string, number>();
    for (let row = 0; row < rows; row++) {
      if (!select(row)) continue;
      const key = Array.from(vectors.subarray(row * 12, row * 12 + 12), (c, f) =>
        c === MISSING_CELL || held.has(f) ? -1 : c,
      ).join(',');
      naive.set(key, (naive.get(key) ?? 0) + 1);
    }
    const got = patternCounts(vectors, levels, select, held);
    expect(got.length).toBe(naive.size);
    expect(got.length).toBeGreaterThan(1_000);
    for (const p of got) expect(naive.get(p.levels.join(','))).toBe(p.count);
  });
});

describe('label-swap guard', () => {
  it('swaps a fit whose "match" class agrees less on the names back', () => {
    const pop = population();
    // u free, started the wrong way round: EM converges with the classes swapped.
    const fit = estimateParameters(
      pop.all,
      LEVELS,
      { m: LEVELS.map(() => [0.05, 0.95]), u: leaning, lambda: 0.99 },
      { maxIterations: 2_000, tolerance: 1e-9 },
    );
    expect(fit.m[0]?.[0] ?? 1).toBeLessThan(fit.u[0]?.[0] ?? 0);
    const oriented = orientClasses(fit, [0, 1]);
    expect(oriented.swapped).toBe(true);
    expect(oriented.m).toEqual(fit.u);
    expect(oriented.u).toEqual(fit.m);
    expect(oriented.lambda).toBeCloseTo(1 - fit.lambda, 12);
    expect(orientClasses(oriented, [0, 1]).swapped).toBe(false);
  });
});
