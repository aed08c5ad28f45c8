// Krippendorff's alpha in the coincidence-matrix formulation of K. Krippendorff, "Computing
// Krippendorff's Alpha-Reliability" (Annenberg School for Communication, University of
// Pennsylvania, 2011; https://repository.upenn.edu/asc_papers/43). Any number of coders, missing
// values, coders rotating from unit to unit; nominal, ordinal, interval and ratio metrics:
//   o_ck = Σ_u (number of c–k pairs in unit u) / (m_u − 1)   over units with m_u >= 2 values,
//   n_c = Σ_k o_ck,  n = Σ_c n_c,
//   α = 1 − D_o / D_e = 1 − (n − 1) Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck.
import { StatsError } from './errors.js';
import {
  categoryKey,
  requireNumbers,
  type MeasurementLevel,
  type Rating,
  type RatingMatrix,
} from './ratings.js';

export interface AlphaResult {
  /** null when there is nothing to disagree about (fewer than two pairable values, or D_e = 0). */
  alpha: number | null;
  level: MeasurementLevel;
  /** Units with at least two values (the only ones that enter alpha). */
  pairableUnits: number;
  /** n, the number of pairable values. */
  pairableValues: number;
  /** D_o = Σ o_ck δ²_ck / n and D_e = Σ n_c n_k δ²_ck / (n(n − 1)). */
  observedDisagreement: number;
  expectedDisagreement: number;
}

/** The data reduced once, so that bootstrap resamples only add up per-unit contributions. */
export interface PreparedAlpha {
  level: MeasurementLevel;
  /** Distinct values; ascending for the numeric levels. */
  values: readonly Rating[];
  /** Per pairable unit: counts per value index, and its coincidence entries. */
  units: readonly PairableUnit[];
}

interface PairableUnit {
  /** Value indexes present in the unit and how often each occurs. */
  indexes: readonly number[];
  counts: readonly number[];
  /** Flattened triples c, k, o_ck contribution, c != k only (δ²_cc = 0 at every level). */
  pairs: readonly number[];
  /** Σ o_ck δ²_ck of this unit where δ does not depend on the marginals (not ordinal). */
  observed: number;
}

/** δ²_ck for the nominal, interval and ratio metrics (Krippendorff 2011, "Difference functions"). */
function fixedDelta2(level: MeasurementLevel, c: Rating, k: Rating): number {
  if (level === 'nominal') return c === k ? 0 : 1;
  const x = c as number;
  const y = k as number;
  if (level === 'ratio') return x + y === 0 ? 0 : ((x - y) / (x + y)) ** 2;
  return (x - y) ** 2;
}

/**
 * Reduces `matrix` (units × coders, null = missing) to value indexes and per-unit coincidences.
 * Values must be numbers at the ordinal, interval and ratio levels (non-negative for ratio).
 */
export function prepareAlpha(matrix: RatingMatrix, level: MeasurementLevel): PreparedAlpha {
  if (level !== 'nominal') requireNumbers(matrix, level);
  const byKey = new Map<string, Rating>();
  for (const row of matrix) for (const v of row) if (v !== null) byKey.set(categoryKey(v), v);
  const values = [...byKey.values()];
  if (level !== 'nominal') (values as number[]).sort((a, b) => a - b);
  const index = new Map(values.map((v, i) => [categoryKey(v), i]));
  const units: PairableUnit[] = [];
  for (const row of matrix) {
    const tally = new Map<number, number>();
    let m = 0;
    for (const v of row) {
      if (v === null) continue;
      const i = index.get(categoryKey(v)) ?? 0;
      tally.set(i, (tally.get(i) ?? 0) + 1);
      m++;
    }
    if (m < 2) continue;
    const pairs: number[] = [];
    let observed = 0;
    for (const [c, nc] of tally) {
      for (const [k, nk] of tally) {
        if (c === k) continue;
        const w = (nc * nk) / (m - 1);
        pairs.push(c, k, w);
        if (level !== 'ordinal') observed += w * fixedDelta2(level, values[c] ?? 0, values[k] ?? 0);
      }
    }
    units.push({ indexes: [...tally.keys()], counts: [...tally.values()], pairs, observed });
  }
  return { level, values, units };
}

/** 2n Σ_c n_c (x_c − x̄)², which equals Σ_c Σ_k n_c n_k (x_c − x_k)², centred for accuracy. */
function squaredSpread(marginal: Float64Array, x: (i: number) => number, n: number): number {
  let mean = 0;
  marginal.forEach((nc, c) => (mean += nc * x(c)));
  mean /= n;
  let ss = 0;
  marginal.forEach((nc, c) => (ss += nc * (x(c) - mean) ** 2));
  return 2 * n * ss;
}

