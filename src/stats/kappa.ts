// Cohen's kappa (two coders) and Fleiss' kappa (a fixed number of coders per unit), computed on
// the raw answers. Both are chance-corrected agreement, κ = (P_o − P_e) / (1 − P_e); κ is null
// when P_e = 1 (every answer the same category), where it is undefined.
import { StatsError } from './errors.js';
import { categoryKey, presentValues, type Rating, type RatingMatrix } from './ratings.js';

export interface KappaResult {
  /** null when the expected agreement is 1. */
  kappa: number | null;
  /** P_o (Cohen) or P̄ (Fleiss). */
  observedAgreement: number;
  /** P_e (Cohen) or P̄_e (Fleiss). */
  expectedAgreement: number;
  units: number;
  /** Coders per unit: 2 for Cohen, m for Fleiss. */
  ratersPerUnit: number;
  /** Distinct categories used. */
  categories: number;
}

const kappaOf = (po: number, pe: number): number | null => (pe === 1 ? null : (po - pe) / (1 - pe));

/**
 * Cohen's kappa for two coders who each rated every unit (J. Cohen, "A coefficient of agreement
 * for nominal scales", Educational and Psychological Measurement 20 (1960) 37–46):
 *   P_o = share of units on which the two agree,  P_e = Σ_c p_1c p_2c  (each coder's marginals).
 *
 * @example
 *   cohenKappa([['yes', 'yes'], ['yes', 'no'], ['no', 'no'], ['no', 'no']]).kappa // 0.5
 */
export function cohenKappa(matrix: RatingMatrix): KappaResult {
  return cohenOfResample(
    prepareCohen(matrix),
    matrix.map((_, i) => i),
  );
}

/**
 * Fleiss' kappa for m >= 2 ratings on every unit, the coders free to differ from unit to unit
 * (J. L. Fleiss, "Measuring nominal scale agreement among many raters", Psychological Bulletin
 * 76 (1971) 378–382). With n_ij the number of ratings of unit i in category j and N units:
 *   P_i = (Σ_j n_ij² − m) / (m(m − 1)),  P̄ = mean P_i,  p_j = Σ_i n_ij / (N m),  P̄_e = Σ_j p_j².
 * Nulls are skipped; every unit must then have the same number m of values.
 *
 * @example
 *   fleissKappa([['a', 'a', 'b'], ['b', 'b', 'b']]).kappa // 0.25
 */
export function fleissKappa(matrix: RatingMatrix): KappaResult {
  return fleissOfResample(
    prepareFleiss(matrix),
    matrix.map((_, i) => i),
  );
}

/**
 * One set of ratings read once, for the kappa of the whole set and of each of the bootstrap's
 * resamples: each unit's categories as small integers (numbered in order of first appearance) and
 * its own term. A resample then costs a pass over the indexes drawn, with no string keys, maps or
 * copies of rows. The sums are those of the formulas above term by term, in the units' order, and
 * P_e is summed over the categories in the order of their first appearance in the resample, so a
 * resample's kappa is the same bytes as the textbook computation on the resampled rows (the
 * oracle in kappa.test.ts, on random resamples). The figures are signed, and verify-export
 * recomputes them.
 */
interface PreparedUnits {
  /** Distinct categories over all units. */
  categories: number;
  /** Unit u's categories: ids[start[u]] … ids[start[u + 1] − 1], each once, in order of appearance. */
  start: Int32Array;
  ids: Int32Array;
  /** …and how many of unit u's values fall in each. */
  counts: Int32Array;
}

/** Numbers categories 0, 1, 2… in the order they are first met; `size` is how many were. */
function categoryNumbering(): { id: (v: Rating) => number; readonly size: number } {
  const idOf = new Map<string, number>();
  return {
    id(v) {
      const key = categoryKey(v);
      let id = idOf.get(key);
      if (id === undefined) idOf.set(key, (id = idOf.size));
      return id;
    },
    get size() {
      return idOf.size;
    },
  };
}

function prepareUnits(rows: readonly (readonly Rating[])[]): PreparedUnits {
  const numbering = categoryNumbering();
  const start = new Int32Array(rows.length + 1);
  const ids: number[] = [];
  const counts: number[] = [];
  rows.forEach((values, u) => {
    start[u] = ids.length;
    const local = new Map<number, number>(); // category id → its position in ids
    for (const v of values) {
      const id = numbering.id(v);
      const at = local.get(id);
      if (at === undefined) {
        local.set(id, ids.length);
        ids.push(id);
        counts.push(1);
      } else counts[at] = (counts[at] ?? 0) + 1;
    }
  });
  start[rows.length] = ids.length;
  return {
    categories: numbering.size,
    start,
    ids: Int32Array.from(ids),
    counts: Int32Array.from(counts),
  };
}

/** One matrix read for Fleiss' kappa: `fleissOfResample(prepared, idx)` is the kappa of the units `idx` (repeats allowed). */
export interface PreparedFleiss extends PreparedUnits {
  m: number;
  /** Unit u's P_i, (Σ_j n_ij² − m) / (m(m − 1)). */
  terms: Float64Array;
}

