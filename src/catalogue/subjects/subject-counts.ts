// Subjects counted by unit, by month of death, or by both: what `custody subject counts` prints and
// what the report's catalogue section and its deaths-by-unit-and-month chart are drawn from.
// Pure: catalogue rows in, counts out. Merged subjects are not counted (their photographs belong
// to the subject they were merged into); a subject without a unit or a month counts as 'unknown'.
import type { SubjectsTable, UnitsTable } from '../../db/schema.js';

export type SubjectCountsBy = 'unit' | 'month' | 'unit-month';
export const SUBJECT_COUNTS_BY: readonly SubjectCountsBy[] = ['unit', 'month', 'unit-month'];

export interface UnitRef {
  readonly id: string;
  readonly code: number | null;
  readonly name_en: string;
  readonly name_ar: string | null;
}

export interface SubjectCountRow {
  /** null: the subject is attributed to no unit (or the 'month' grouping). */
  readonly unit: UnitRef | null;
  /** 'YYYY-MM' of the date of death; 'unknown' without one or with only a year; null for 'unit'. */
  readonly month: string | null;
  readonly count: number;
}

export interface SubjectCounts {
  readonly by: SubjectCountsBy;
  /** Active subjects: the sum of the rows' counts. */
  readonly total: number;
  readonly rows: readonly SubjectCountRow[];
}

export const UNKNOWN_MONTH = 'unknown';

/** 'YYYY-MM' of a date written YYYY[-MM[-DD]], or 'unknown'. */
export function monthOf(date: string | null): string {
  const m = date === null ? null : /^(\d{4})-(\d{2})/.exec(date);
  return m === null ? UNKNOWN_MONTH : `${m[1]}-${m[2]}`;
}

/**
 * Counts active subjects. Rows are ordered by unit code (units without a code by English name,
 * then 'no unit'), then by month with 'unknown' last, so the output is the same on every run.
 *
 * @example
 *   countSubjects(subjects, units, 'unit') // { by: 'unit', total: 3, rows: [{ unit: {…}, month: null, count: 2 }, …] }
 */
export function countSubjects(
  subjects: readonly SubjectsTable[],
  units: readonly UnitsTable[],
  by: SubjectCountsBy,
): SubjectCounts {
  const unitById = new Map(units.map((u) => [u.id, u]));
  const cells = new Map<string, { unit: UnitRef | null; month: string | null; count: number }>();
  let total = 0;
  for (const s of subjects) {
    if (s.status !== 'active') continue;
    total += 1;
    const u = by === 'month' || s.unit_id === null ? undefined : unitById.get(s.unit_id);
    const unit: UnitRef | null =
      u === undefined ? null : { id: u.id, code: u.code, name_en: u.name_en, name_ar: u.name_ar };
    const month = by === 'unit' ? null : monthOf(s.date_of_death);
    const key = `${unit?.id ?? ''}\u0000${month ?? ''}`;
    const cell = cells.get(key) ?? { unit, month, count: 0 };
    cell.count += 1;
    cells.set(key, cell);
  }
  const rows = [...cells.values()].sort(
    (a, b) => compareUnits(a.unit, b.unit) || compareMonths(a.month, b.month),
  );
  return { by, total, rows };
}

function compareUnits(a: UnitRef | null, b: UnitRef | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (a.code !== null && b.code !== null && a.code !== b.code) return a.code - b.code;
  if ((a.code === null) !== (b.code === null)) return a.code === null ? 1 : -1;
  return cmp(a.name_en, b.name_en) || cmp(a.id, b.id);
}

function compareMonths(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === UNKNOWN_MONTH || a === null) return 1;
  if (b === UNKNOWN_MONTH || b === null) return -1;
  return cmp(a, b);
}

/** Code-point order, never the locale's: the same on every machine. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