/** Σ_c Σ_k n_c n_k ((x_c − x_k)/(x_c + x_k))², over the values present (O(V²)). */
function ratioExpected(marginal: Float64Array, values: readonly Rating[]): number {
  const present: number[] = [];
  marginal.forEach((nc, c) => nc > 0 && present.push(c));
  const x = Float64Array.from(present, (c) => values[c] as number);
  const w = Float64Array.from(present, (c) => marginal[c] ?? 0);
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i] ?? 0;
    let row = 0;
    for (let j = i + 1; j < x.length; j++) {
      const xj = x[j] ?? 0;
      const t = xi + xj === 0 ? 0 : (xi - xj) / (xi + xj);
      row += (w[j] ?? 0) * t * t;
    }
    sum += (w[i] ?? 0) * row;
  }
  return 2 * sum;
}

/**
 * Alpha over the prepared data, or over the units listed in `unitIndexes` (indexes into
 * `prepared.units`, repeats allowed: that is how the bootstrap resamples).
 *
 * The ordinal metric δ_ck = Σ_{g=c..k} n_g − (n_c + n_k)/2 (ranked values) equals M_k − M_c with
 * the mid-rank M_i = Σ_{g<i} n_g + n_i/2, so ordinal alpha is interval alpha on mid-ranks; both
 * expected disagreements are then O(V). Ratio stays O(V²) over the values present.
 */
export function alphaOfPrepared(
  prepared: PreparedAlpha,
  unitIndexes?: readonly number[],
): AlphaResult {
  const { level, values, units } = prepared;
  // Plain loops over the chosen units (a bootstrap calls this 2,000 times per coefficient); the
  // sums run in the same order as ever, so every result is the same double.
  const count = unitIndexes === undefined ? units.length : unitIndexes.length;
  const unitAt = (k: number): PairableUnit | undefined =>
    units[unitIndexes === undefined ? k : (unitIndexes[k] ?? -1)];
  const marginal = new Float64Array(values.length);
  for (let k = 0; k < count; k++) {
    const u = unitAt(k);
    if (u === undefined) continue;
    const { indexes, counts } = u;
    for (let j = 0; j < indexes.length; j++) {
      const c = indexes[j] ?? 0;
      marginal[c] = (marginal[c] ?? 0) + (counts[j] ?? 0);
    }
  }
  let n = 0;
  for (let c = 0; c < marginal.length; c++) n += marginal[c] ?? 0;
  const empty = {
    alpha: null,
    level,
    pairableUnits: count,
    pairableValues: n,
    observedDisagreement: 0,
    expectedDisagreement: 0,
  };
  if (n < 2) return empty;
  let observed = 0;
  let expected: number;
  if (level === 'ordinal') {
    const midRank = new Float64Array(values.length);
    let below = 0;
    marginal.forEach((nc, c) => {
      midRank[c] = below + nc / 2;
      below += nc;
    });
    for (let k = 0; k < count; k++) {
      const u = unitAt(k);
      if (u === undefined) continue;
      for (let i = 0; i < u.pairs.length; i += 3) {
        const d = (midRank[u.pairs[i] ?? 0] ?? 0) - (midRank[u.pairs[i + 1] ?? 0] ?? 0);
        observed += (u.pairs[i + 2] ?? 0) * d * d;
      }
    }
    expected = squaredSpread(marginal, (c) => midRank[c] ?? 0, n);
  } else {
    for (let k = 0; k < count; k++) observed += unitAt(k)?.observed ?? 0;
    expected =
      level === 'nominal'
        ? n * n - marginal.reduce((a, b) => a + b * b, 0)
        : level === 'interval'
          ? squaredSpread(marginal, (c) => values[c] as number, n)
          : ratioExpected(marginal, values);
  }
  if (expected === 0) return { ...empty, observedDisagreement: observed / n };
  return {
    alpha: 1 - ((n - 1) * observed) / expected,
    level,
    pairableUnits: count,
    pairableValues: n,
    observedDisagreement: observed / n,
    expectedDisagreement: expected / (n * (n - 1)),
  };
}

/**
 * Krippendorff's alpha (see the file comment for the formulas and the source). Units with fewer
 * than two values are not pairable and do not enter; `alpha` is null when nothing varies.
 *
 * @example
 *   // Krippendorff (2011), reliability data with missing values: four coders, twelve units.
 *   krippendorffAlpha(data, 'nominal').alpha  // 0.743
 *   krippendorffAlpha(data, 'interval').alpha // 0.849
 */
export function krippendorffAlpha(matrix: RatingMatrix, level: MeasurementLevel): AlphaResult {
  if (!['nominal', 'ordinal', 'interval', 'ratio'].includes(level)) {
    throw new StatsError(
      'STATS_INVALID_INPUT',
      `unknown level of measurement ${JSON.stringify(level)}`,
    );
  }
  return alphaOfPrepared(prepareAlpha(matrix, level));
}
