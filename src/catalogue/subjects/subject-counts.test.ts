import { describe, expect, it } from 'vitest';
import type { SubjectsTable, UnitsTable } from '../../db/schema.js';
import { countSubjects, monthOf } from './subject-counts.js';

const unit = (
  id: string,
  code: number | null,
  name_en: string,
  name_ar: string | null = null,
): UnitsTable => ({
  id,
  code,
  name_en,
  name_ar,
  aliases_json: '[]',
  parent_id: null,
  created_seq: 1,
  updated_seq: 1,
});

let n = 0;
const subject = (
  unit_id: string | null,
  date_of_death: string | null,
  status = 'active',
): SubjectsTable => ({
  id: `S${++n}`,
  number_raw: null,
  scheme_id: null,
  number_normalised: null,
  fields_json: '{}',
  unit_id,
  sex: null,
  age_band: null,
  date_of_death,
  date_of_photography: null,
  notes: null,
  status,
  merged_into: null,
  created_seq: n,
  updated_seq: n,
});

const UNITS = [unit('u2', 227, 'Branch 227'), unit('u1', 215, 'Branch 215', 'فرع ٢١٥')];
const SUBJECTS = [
  subject('u2', '2013-05-02'),
  subject('u1', '2013-05'),
  subject('u1', '2013'),
  subject(null, '2012-12-31'),
  subject('u1', '2013-05-20'),
  subject('u1', '2013-05-20', 'merged'),
];

describe('countSubjects', () => {
  it('counts active subjects per unit, ordered by code, unattributed last', () => {
    const c = countSubjects(SUBJECTS, UNITS, 'unit');
    expect(c.total).toBe(5);
    expect(c.rows.map((r) => [r.unit?.code ?? null, r.month, r.count])).toEqual([
      [215, null, 3],
      [227, null, 1],
      [null, null, 1],
    ]);
    expect(c.rows[0]?.unit?.name_ar).toBe('فرع ٢١٥');
  });

  it('counts per month of death, a year-only date as unknown, unknown last', () => {
    const c = countSubjects(SUBJECTS, UNITS, 'month');
    expect(c.rows.map((r) => [r.unit, r.month, r.count])).toEqual([
      [null, '2012-12', 1],
      [null, '2013-05', 3],
      [null, 'unknown', 1],
    ]);
  });

  it('counts unit × month cells whose sum is the total', () => {
    const c = countSubjects(SUBJECTS, UNITS, 'unit-month');
    expect(c.rows.map((r) => [r.unit?.code ?? null, r.month, r.count])).toEqual([
      [215, '2013-05', 2],
      [215, 'unknown', 1],
      [227, '2013-05', 1],
      [null, '2012-12', 1],
    ]);
    expect(c.rows.reduce((s, r) => s + r.count, 0)).toBe(c.total);
  });

  it('reads months from dates as people write them', () => {
    expect(monthOf('2013-05-02')).toBe('2013-05');
    expect(monthOf('2013')).toBe('unknown');
    expect(monthOf(null)).toBe('unknown');
  });
});
