// Subjects as CSV and JSON rows, for import and export. Untrusted input: imports are parsed and
// checked here; every problem is reported with its row (the header being row 1 in CSV, the first
// object row 1 in JSON), column and reason. Exports go through core/csv, which neutralises
// formula injection (a cell starting with = + - @ is prefixed so a spreadsheet shows it as text).
import { formatCsv, parseCsv } from '../../core/index.js';
import type { SubjectsTable } from '../../db/index.js';
import type { RowError } from '../units/unit-rows.js';
import { SubjectError, type SubjectInput } from './subjects.service.js';

export const SUBJECT_CSV_COLUMNS = ['number', 'scheme', 'sex', 'age_band', 'date_of_death', 'date_of_photography', 'notes', 'items', 'id', 'unit', 'status'] as const;
/** Written by export, ignored by import (derived or assigned by the archive). */
const EXPORT_ONLY = new Set(['id', 'unit', 'status']);

export interface SubjectRow {
  row: number;
  input: SubjectInput;
  items: string[];
}

export function parseSubjectsCsv(text: string): { rows: SubjectRow[]; errors: RowError[] } {
  const records = parseCsv(text.replace(/^\uFEFF/, ''), (m) => new SubjectError('SUBJECT_INVALID', `the CSV is malformed: ${m}`));
  const header = (records[0]?.cells ?? []).map((h) => h.trim().toLowerCase());
  const errors: RowError[] = [];
  for (const h of header)
    if (!(SUBJECT_CSV_COLUMNS as readonly string[]).includes(h))
      errors.push({ row: 1, column: h, reason: `unknown column (expected some of ${SUBJECT_CSV_COLUMNS.join(', ')})` });
  if (new Set(header).size !== header.length) errors.push({ row: 1, column: '*', reason: 'a column is named twice' });
  if (header.length === 0) errors.push({ row: 1, column: '*', reason: 'the CSV is empty: expected a header row' });
  if (errors.length > 0) return { rows: [], errors };
  const rows: SubjectRow[] = [];
  records.slice(1).forEach(({ cells }, i) => {
    const row = i + 2;
    if (cells.length !== header.length) {
      errors.push({ row, column: '*', reason: `${cells.length} columns where the header has ${header.length}` });
      return;
    }
    const get = (c: string): string | undefined => (header.includes(c) ? (cells[header.indexOf(c)] ?? '').trim() : undefined);
    rows.push(toRow(row, get));
  });
  return { rows, errors };
}

export function parseSubjectsJson(text: string): { rows: SubjectRow[]; errors: RowError[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SubjectError('SUBJECT_INVALID', `the JSON is malformed: ${(e as Error).message}`);
  }
  if (!Array.isArray(data)) throw new SubjectError('SUBJECT_INVALID', 'the JSON must be an array of subjects');
  const rows: SubjectRow[] = [];
  const errors: RowError[] = [];
  data.forEach((value: unknown, i) => {
    const row = i + 1;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      errors.push({ row, column: '*', reason: 'expected an object' });
      return;
    }
    const o = value as Record<string, unknown>;
    const unknown = Object.keys(o).filter((k) => !(SUBJECT_CSV_COLUMNS as readonly string[]).includes(k));
    for (const k of unknown) errors.push({ row, column: k, reason: 'unknown field' });
    const bad = Object.entries(o).filter(([k, v]) => k !== 'items' && v !== null && typeof v !== 'string');
    for (const [k] of bad) errors.push({ row, column: k, reason: 'expected text or null' });
    if (o.items !== undefined && !(Array.isArray(o.items) && o.items.every((x) => typeof x === 'string')))
      errors.push({ row, column: 'items', reason: 'expected a list of item ids' });
    if (unknown.length > 0 || bad.length > 0) return;
    const get = (c: string): string | undefined => {
      const v = o[c];
      if (c === 'items' && Array.isArray(v)) return v.join(';');
      return v === undefined ? undefined : ((v as string | null) ?? '');
    };
    rows.push(toRow(row, get));
  });
  return { rows, errors };
}

function toRow(row: number, get: (c: string) => string | undefined): SubjectRow {
  const opt = (c: string): string | null | undefined => {
    const v = get(c);
    return v === undefined ? undefined : v === '' ? null : v;
  };
  const input: SubjectInput = {};
  const map: [keyof SubjectInput, string][] = [
    ['number', 'number'],
    ['schemeId', 'scheme'],
    ['sex', 'sex'],
    ['ageBand', 'age_band'],
    ['dateOfDeath', 'date_of_death'],
    ['dateOfPhotography', 'date_of_photography'],
    ['notes', 'notes'],
  ];
  for (const [key, column] of map) {
    const v = opt(column);
    if (v !== undefined && !EXPORT_ONLY.has(column)) input[key] = v;
  }
  const items = (get('items') ?? '').split(';').map((s) => s.trim()).filter((s) => s !== '');
  return { row, input, items };
}

export interface SubjectExport {
  id: string;
  number: string | null;
  scheme: string | null;
  unit: string | null;
  sex: string | null;
  age_band: string | null;
  date_of_death: string | null;
  date_of_photography: string | null;
  notes: string | null;
  items: string[];
  status: string;
}

export function subjectsForExport(subjects: readonly SubjectsTable[], itemsOf: ReadonlyMap<string, string[]>): SubjectExport[] {
  return subjects.map((s) => ({
    id: s.id,
    number: s.number_raw,
    scheme: s.scheme_id,
    unit: s.unit_id,
    sex: s.sex,
    age_band: s.age_band,
    date_of_death: s.date_of_death,
    date_of_photography: s.date_of_photography,
    notes: s.notes,
    items: itemsOf.get(s.id) ?? [],
    status: s.status,
  }));
}

/** CSV with the import's columns, so an export re-imports (id, unit and status are ignored). */
export function subjectsCsv(rows: readonly SubjectExport[]): string {
  const columns = ['id', 'number', 'scheme', 'unit', 'sex', 'age_band', 'date_of_death', 'date_of_photography', 'notes', 'items', 'status'] as const;
  return formatCsv([columns, ...rows.map((r) => columns.map((c) => (c === 'items' ? r.items.join(';') : r[c])))]);
}
