// Input rows of the chart builders, checked before they reach a spec. The numbers come from
// stats/ and the names from the catalogue, but a chart in an evidence report must not quietly draw
// something other than what it was given: a proportion of 1.3, a month "2013-13" or a unit listed
// twice for the same month is refused with CHART_INVALID_INPUT instead.
import { ChartError } from './errors.js';

/** One finding's prevalence: the point estimate and its 95% interval, all as proportions in [0, 1]. */
export interface PrevalenceRow {
  /** Stable key of the finding (e.g. its form field); unique within a chart. */
  finding: string;
  /** What a reader sees on the axis. */
  label: string;
  proportion: number;
  lower: number;
  upper: number;
  /** Sample size behind the estimate. */
  n: number;
}

/** Deaths recorded for one unit in one calendar month. */
export interface DeathsByUnitMonthRow {
  unit: string;
  /** Calendar month, YYYY-MM: of death, else (see byPhotograph) of the photograph. */
  month: string;
  count: number;
  /** How many of `count` have no date of death and are placed by their photograph's date (absent: 0). */
  byPhotograph?: number;
}

/** Photographs taken by one camera body on one calendar day (EXIF DateTimeOriginal, literal). */
export interface PhotosPerCameraDayRow {
  camera: string;
  /** YYYY-MM-DD. */
  day: string;
  images: number;
}

/** 30 years of columns. A mistyped year (1013 for 2013) would otherwise ask for 12,000 columns. */
export const MAX_MONTHS = 360;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

function invalid(message: string, details: Record<string, unknown> = {}): ChartError {
  return new ChartError('CHART_INVALID_INPUT', message, { details });
}

function requireText(value: string, what: string, index: number): void {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(`row ${index}: ${what} must be a non-empty string`, { index });
  }
}

function requireProportion(value: number, what: string, index: number): void {
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw invalid(`row ${index}: ${what} must be a proportion in [0, 1], got ${value}`, { index });
  }
}

function requireCount(value: number, what: string, index: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw invalid(`row ${index}: ${what} must be a whole number >= ${min}, got ${value}`, {
      index,
    });
  }
}

/** Throws CHART_INVALID_INPUT unless every row is a usable estimate and findings are unique. */
export function checkPrevalenceRows(rows: readonly PrevalenceRow[]): void {
  if (rows.length === 0) throw invalid('a prevalence chart needs at least one finding');
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    requireText(row.finding, 'finding', i);
    requireText(row.label, 'label', i);
    requireProportion(row.proportion, 'proportion', i);
    requireProportion(row.lower, 'lower', i);
    requireProportion(row.upper, 'upper', i);
    if (!(row.lower <= row.proportion && row.proportion <= row.upper)) {
      throw invalid(`row ${i}: need lower <= proportion <= upper`, { index: i });
    }
    requireCount(row.n, 'n', i, 1);
    if (seen.has(row.finding)) throw invalid(`finding "${row.finding}" is listed twice`);
    seen.add(row.finding);
  });
}

/** Throws CHART_INVALID_INPUT unless every row is a count for a real month, each pair once. */
export function checkDeathsRows(rows: readonly DeathsByUnitMonthRow[]): void {
  if (rows.length === 0) throw invalid('a deaths chart needs at least one row');
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    requireText(row.unit, 'unit', i);
    if (typeof row.month !== 'string' || !MONTH.test(row.month)) {
      throw invalid(`row ${i}: month must be YYYY-MM, got ${String(row.month)}`, { index: i });
    }
    requireCount(row.count, 'count', i, 0);
    if (row.byPhotograph !== undefined) {
      requireCount(row.byPhotograph, 'byPhotograph', i, 0);
      if (row.byPhotograph > row.count) {
        throw invalid(`row ${i}: byPhotograph ${row.byPhotograph} exceeds count ${row.count}`, {
          index: i,
        });
      }
    }
    const key = JSON.stringify([row.unit, row.month]);
    if (seen.has(key)) throw invalid(`unit "${row.unit}" has two rows for ${row.month}`);
    seen.add(key);
  });
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (2013-02-30 is not one). */
function isDay(s: string): boolean {
  const m = DAY.exec(s);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** Throws CHART_INVALID_INPUT unless every row is a positive count for a real day, each pair once. */
export function checkPhotosPerDayRows(rows: readonly PhotosPerCameraDayRow[]): void {
  if (rows.length === 0) throw invalid('a photographs-per-day chart needs at least one row');
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    requireText(row.camera, 'camera', i);
    if (typeof row.day !== 'string' || !isDay(row.day)) {
      throw invalid(`row ${i}: day must be a real date YYYY-MM-DD, got ${String(row.day)}`, {
        index: i,
      });
    }
    requireCount(row.images, 'images', i, 1);
    const key = JSON.stringify([row.camera, row.day]);
    if (seen.has(key)) throw invalid(`camera "${row.camera}" has two rows for ${row.day}`);
    seen.add(key);
  });
}

/**
 * Every month from the earliest to the latest present, inclusive, so a month with no rows shows as
 * an empty column rather than disappearing from the axis.
 *
 * @example
 *   monthRange(['2013-11', '2014-02']) // ['2013-11', '2013-12', '2014-01', '2014-02']
 */
export function monthRange(months: readonly string[]): string[] {
  const indices = months.map((m) => {
    const match = MONTH.exec(m);
    if (match === null) throw invalid(`month must be YYYY-MM, got ${m}`);
    return Number(match[1]) * 12 + Number(match[2]) - 1;
  });
  if (indices.length === 0) return [];
  // reduce, not Math.min(...indices): spreading a long array can overflow the call stack.
  const first = indices.reduce((a, b) => Math.min(a, b));
  const last = indices.reduce((a, b) => Math.max(a, b));
  if (last - first + 1 > MAX_MONTHS) {
    throw invalid(`months span ${last - first + 1} columns; at most ${MAX_MONTHS} fit a chart`);
  }
  const out: string[] = [];
  for (let i = first; i <= last; i++) {
    const year = String(Math.floor(i / 12)).padStart(4, '0');
    const month = String((i % 12) + 1).padStart(2, '0');
    out.push(`${year}-${month}`);
  }
  return out;
}

/** The calendar quarter of a month: "2013-11" -> "2013-Q4". */
export function quarterOf(month: string): string {
  const match = MONTH.exec(month);
  if (match === null) throw invalid(`month must be YYYY-MM, got ${month}`);
  return `${match[1]}-Q${Math.floor((Number(match[2]) - 1) / 3) + 1}`;
}

/** The year of a month: "2013-11" -> "2013". */
export function yearOf(month: string): string {
  const match = MONTH.exec(month);
  if (match === null) throw invalid(`month must be YYYY-MM, got ${month}`);
  return match[1] ?? '';
}

/** Values in order of first appearance, without repeats. */
export function firstAppearance(values: readonly string[]): string[] {
  return [...new Set(values)];
}
