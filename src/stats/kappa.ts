// Cohen's kappa (two coders) and Fleiss' kappa (a fixed number of coders per unit), computed on
// the raw answers. Both are chance-corrected agreement, κ = (P_o − P_e) / (1 − P_e); κ is null
// when P_e = 1 (every answer the same category), where it is undefined.
import { StatsError } from './errors.js';
import { categoryKey, presentValues, type RatingMatrix } from './ratings.js';

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
  if (matrix.length === 0)
    throw new StatsError('STATS_INVALID_INPUT', "Cohen's kappa needs at least one unit");
  const first = new Map<string, number>();
  const second = new Map<string, number>();
  let agree = 0;
  matrix.forEach((row, u) => {
    const [a, b] = row;
    if (row.length !== 2 || a === null || a === undefined || b === null || b === undefined) {
      throw new StatsError(
        'STATS_INVALID_INPUT',
        `Cohen's kappa needs exactly two values per unit; unit ${u + 1} has ${presentValues(row).length} of ${row.length}`,
      );
    }
    const ka = categoryKey(a);
    const kb = categoryKey(b);
    if (ka === kb) agree++;
    first.set(ka, (first.get(ka) ?? 0) + 1);
    second.set(kb, (second.get(kb) ?? 0) + 1);
  });
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
  if (matrix.length === 0)
    throw new StatsError('STATS_INVALID_INPUT', "Fleiss' kappa needs at least one unit");
  const m = presentValues(matrix[0] ?? []).length;
  if (m < 2)
    throw new StatsError(
      'STATS_INVALID_INPUT',
      `Fleiss' kappa needs at least two ratings per unit; unit 1 has ${m}`,
    );
  const totals = new Map<string, number>();
  let sumP = 0;
  matrix.forEach((row, u) => {
    const values = presentValues(row);
    if (values.length !== m) {
      throw new StatsError(
        'STATS_INVALID_INPUT',
        `Fleiss' kappa needs the same number of ratings on every unit: unit 1 has ${m}, unit ${u + 1} has ${values.length}`,
      );
    }
    const counts = new Map<string, number>();
    for (const v of values) counts.set(categoryKey(v), (counts.get(categoryKey(v)) ?? 0) + 1);
    let squares = 0;
    for (const [key, c] of counts) {
      squares += c * c;
      totals.set(key, (totals.get(key) ?? 0) + c);
    }
    sumP += (squares - m) / (m * (m - 1));
  });
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
