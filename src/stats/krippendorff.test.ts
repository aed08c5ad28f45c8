import { describe, expect, it } from 'vitest';
import { hasCode } from '../core/index.js';
import { alphaOfPrepared, krippendorffAlpha, prepareAlpha } from './krippendorff.js';
import { KRIPPENDORFF_2011_C } from './krippendorff.fixture.js';
import { seededPrng } from './prng.js';
import type { MeasurementLevel, RatingMatrix } from './ratings.js';

/**
 * Alpha straight from its pairwise definition (Krippendorff 2011, "General form"): D_o averages
 * δ² over ordered pairs of values within units (weight 1/(m_u − 1)), D_e over all ordered pairs
 * of pairable values. No coincidence matrix, no mid-ranks: an independent check of the fast path.
 */
function alphaByPairs(matrix: RatingMatrix, level: MeasurementLevel): number {
  const units = matrix
    .map((r) => r.filter((v): v is number => v !== null))
    .filter((r) => r.length >= 2);
  const all = units.flat();
  const n = all.length;
  const count = (x: number): number => all.filter((v) => v === x).length;
  const delta2 = (a: number, b: number): number => {
    if (level === 'nominal') return a === b ? 0 : 1;
    if (level === 'interval') return (a - b) ** 2;
    if (level === 'ratio') return a + b === 0 ? 0 : ((a - b) / (a + b)) ** 2;
    const [lo, hi] = a < b ? [a, b] : [b, a];
    const between = [...new Set(all)]
      .filter((g) => g >= lo && g <= hi)
      .reduce((s, g) => s + count(g), 0);
    return a === b ? 0 : (between - (count(a) + count(b)) / 2) ** 2;
  };
  let dO = 0;
  for (const u of units)
    for (let i = 0; i < u.length; i++)
      for (let j = 0; j < u.length; j++) if (i !== j) dO += delta2(u[i]!, u[j]!) / (u.length - 1);
  let dE = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) if (i !== j) dE += delta2(all[i]!, all[j]!);
  return 1 - ((n - 1) * dO) / dE;
}

describe("Krippendorff's alpha: Krippendorff (2011), example C", () => {
  it.each([
    ['nominal', '0.743'],
    ['ordinal', '0.815'],
    ['interval', '0.849'],
    ['ratio', '0.797'],
  ] as const)('%s: %s', (level, published) => {
    const r = krippendorffAlpha(KRIPPENDORFF_2011_C, level);
    expect(r.alpha?.toFixed(3)).toBe(published);
    expect(r.pairableUnits).toBe(11); // unit 12 has one value: not pairable
    expect(r.pairableValues).toBe(40);
  });

  it("nominal is exactly 1 − 39·8/1216 (the paper's n = 40, 8 off-diagonal coincidences)", () => {
    expect(krippendorffAlpha(KRIPPENDORFF_2011_C, 'nominal').alpha).toBeCloseTo(
      1 - (39 * 8) / 1216,
      15,
    );
  });

  it('string categories at the nominal level give the same alpha as numbers', () => {
    const asText = KRIPPENDORFF_2011_C.map((row) => row.map((v) => (v === null ? null : `v${v}`)));
    expect(krippendorffAlpha(asText, 'nominal').alpha).toBe(
      krippendorffAlpha(KRIPPENDORFF_2011_C, 'nominal').alpha,
    );
  });

  it('alpha over all prepared units equals alpha over the identity resample', () => {
    const p = prepareAlpha(KRIPPENDORFF_2011_C, 'ordinal');
    expect(
      alphaOfPrepared(
        p,
        p.units.map((_u, i) => i),
      ).alpha,
    ).toBe(alphaOfPrepared(p).alpha);
  });
});

describe('the fast path equals the pairwise definition', () => {
  it('on random data with missing values, at every level', () => {
    const g = seededPrng('krippendorff-cross-check');
    let checked = 0;
    for (let trial = 0; trial < 20; trial++) {
      const matrix = Array.from({ length: 5 + g.nextInt(25) }, () => {
        const truth = g.nextInt(6);
        return Array.from({ length: 2 + g.nextInt(4) }, () =>
          g.nextInt(5) === 0
            ? null
            : Math.max(0, truth + g.nextInt(3) - 1) + (trial % 2 === 0 ? 0 : 0.5),
        );
      });
      for (const level of ['nominal', 'ordinal', 'interval', 'ratio'] as const) {
        const fast = krippendorffAlpha(matrix, level).alpha;
        if (fast === null) continue;
        expect(fast, `trial ${trial} ${level}`).toBeCloseTo(alphaByPairs(matrix, level), 11);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(70);
  });
});

describe('edges', () => {
  it('perfect agreement is 1; nothing varying or nothing pairable is null', () => {
    expect(
      krippendorffAlpha(
        [
          ['a', 'a'],
          ['b', 'b', 'b'],
        ],
        'nominal',
      ).alpha,
    ).toBe(1);
    expect(
      krippendorffAlpha(
        [
          [2, 2],
          [2, 2],
        ],
        'interval',
      ).alpha,
    ).toBeNull();
    expect(
      krippendorffAlpha(
        [
          [1, null],
          [null, 2],
        ],
        'interval',
      ).alpha,
    ).toBeNull();
    expect(krippendorffAlpha([], 'nominal').alpha).toBeNull();
  });

  it('refuses non-numbers above the nominal level and negative ratio values', () => {
    for (const [m, level] of [
      [[['x', 1]], 'interval'],
      [[[1, 2]], 'bogus'],
      [[[-1, 2]], 'ratio'],
    ] as const) {
      let error: unknown;
      try {
        krippendorffAlpha(m, level as 'interval');
      } catch (e) {
        error = e;
      }
      expect(hasCode(error, 'STATS_INVALID_INPUT')).toBe(true);
    }
  });
});
