import { describe, expect, it } from 'vitest';
import { hasCode } from '../core/index.js';
import { wilsonInterval } from './proportion.js';
import { stratifiedProportion } from './stratified.js';

describe('stratified proportion (Cochran 1977, ch. 5)', () => {
  // Kauermann & Küchenhoff (2010), Stichproben, p. 53, as checked by R samplingbook's own tests
  // (tests/testthat/tests_ch2.r): 45 of 100 drawn from N = 300 gives SE 0.0408 and the approximate
  // 95% interval [0.37, 0.53], numbers in population [111, 159]; 2 of 100 gives SE 0.0115 and
  // [-0.0025, 0.0425] (which we clip to [0, 0.0425]). One stratum is simple random sampling.
  it('reproduces the published one-stratum figures', () => {
    const a = stratifiedProportion([{ populationSize: 300, sampled: 100, positive: 45 }]);
    expect(a.proportion).toBe(0.45);
    expect(a.standardError.toFixed(4)).toBe('0.0408');
    expect([a.normal.lower.toFixed(2), a.normal.upper.toFixed(2)]).toEqual(['0.37', '0.53']);
    expect([Math.ceil(a.normal.lower * 300), Math.floor(a.normal.upper * 300)]).toEqual([111, 159]);
    const b = stratifiedProportion([{ populationSize: 300, sampled: 100, positive: 2 }]);
    expect(b.standardError.toFixed(4)).toBe('0.0115');
    expect(b.normal.lower).toBe(0);
    expect(b.normal.upper.toFixed(4)).toBe('0.0425');
    expect(b.normal.method).toBe(
      'normal approximation with finite population correction, clipped to [0, 1]',
    );
  });

  it('weights strata by N_h / N and corrects each for its sampling fraction', () => {
    const e = stratifiedProportion([
      { populationSize: 100, sampled: 20, positive: 5 },
      { populationSize: 300, sampled: 30, positive: 12 },
    ]);
    const variance = (0.25 ** 2 * 0.8 * 0.25 * 0.75) / 19 + (0.75 ** 2 * 0.9 * 0.4 * 0.6) / 29;
    expect(e.proportion).toBeCloseTo(0.25 * 0.25 + 0.75 * 0.4, 15);
    expect(e.standardError).toBeCloseTo(Math.sqrt(variance), 15);
    expect(e.estimatedCount).toBeCloseTo(145, 12);
    expect([e.populationSize, e.sampled, e.positive]).toEqual([400, 50, 17]);
    const nEff = (e.proportion * (1 - e.proportion)) / variance;
    expect(e.wilsonEffective.effectiveSampleSize).toBeCloseTo(nEff, 10);
    expect(e.wilsonEffective.lower).toBeLessThan(e.proportion);
    expect(e.wilsonEffective.upper).toBeGreaterThan(e.proportion);
  });

  it('a Wilson interval at n_eff equals the plain Wilson interval when n_eff is a whole sample', () => {
    // p = 0 has SE = 0, so n_eff falls back to n = Σ n_h: exactly Wilson(0, n).
    const e = stratifiedProportion([
      { populationSize: 1000, sampled: 40, positive: 0 },
      { populationSize: 500, sampled: 20, positive: 0 },
    ]);
    expect(e.wilsonEffective.effectiveSampleSize).toBe(60);
    expect(e.wilsonEffective.upper).toBeCloseTo(wilsonInterval(0, 60).upper, 14);
    expect(e.wilsonEffective.lower).toBe(0);
  });

  it('strata examined in full add no variance; all in full gives [p, p]', () => {
    const e = stratifiedProportion([
      { populationSize: 10, sampled: 10, positive: 3 },
      { populationSize: 30, sampled: 30, positive: 6 },
    ]);
    expect(e.standardError).toBe(0);
    expect(e.proportion).toBeCloseTo(9 / 40, 15);
    expect([e.normal.lower, e.normal.upper]).toEqual([e.proportion, e.proportion]);
    expect([e.wilsonEffective.lower, e.wilsonEffective.upper]).toEqual([
      e.proportion,
      e.proportion,
    ]);
    expect(e.wilsonEffective.effectiveSampleSize).toBe(Number.POSITIVE_INFINITY);
  });

  it('strata uniform in the sample but not examined in full: n_eff is capped at the number assessed, never an interval of zero width', () => {
    // Issue 11: strata 3/3 and 0/4 gave 0.40 [0.40, 0.40].
    const e = stratifiedProportion([
      { populationSize: 40, sampled: 3, positive: 3 },
      { populationSize: 60, sampled: 4, positive: 0 },
    ]);
    expect(e.proportion).toBeCloseTo(0.4, 15);
    expect(e.standardError).toBe(0);
    expect(e.wilsonEffective.effectiveSampleSize).toBe(7);
    // Wilson's 95% interval for 0.4 on n = 7: centre (p + z²/2n)/(1 + z²/n), half-width z√(p(1−p)/n + z²/4n²)/(1 + z²/n).
    const z = 1.959963984540054;
    const n = 7;
    const centre = (0.4 + (z * z) / (2 * n)) / (1 + (z * z) / n);
    const half = (z * Math.sqrt((0.4 * 0.6) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
    expect(e.wilsonEffective.lower).toBeCloseTo(centre - half, 12);
    expect(e.wilsonEffective.upper).toBeCloseTo(centre + half, 12);
    expect(e.wilsonEffective.upper - e.wilsonEffective.lower).toBeGreaterThan(0.5);
  });

  it('a tiny but non-zero SE is capped too: n_eff never exceeds the number assessed', () => {
    const e = stratifiedProportion([
      { populationSize: 1000, sampled: 50, positive: 50 },
      { populationSize: 1000, sampled: 50, positive: 49 },
    ]);
    expect(e.wilsonEffective.effectiveSampleSize).toBeLessThanOrEqual(100);
  });

  it('the interval holds its estimate, exactly at 0 and 1: a finding absent (or present) in every sampled case has lower bound 0 (upper bound 1)', () => {
    // The statistics page's chart and the report's refuse a row whose interval misses its
    // estimate; at p = 0 the Wilson terms left a lower bound of 1.4e-17 (CI on f174ffc).
    const none = stratifiedProportion([{ populationSize: 17, sampled: 14, positive: 0 }]);
    expect(none.proportion).toBe(0);
    expect(none.wilsonEffective.lower).toBe(0);
    const all = stratifiedProportion([{ populationSize: 22, sampled: 10, positive: 10 }]);
    expect(all.proportion).toBe(1);
    expect(all.wilsonEffective.upper).toBe(1);
    // Every plan of one or two strata with N ≤ 12: the estimate lies within its interval.
    let plans = 0;
    const strata: { populationSize: number; sampled: number; positive: number }[] = [];
    for (let bigN = 2; bigN <= 12; bigN++)
      for (let n = 2; n <= bigN; n++)
        for (let k = 0; k <= n; k++) strata.push({ populationSize: bigN, sampled: n, positive: k });
    const check = (plan: typeof strata): void => {
      const e = stratifiedProportion(plan);
      plans++;
      if (!(e.wilsonEffective.lower <= e.proportion && e.proportion <= e.wilsonEffective.upper))
        expect.fail(
          `${JSON.stringify(plan)}: ${e.proportion} outside [${e.wilsonEffective.lower}, ${e.wilsonEffective.upper}]`,
        );
    };
    for (const a of strata) {
      check([a]);
      for (const b of strata) if (b.populationSize <= 6) check([a, b]);
    }
    expect(plans).toBeGreaterThan(10_000);
  });

  it('refuses a stratum with one member examined out of many, and empty input', () => {
    for (const strata of [
      [{ populationSize: 10, sampled: 1, positive: 0 }],
      [],
      [{ populationSize: 5, sampled: 6, positive: 1 }],
    ]) {
      let error: unknown;
      try {
        stratifiedProportion(strata);
      } catch (e) {
        error = e;
      }
      expect(hasCode(error, 'STATS_INVALID_INPUT')).toBe(true);
    }
  });
});
