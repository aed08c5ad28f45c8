import { describe, expect, it } from 'vitest';
import { hasCode } from '../core/index.js';
import {
  cohenKappa,
  cohenOfResample,
  fleissKappa,
  fleissOfResample,
  type KappaResult,
  prepareCohen,
  prepareFleiss,
} from './kappa.js';
import { seededPrng } from './prng.js';
import { categoryKey, presentValues, type Rating, type RatingMatrix } from './ratings.js';

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

// The oracle: the formulas of kappa.ts's comments computed directly on a matrix of rows, with
// string keys and maps (how kappa.ts computed them before it read the ratings once). It is only
// given well-formed matrices (checking them is kappa.ts's job, tested above and below).
const kappaOf = (po: number, pe: number): number | null => (pe === 1 ? null : (po - pe) / (1 - pe));

function textbookCohen(matrix: RatingMatrix): KappaResult {
  const first = new Map<string, number>();
  const second = new Map<string, number>();
  let agree = 0;
  for (const [a, b] of matrix) {
    const ka = categoryKey(a as Rating);
    const kb = categoryKey(b as Rating);
    if (ka === kb) agree++;
    first.set(ka, (first.get(ka) ?? 0) + 1);
    second.set(kb, (second.get(kb) ?? 0) + 1);
  }
  const n = matrix.length;
  let pe = 0;
  for (const [key, count] of first) pe += (count / n) * ((second.get(key) ?? 0) / n);
  const po = agree / n;
  const categories = new Set([...first.keys(), ...second.keys()]).size;
  return {
    kappa: kappaOf(po, pe),
    observedAgreement: po,
    expectedAgreement: pe,
    units: n,
    ratersPerUnit: 2,
    categories,
  };
}

function textbookFleiss(matrix: RatingMatrix): KappaResult {
  const m = presentValues(matrix[0] ?? []).length;
  const totals = new Map<string, number>();
  let sumP = 0;
  for (const row of matrix) {
    const values = presentValues(row);
    const counts = new Map<string, number>();
    for (const v of values) counts.set(categoryKey(v), (counts.get(categoryKey(v)) ?? 0) + 1);
    let squares = 0;
    for (const [key, c] of counts) {
      squares += c * c;
      totals.set(key, (totals.get(key) ?? 0) + c);
    }
    sumP += (squares - m) / (m * (m - 1));
  }
  const n = matrix.length;
  const pBar = sumP / n;
  let peBar = 0;
  for (const count of totals.values()) peBar += (count / (n * m)) ** 2;
  return {
    kappa: kappaOf(pBar, peBar),
    observedAgreement: pBar,
    expectedAgreement: peBar,
    units: n,
    ratersPerUnit: m,
    categories: totals.size,
  };
}

describe("the kappas of the bootstrap's resamples", () => {
  // A resample's kappa must be the very bytes of the textbook computation on the resampled rows:
  // figures computed with it are signed, and verify-export recomputes them.
  const CATEGORIES: Rating[] = ['absent', 'present', 'cannot_assess', 1, 2, '1', 0.5];
  const same = (a: ReturnType<typeof fleissKappa>, b: ReturnType<typeof fleissKappa>): void => {
    expect(Object.is(a.kappa, b.kappa), `kappa ${a.kappa} vs ${b.kappa}`).toBe(true);
    expect(Object.is(a.observedAgreement, b.observedAgreement)).toBe(true);
    expect(Object.is(a.expectedAgreement, b.expectedAgreement)).toBe(true);
    expect([a.units, a.ratersPerUnit, a.categories]).toEqual([
      b.units,
      b.ratersPerUnit,
      b.categories,
    ]);
  };

  it('Fleiss: the same bytes as the textbook computation on 300 random resamples of random matrices (nulls skipped, repeats drawn)', () => {
    const prng = seededPrng('kappa-prepared-fleiss');
    for (let trial = 0; trial < 300; trial++) {
      const m = 2 + prng.nextInt(4);
      const units = 1 + prng.nextInt(40);
      const used = 1 + prng.nextInt(CATEGORIES.length);
      const matrix = Array.from({ length: units }, () => {
        const row: (Rating | null)[] = Array.from(
          { length: m },
          () => CATEGORIES[prng.nextInt(used)] ?? 'x',
        );
        if (prng.nextInt(3) === 0) row.splice(prng.nextInt(m + 1), 0, null);
        return row;
      });
      const prepared = prepareFleiss(matrix);
      const idx = Array.from({ length: 1 + prng.nextInt(units) }, () => prng.nextInt(units));
      same(fleissOfResample(prepared, idx), textbookFleiss(idx.map((i) => matrix[i] ?? [])));
      same(fleissKappa(matrix), textbookFleiss(matrix));
    }
  });

  it('Cohen: the same bytes as the textbook computation on 300 random resamples of random matrices', () => {
    const prng = seededPrng('kappa-prepared-cohen');
    for (let trial = 0; trial < 300; trial++) {
      const units = 1 + prng.nextInt(40);
      const used = 1 + prng.nextInt(CATEGORIES.length);
      const pick = (): Rating => CATEGORIES[prng.nextInt(used)] ?? 'x';
      const matrix = Array.from({ length: units }, () => [pick(), pick()]);
      const prepared = prepareCohen(matrix);
      const idx = Array.from({ length: 1 + prng.nextInt(units) }, () => prng.nextInt(units));
      same(cohenOfResample(prepared, idx), textbookCohen(idx.map((i) => matrix[i] ?? [])));
      same(cohenKappa(matrix), textbookCohen(matrix));
    }
  });

  it('reading the ratings refuses what the formulas cannot take', () => {
    expect(() => prepareFleiss([['a', 'b'], ['a']])).toThrow(/same number of ratings/);
    expect(() =>
      prepareCohen([
        ['a', 'b'],
        ['a', null],
      ]),
    ).toThrow(/exactly two values/);
    expect(() => prepareFleiss([])).toThrow(/at least one unit/);
  });
});
