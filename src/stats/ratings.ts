// Reliability data as the agreement coefficients take it: one row per unit (the thing rated,
// e.g. one examined individual), one column per coder, null where a coder gave no value.
import { StatsError } from './errors.js';

/** One coder's answer for one unit: a category name, or a number at the higher levels. */
export type Rating = string | number;
/** Units × coders; null = no value. Rows may differ in length only if trailing cells are missing. */
export type RatingMatrix = readonly (readonly (Rating | null)[])[];

/** Levels of measurement (Krippendorff 2011, §"Difference functions"). */
export type MeasurementLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';
export const MEASUREMENT_LEVELS: readonly MeasurementLevel[] = [
  'nominal',
  'ordinal',
  'interval',
  'ratio',
];

/** A key that keeps the number 1 and the string '1' apart, so categories never merge by accident. */
export function categoryKey(v: Rating): string {
  return typeof v === 'number' ? `n:${v}` : `s:${v}`;
}

/** The non-null values of one unit's row. */
export function presentValues(row: readonly (Rating | null)[]): Rating[] {
  return row.filter((v): v is Rating => v !== null);
}

/** Throws unless every value is a finite number (ordinal, interval and ratio levels). */
export function requireNumbers(matrix: RatingMatrix, level: MeasurementLevel): void {
  matrix.forEach((row, u) =>
    row.forEach((v, c) => {
      if (v === null) return;
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new StatsError(
          'STATS_INVALID_INPUT',
          `unit ${u + 1}, coder ${c + 1}: ${JSON.stringify(v)} is not a number (${level} level)`,
        );
      }
      if (level === 'ratio' && v < 0) {
        throw new StatsError(
          'STATS_INVALID_INPUT',
          `unit ${u + 1}, coder ${c + 1}: ${v} is negative; ratio data start at an absolute zero`,
        );
      }
    }),
  );
}
