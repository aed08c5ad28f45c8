import { parseCsv, CustodyError } from '../../core/index.js';
import { cleanNumberText, toWesternDigits } from '../numbering/text.js';
import type { UnitCode } from './registry.js';

export type UnitErrorCode =
  | 'UNIT_IMPORT_REJECTED'
  | 'UNIT_INVALID'
  | 'UNIT_NOT_FOUND'
  | 'UNIT_AMBIGUOUS'
  | 'UNIT_DUPLICATE_NAME'
  | 'UNIT_RETIRED'
  | 'UNIT_REASON_REQUIRED';
export class UnitError extends CustodyError<UnitErrorCode> {}

/** One unit as an import or a command gives it. */
export interface UnitInput {
  code: UnitCode | null;
  name_en: string;
  name_ar: string | null;
  aliases: string[];
  parent_code: UnitCode | null;
}

export interface RowError {
  row: number;
  column: string;
  reason: string;
}

/** Accepted columns; `id` (written by `unit export`) is accepted and ignored, so an export re-imports. */
export const UNIT_CSV_COLUMNS = [
  'code',
  'name_en',
  'name_ar',
  'aliases',
  'parent_code',
  'id',
] as const;

/**
 * Units from CSV (untrusted input, parsed here): a header naming the columns code, name_en,
 * name_ar, aliases (separated by ';') and parent_code, in any order; name_en is required. Every
 * problem is reported with its row (as a spreadsheet numbers it, the header being row 1), column
 * and reason; rows without problems come back too, so a caller can import only those.
 */
export function parseUnitsCsv(text: string): {
  units: { row: number; unit: UnitInput }[];
  errors: RowError[];
} {
  const records = parseCsv(
    text.replace(/^\uFEFF/, ''),
    (m) => new UnitError('UNIT_INVALID', `the CSV is malformed: ${m}`),
  );
  const header = (records[0]?.cells ?? []).map((h) => h.trim().toLowerCase());
  const errors: RowError[] = [];
  for (const h of header)
    if (!(UNIT_CSV_COLUMNS as readonly string[]).includes(h))
      errors.push({
        row: 1,
        column: h,
        reason: `unknown column (expected ${UNIT_CSV_COLUMNS.join(', ')})`,
      });
  if (!header.includes('name_en'))
    errors.push({ row: 1, column: 'name_en', reason: 'the name_en column is required' });
  if (errors.length > 0) return { units: [], errors };
  const units: { row: number; unit: UnitInput }[] = [];
  records.slice(1).forEach(({ cells }, i) => {
    const row = i + 2;
    if (cells.length !== header.length) {
      errors.push({
        row,
        column: '*',
        reason: `${cells.length} columns where the header has ${header.length}`,
      });
      return;
    }
    const get = (c: string): string => (cells[header.indexOf(c)] ?? '').trim();
    const parsed = validateUnit(
      {
        code: get('code'),
        name_en: get('name_en'),
        name_ar: get('name_ar'),
        aliases: get('aliases'),
        parent_code: get('parent_code'),
      },
      row,
    );
    if ('errors' in parsed) errors.push(...parsed.errors);
    else units.push({ row, unit: parsed.unit });
  });
  return { units, errors };
}

/** Units from JSON: an array of objects with the same fields (aliases as an array). */
export function parseUnitsJson(text: string): {
  units: { row: number; unit: UnitInput }[];
  errors: RowError[];
} {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UnitError('UNIT_INVALID', `the JSON is malformed: ${(e as Error).message}`);
  }
  if (!Array.isArray(data))
    throw new UnitError('UNIT_INVALID', 'the JSON must be an array of units');
  const units: { row: number; unit: UnitInput }[] = [];
  const errors: RowError[] = [];
  data.forEach((item: unknown, i) => {
    const o = (item !== null && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const text = (v: unknown): string =>
      typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
    const aliases = Array.isArray(o.aliases) ? o.aliases.map(text).join(';') : text(o.aliases);
    const parsed = validateUnit(
      {
        code: text(o.code),
        name_en: text(o.name_en),
        name_ar: text(o.name_ar),
        aliases,
        parent_code: text(o.parent_code),
      },
      i + 1,
    );
    if ('errors' in parsed) errors.push(...parsed.errors);
    else units.push({ row: i + 1, unit: parsed.unit });
  });
  return { units, errors };
}

const CODE_RE = /^\d{1,9}$/;
/** A text code sits inside catalogue numbers, so it has no spaces and no separators. */
const TEXT_CODE_RE = /^[\p{L}\p{M}\p{Nd}_]{1,64}$/u;

/** Checks one unit's fields as text; every problem of the row is listed. */
export function validateUnit(
  raw: { code: string; name_en: string; name_ar: string; aliases: string; parent_code: string },
  row: number,
): { unit: UnitInput } | { errors: RowError[] } {
  const errors: RowError[] = [];
  const code = toCode(raw.code, 'code', row, errors);
  const parent = toCode(raw.parent_code, 'parent_code', row, errors);
  const nameEn = raw.name_en.normalize('NFC').trim();
  if (nameEn === '') errors.push({ row, column: 'name_en', reason: 'an English name is required' });
  if (nameEn.length > 300)
    errors.push({ row, column: 'name_en', reason: 'longer than 300 characters' });
  const nameAr = raw.name_ar.normalize('NFC').trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f]/.test(nameEn + nameAr + raw.aliases))
    errors.push({ row, column: 'name_en', reason: 'control characters are not allowed' });
  if (code !== null && parent !== null && String(code).toLowerCase() === String(parent).toLowerCase())
    errors.push({ row, column: 'parent_code', reason: 'a unit cannot be its own parent' });
  const aliases = [
    ...new Set(
      raw.aliases
        .split(';')
        .map((a) => a.normalize('NFC').trim())
        .filter((a) => a !== ''),
    ),
  ].sort();
  if (errors.length > 0) return { errors };
  return {
    unit: {
      code,
      name_en: nameEn,
      name_ar: nameAr === '' ? null : nameAr,
      aliases,
      parent_code: parent,
    },
  };
}

/**
 * A code as typed: all digits (Western, Arabic-Indic or Eastern Arabic-Indic) is a number of at
 * most 9 digits; anything else is a text code of letters, digits and '_' ("AFI", "جوية").
 */
export function parseUnitCode(text: string): UnitCode | null | { error: string } {
  const t = cleanNumberText(text);
  if (t === '') return null;
  const western = toWesternDigits(t).text;
  if (/^\d+$/.test(western))
    return CODE_RE.test(western)
      ? Number(western)
      : { error: `"${t.slice(0, 40)}" is not a whole number of at most 9 digits` };
  if (!TEXT_CODE_RE.test(t))
    return {
      error: `"${t.slice(0, 40)}" is not a unit code: a number, or up to 64 letters and digits without spaces or separators`,
    };
  return t;
}

function toCode(text: string, column: string, row: number, errors: RowError[]): UnitCode | null {
  const code = parseUnitCode(text);
  if (code !== null && typeof code === 'object') {
    errors.push({ row, column, reason: code.error });
    return null;
  }
  return code;
}
