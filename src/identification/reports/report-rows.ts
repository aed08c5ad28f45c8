// Missing-person reports as CSV or JSON rows, for import. Untrusted input, parsed here with the
// same row and column errors as `custody subject import` (catalogue/subjects/subject-rows.ts):
// in CSV the header is row 1, in JSON the first object is row 1. Values stay as given (text, or
// JSON lists for marks and consent_orgs); report-content.ts checks each field.
import { parseCsv } from '../../core/index.js';
import type { RowError } from '../../catalogue/units/index.js';
import { IdentificationError } from '../errors.js';
import { REPORT_COLUMNS } from './report-content.js';

export interface ReportRow {
  row: number;
  input: Record<string, unknown>;
}

export function parseReportsCsv(text: string): { rows: ReportRow[]; errors: RowError[] } {
  const records = parseCsv(text.replace(/^\uFEFF/, ''), (m) => new IdentificationError('MISSING_REPORT_INVALID', `the CSV is malformed: ${m}`));
  const header = (records[0]?.cells ?? []).map((h) => h.trim().toLowerCase());
  const errors: RowError[] = [];
  for (const h of header)
    if (!REPORT_COLUMNS.includes(h)) errors.push({ row: 1, column: h, reason: `unknown column (expected some of ${REPORT_COLUMNS.join(', ')})` });
  if (new Set(header).size !== header.length) errors.push({ row: 1, column: '*', reason: 'a column is named twice' });
  if (header.length === 0) errors.push({ row: 1, column: '*', reason: 'the CSV is empty: expected a header row' });
  if (errors.length > 0) return { rows: [], errors };
  const rows: ReportRow[] = [];
  records.slice(1).forEach(({ cells }, i) => {
    const row = i + 2;
    if (cells.length === 1 && cells[0]?.trim() === '') return; // a blank line
    if (cells.length !== header.length) {
      errors.push({ row, column: '*', reason: `${cells.length} columns where the header has ${header.length}` });
      return;
    }
    rows.push({ row, input: Object.fromEntries(header.map((h, j) => [h, cells[j] ?? ''])) });
  });
  if (rows.length === 0 && errors.length === 0) errors.push({ row: 2, column: '*', reason: 'no reports: the CSV has a header only' });
  return { rows, errors };
}

export function parseReportsJson(text: string): { rows: ReportRow[]; errors: RowError[] } {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new IdentificationError('MISSING_REPORT_INVALID', `the JSON is malformed: ${(e as Error).message}`);
  }
  if (!Array.isArray(data)) throw new IdentificationError('MISSING_REPORT_INVALID', 'the JSON must be an array of reports');
  const rows: ReportRow[] = [];
  const errors: RowError[] = [];
  data.forEach((value: unknown, i) => {
    const row = i + 1;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      errors.push({ row, column: '*', reason: 'expected an object' });
      return;
    }
    const o = value as Record<string, unknown>;
    const unknown = Object.keys(o).filter((k) => !REPORT_COLUMNS.includes(k));
    for (const k of unknown) errors.push({ row, column: k, reason: 'unknown field' });
    if (unknown.length === 0) rows.push({ row, input: o });
  });
  if (data.length === 0) errors.push({ row: 1, column: '*', reason: 'no reports: the array is empty' });
  return { rows, errors };
}
