import { describe, expect, it } from 'vitest';
import { hasCode } from '../core/index.js';
import { clopperPearsonInterval, wilsonInterval } from './proportion.js';

const four = (x: number): string => x.toFixed(4);
const limits = (i: { lower: number; upper: number }): [string, string] => [
  four(i.lower),
  four(i.upper),
];

// R. G. Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
// methods", Statistics in Medicine 17 (1998) 857–872, Table I (95% limits, four decimals):
// method 3 = Wilson score, 4 = score with continuity correction, 5 = Clopper–Pearson exact.
const NEWCOMBE_TABLE_I = [
  {
    k: 81,
    n: 263,
    wilson: ['0.2553', '0.3662'],
    wilsonCc: ['0.2535', '0.3682'],
    exact: ['0.2527', '0.3676'],
  },
  {
    k: 15,
    n: 148,
    wilson: ['0.0624', '0.1605'],
    wilsonCc: ['0.0598', '0.1644'],
    exact: ['0.0578', '0.1617'],
  },
  {
    k: 0,
    n: 20,
    wilson: ['0.0000', '0.1611'],
    wilsonCc: ['0.0000', '0.2005'],
    exact: ['0.0000', '0.1684'],
  },
  {
    k: 1,
    n: 29,
    wilson: ['0.0061', '0.1718'],
    wilsonCc: ['0.0018', '0.1963'],
    exact: ['0.0009', '0.1776'],
  },
] as const;

describe('Newcombe (1998) Table I, reproduced to four decimals', () => {
  for (const row of NEWCOMBE_TABLE_I) {
    it(`${row.k}/${row.n}`, () => {
      expect(limits(wilsonInterval(row.k, row.n))).toEqual(row.wilson);
      expect(limits(wilsonInterval(row.k, row.n, { continuityCorrection: true }))).toEqual(
        row.wilsonCc,
      );
      expect(limits(clopperPearsonInterval(row.k, row.n))).toEqual(row.exact);
    });
  }
});

describe('against SciPy 1.17.1 scipy.stats.binomtest(k, n).proportion_ci (full precision)', () => {
  it('93/150, the forensic example', () => {
    const w = wilsonInterval(93, 150);
    expect(w.lower).toBeCloseTo(0.5402444138161206, 12);
    expect(w.upper).toBeCloseTo(0.6937627275355409, 12);
    const cc = wilsonInterval(93, 150, { continuityCorrection: true });
    expect(cc.lower).toBeCloseTo(0.5368693051907638, 12);
    expect(cc.upper).toBeCloseTo(0.6968840832593848, 12);
    const cp = clopperPearsonInterval(93, 150);
    expect(cp.lower).toBeCloseTo(0.5372368879452836, 11);
    expect(cp.upper).toBeCloseTo(0.6979228157458209, 11);
    expect(cp.method).toBe('Clopper–Pearson exact');
  });
});

describe('edges and refusals', () => {
  it('k = n gives an upper limit of exactly 1, k = 0 a lower limit of exactly 0', () => {
    expect(wilsonInterval(20, 20).upper).toBe(1);
    expect(clopperPearsonInterval(20, 20).upper).toBe(1);
    expect(clopperPearsonInterval(20, 20).lower).toBeCloseTo(0.025 ** (1 / 20), 11);
    expect(wilsonInterval(0, 5, { continuityCorrection: true }).lower).toBe(0);
  });

  it('refuses k > n, n = 0 and fractions with STATS_INVALID_INPUT', () => {
    for (const f of [
      () => wilsonInterval(5, 4),
      () => clopperPearsonInterval(0, 0),
      () => wilsonInterval(1.5, 4),
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
