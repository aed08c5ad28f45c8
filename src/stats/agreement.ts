// Every agreement coefficient that applies to one set of reliability data, each with its
// percentile-bootstrap 95% interval. Pure: the CLI and, later, the examination module call this.
import { bootstrapUnits, type BootstrapInterval, type BootstrapOptions } from './bootstrap.js';
import { cohenOfResample, fleissOfResample, prepareCohen, prepareFleiss } from './kappa.js';
import { alphaOfPrepared, prepareAlpha } from './krippendorff.js';
import { presentValues, type MeasurementLevel, type RatingMatrix } from './ratings.js';

export type CoefficientName = 'krippendorff_alpha' | 'fleiss_kappa' | 'cohen_kappa';

export interface Coefficient {
  name: CoefficientName;
  /** null when undefined for these data (e.g. every value the same). */
  value: number | null;
  interval: BootstrapInterval;
  /** Units the coefficient (and its bootstrap) was computed over. */
  units: number;
}

export interface AgreementReport {
  level: MeasurementLevel;
  units: number;
  coders: number;
  /** Units with at least two values, and the number of values in them (Krippendorff's n). */
  pairableUnits: number;
  pairableValues: number;
  coefficients: Coefficient[];
  notApplicable: { name: CoefficientName; reason: string }[];
}

/**
 * Krippendorff's alpha always; Fleiss' kappa when the level is nominal and every unit has the same
 * number (>= 2) of values; Cohen's kappa when the level is nominal and there are exactly two coders
 * who both rated every unit. Intervals: `bootstrapUnits` with the given options, resampling the
 * pairable units for alpha and all units for the kappas; each coefficient's resampling starts from
 * the same seed, so with all units pairable the three see the same resamples. `include.alpha:
 * false` leaves alpha out of `coefficients` (its bootstrap is most of the cost) for a caller that
 * takes only the kappas; the other coefficients are the same either way.
 *
 * @example
 *   agreementReport([['a', 'a'], ['b', 'b'], ['a', 'b']], 'nominal').coefficients.map((c) => c.name)
 *   // ['krippendorff_alpha', 'fleiss_kappa', 'cohen_kappa']
 */
export function agreementReport(
  matrix: RatingMatrix,
  level: MeasurementLevel,
  options: BootstrapOptions = {},
  include: { alpha?: boolean } = {},
): AgreementReport {
  const coders = matrix.reduce((max, row) => Math.max(max, row.length), 0);
  const prepared = prepareAlpha(matrix, level);
  const alpha = alphaOfPrepared(prepared);
  const coefficients: Coefficient[] = [];
  if (include.alpha !== false) {
    coefficients.push({
      name: 'krippendorff_alpha',
      value: alpha.alpha,
      interval: bootstrapUnits(
        prepared.units.length,
        (idx) => alphaOfPrepared(prepared, idx).alpha,
        options,
      ),
      units: prepared.units.length,
    });
  }
  const notApplicable: AgreementReport['notApplicable'] = [];

  const counts = matrix.map((row) => presentValues(row).length);
  const fleissReason =
    level !== 'nominal'
      ? `needs the nominal level, not ${level}`
      : matrix.length === 0 || counts.some((c) => c !== counts[0])
        ? 'needs the same number of values on every unit'
        : (counts[0] ?? 0) < 2
          ? 'needs at least two values per unit'
          : null;
  const all = matrix.map((_, i) => i);
  if (fleissReason === null) {
    const fleiss = prepareFleiss(matrix);
    coefficients.push({
      name: 'fleiss_kappa',
      value: fleissOfResample(fleiss, all).kappa,
      interval: bootstrapUnits(
        matrix.length,
        (idx) => fleissOfResample(fleiss, idx).kappa,
        options,
      ),
      units: matrix.length,
    });
  } else notApplicable.push({ name: 'fleiss_kappa', reason: fleissReason });

  const cohenReason =
    level !== 'nominal'
      ? `needs the nominal level, not ${level}`
      : coders !== 2
        ? `needs exactly two coders, not ${coders}`
        : counts.some((c) => c !== 2) || matrix.length === 0
          ? 'needs both coders to have rated every unit'
          : null;
  if (cohenReason === null) {
    const cohen = prepareCohen(matrix);
    coefficients.push({
      name: 'cohen_kappa',
      value: cohenOfResample(cohen, all).kappa,
      interval: bootstrapUnits(matrix.length, (idx) => cohenOfResample(cohen, idx).kappa, options),
      units: matrix.length,
    });
  } else notApplicable.push({ name: 'cohen_kappa', reason: cohenReason });

  return {
    level,
    units: matrix.length,
    coders,
    pairableUnits: alpha.pairableUnits,
    pairableValues: alpha.pairableValues,
    coefficients,
    notApplicable,
  };
}
