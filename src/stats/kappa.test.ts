import { describe, expect, it } from 'vitest';
import { hasCode } from '../core/index.js';
import { cohenKappa, fleissKappa } from './kappa.js';
import type { Rating } from './ratings.js';

/** Units × coders from a table of counts per category: row i has counts[i][j] ratings of category j. */
function fromCounts(
  counts: readonly (readonly number[])[],
  categories: readonly Rating[],
): Rating[][] {
  return counts.map((row) => row.flatMap((c, j) => Array<Rating>(c).fill(categories[j] ?? '?')));
}

describe("Cohen's kappa", () => {
  // Wikipedia, "Cohen's kappa", worked example: 50 grant proposals read by A and B; both Yes 20,
  // A Yes / B No 5, A No / B Yes 10, both No 15. p_o = 0.7, p_e = 0.5, κ = 0.4.
  const proposals: Rating[][] = [
    ...Array.from({ length: 20 }, () => ['Yes', 'Yes']),
    ...Array.from({ length: 5 }, () => ['Yes', 'No']),
    ...Array.from({ length: 10 }, () => ['No', 'Yes']),
    ...Array.from({ length: 15 }, () => ['No', 'No']),
  ];

  it('reproduces the worked example exactly', () => {
    const r = cohenKappa(proposals);
    expect(r.observedAgreement).toBeCloseTo(0.7, 15);
    expect(r.expectedAgreement).toBeCloseTo(0.5, 15);
    expect(r.kappa).toBeCloseTo(0.4, 14);
    expect([r.units, r.categories, r.ratersPerUnit]).toEqual([50, 2, 2]);
  });

  it('is null when both coders always give the same single category', () => {
    expect(
      cohenKappa([
        ['a', 'a'],
        ['a', 'a'],
      ]).kappa,
    ).toBeNull();
  });

  it('keeps the number 1 and the string "1" apart', () => {
    expect(
      cohenKappa([
        [1, '1'],
        ['1', 1],
      ]).observedAgreement,
    ).toBe(0);
  });

  it('refuses missing values and a third coder', () => {
    for (const m of [[['a', null]], [['a', 'b', 'c']]]) {
      let error: unknown;
      try {
        cohenKappa(m);
      } catch (e) {
        error = e;
      }
      expect(hasCode(error, 'STATS_INVALID_INPUT')).toBe(true);
    }
  });
});

describe("Fleiss' kappa", () => {
  // Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters, 5 categories;
  // P̄ = 0.378, P̄_e = 0.213, κ = 0.210. Exactly: P̄ = 688/1820, P̄_e = 4170/19600.
  const counts = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];

  it('reproduces the worked example exactly', () => {
    const r = fleissKappa(fromCounts(counts, [1, 2, 3, 4, 5]));
    expect(r.observedAgreement).toBeCloseTo(688 / 1820, 15);
    expect(r.expectedAgreement).toBeCloseTo(4170 / 19600, 15);
    const exact = (688 / 1820 - 4170 / 19600) / (1 - 4170 / 19600);
    expect(r.kappa).toBeCloseTo(exact, 14);
    expect(r.kappa?.toFixed(3)).toBe('0.210');
    expect(r.observedAgreement.toFixed(3)).toBe('0.378');
    expect(r.expectedAgreement.toFixed(3)).toBe('0.213');
    expect([r.units, r.ratersPerUnit, r.categories]).toEqual([10, 14, 5]);
  });

  it('skips nulls and demands the same number of ratings on every unit', () => {
    expect(
      fleissKappa([
        ['a', null, 'a'],
        [null, 'b', 'b'],
      ]).ratersPerUnit,
    ).toBe(2);
    let error: unknown;
    try {
      fleissKappa([
        ['a', 'a', 'a'],
        ['b', 'b', null],
      ]);
    } catch (e) {
      error = e;
    }
    expect(hasCode(error, 'STATS_INVALID_INPUT')).toBe(true);
  });
});