/** Reads and checks `matrix`: at least one unit, and the same number m >= 2 of values on each. */
export function prepareFleiss(matrix: RatingMatrix): PreparedFleiss {
  if (matrix.length === 0)
    throw new StatsError('STATS_INVALID_INPUT', "Fleiss' kappa needs at least one unit");
  const m = presentValues(matrix[0] ?? []).length;
  if (m < 2)
    throw new StatsError(
      'STATS_INVALID_INPUT',
      `Fleiss' kappa needs at least two ratings per unit; unit 1 has ${m}`,
    );
  matrix.forEach((row, u) => {
    const count = presentValues(row).length;
    if (count !== m) {
      throw new StatsError(
        'STATS_INVALID_INPUT',
        `Fleiss' kappa needs the same number of ratings on every unit: unit 1 has ${m}, unit ${u + 1} has ${count}`,
      );
    }
  });
  const units = prepareUnits(matrix.map(presentValues));
  const terms = new Float64Array(matrix.length);
  for (let u = 0; u < matrix.length; u++) {
    let squares = 0;
    for (let k = units.start[u] ?? 0; k < (units.start[u + 1] ?? 0); k++)
      squares += (units.counts[k] ?? 0) ** 2;
    terms[u] = (squares - m) / (m * (m - 1));
  }
  return { ...units, m, terms };
}

export function fleissOfResample(p: PreparedFleiss, idx: readonly number[]): KappaResult {
  if (idx.length === 0)
    throw new StatsError('STATS_INVALID_INPUT', "Fleiss' kappa needs at least one unit");
  const totals = new Float64Array(p.categories);
  const order: number[] = [];
  let sumP = 0;
  for (const u of idx) {
    for (let k = p.start[u] ?? 0; k < (p.start[u + 1] ?? 0); k++) {
      const id = p.ids[k] ?? 0;
      if (totals[id] === 0) order.push(id);
      totals[id] = (totals[id] ?? 0) + (p.counts[k] ?? 0);
    }
    sumP += p.terms[u] ?? Number.NaN;
  }
  const n = idx.length;
  const m = p.m;
  const pBar = sumP / n;
  let peBar = 0;
  for (const id of order) peBar += ((totals[id] ?? 0) / (n * m)) ** 2;
  return {
    kappa: kappaOf(pBar, peBar),
    observedAgreement: pBar,
    expectedAgreement: peBar,
    units: n,
    ratersPerUnit: m,
    categories: order.length,
  };
}

/** One matrix read for Cohen's kappa: `cohenOfResample(prepared, idx)` is the kappa of the units `idx` (repeats allowed). */
export interface PreparedCohen {
  categories: number;
  /** Unit u's two values as category ids. */
  first: Int32Array;
  second: Int32Array;
}

/** Reads and checks `matrix`: at least one unit, and two values on each. */
export function prepareCohen(matrix: RatingMatrix): PreparedCohen {
  if (matrix.length === 0)
    throw new StatsError('STATS_INVALID_INPUT', "Cohen's kappa needs at least one unit");
  matrix.forEach((row, u) => {
    const [a, b] = row;
    if (row.length !== 2 || a === null || a === undefined || b === null || b === undefined) {
      throw new StatsError(
        'STATS_INVALID_INPUT',
        `Cohen's kappa needs exactly two values per unit; unit ${u + 1} has ${presentValues(row).length} of ${row.length}`,
      );
    }
  });
  const numbering = categoryNumbering();
  const first = new Int32Array(matrix.length);
  const second = new Int32Array(matrix.length);
  matrix.forEach((row, u) => {
    // Checked above: both values are present.
    first[u] = numbering.id(row[0] as Rating);
    second[u] = numbering.id(row[1] as Rating);
  });
  return { categories: numbering.size, first, second };
}

export function cohenOfResample(p: PreparedCohen, idx: readonly number[]): KappaResult {
  if (idx.length === 0)
    throw new StatsError('STATS_INVALID_INPUT', "Cohen's kappa needs at least one unit");
  const first = new Float64Array(p.categories);
  const second = new Float64Array(p.categories);
  const firstOrder: number[] = [];
  let agree = 0;
  for (const u of idx) {
    const a = p.first[u] ?? 0;
    const b = p.second[u] ?? 0;
    if (a === b) agree++;
    if (first[a] === 0) firstOrder.push(a);
    first[a] = (first[a] ?? 0) + 1;
    second[b] = (second[b] ?? 0) + 1;
  }
  const n = idx.length;
  let pe = 0;
  for (const c of firstOrder) pe += ((first[c] ?? 0) / n) * ((second[c] ?? 0) / n);
  let distinct = 0;
  for (let c = 0; c < p.categories; c++) if (first[c] !== 0 || second[c] !== 0) distinct++;
  const po = agree / n;
  return {
    kappa: kappaOf(po, pe),
    observedAgreement: po,
    expectedAgreement: pe,
    units: n,
    ratersPerUnit: 2,
    categories: distinct,
  };
}
