// An AM or PM record checked against the identification codebook. Untrusted input (a family's
// CSV, a JSON file, `--set field=value`): every problem is returned with the field it is about,
// so that an import can name row and column.
import type { JsonValue } from '../../core/index.js';
import { IDENTIFICATION_CODEBOOK, type IdentificationCodebook, type IdentificationField, type Side } from './identification-codebook.js';

export interface Mark {
  region: string;
  kind: string;
  description: string | null;
}

export interface FieldIssue {
  column: string;
  reason: string;
}

/** An AM or PM record as stored: only the fields given, each valid for its side. */
export type IdentificationRecord = { [field: string]: JsonValue };

const MAX_TEXT = 2000;
const MAX_MARKS = 50;

/** The fields a side's form asks, in codebook order. */
export function fieldsOf(side: Side, codebook: IdentificationCodebook = IDENTIFICATION_CODEBOOK): IdentificationField[] {
  return codebook.fields.filter((f) => f.sides.includes(side));
}

/**
 * Checks each given field of `input` for `side`. A value of null or '' means "not known" and is
 * left out of the record (`cleared` lists it, so a PM update can remove a field).
 *
 * @example
 *   parseIdentificationRecord('pm', { build: 'slight', marks: 'face:scar:left cheek' }).record
 *   // { build: 'slight', marks: [{ region: 'face', kind: 'scar', description: 'left cheek' }] }
 */
export function parseIdentificationRecord(
  side: Side,
  input: Readonly<Record<string, unknown>>,
  codebook: IdentificationCodebook = IDENTIFICATION_CODEBOOK,
): { record: IdentificationRecord; cleared: string[]; issues: FieldIssue[] } {
  const fields = new Map(fieldsOf(side, codebook).map((f) => [f.code, f]));
  const record: IdentificationRecord = {};
  const cleared: string[] = [];
  const issues: FieldIssue[] = [];
  for (const [column, value] of Object.entries(input)) {
    const field = fields.get(column);
    if (field === undefined) {
      issues.push({ column, reason: `not a ${side.toUpperCase()} field (expected some of ${[...fields.keys()].join(', ')})` });
      continue;
    }
    if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
      cleared.push(column);
      continue;
    }
    const r = parseField(field, value, codebook);
    if ('reason' in r) issues.push({ column, reason: r.reason });
    else record[column] = r.value;
  }
  return { record, cleared, issues };
}

function parseField(field: IdentificationField, value: unknown, codebook: IdentificationCodebook): { value: JsonValue } | { reason: string } {
  switch (field.type) {
    case 'integer': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : NaN;
      if (!Number.isSafeInteger(n) || n < (field.min ?? 0) || n > (field.max ?? Number.MAX_SAFE_INTEGER))
        return { reason: `expected a whole number from ${field.min ?? 0} to ${field.max ?? '∞'}` };
      return { value: n };
    }
    case 'term': {
      const terms = codebook[field.vocabulary ?? 'builds'].map((x) => x.code);
      const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
      if (!terms.includes(v)) return { reason: `expected one of ${terms.join(', ')}` };
      return { value: v };
    }
    case 'text': {
      if (typeof value !== 'string') return { reason: 'expected text' };
      const v = value.trim().normalize('NFC');
      if ([...v].length > MAX_TEXT) return { reason: `at most ${MAX_TEXT} characters` };
      return { value: v };
    }
    case 'marks': {
      const marks = parseMarks(value, codebook);
      if (typeof marks === 'string') return { reason: marks };
      return { value: marks as unknown as JsonValue };
    }
  }
}

/** Marks as `region:kind[:description]`, several separated by ';', or a JSON list of those or of objects. */
export function parseMarks(value: unknown, codebook: IdentificationCodebook = IDENTIFICATION_CODEBOOK): Mark[] | string {
  const parts: unknown[] = typeof value === 'string' ? value.split(';').filter((s) => s.trim() !== '') : Array.isArray(value) ? value : [value];
  if (parts.length > MAX_MARKS) return `at most ${MAX_MARKS} marks`;
  const regions = codebook.regions.map((r) => r.code);
  const kinds = codebook.markKinds.map((k) => k.code);
  const out: Mark[] = [];
  for (const p of parts) {
    let region: unknown;
    let kind: unknown;
    let description: unknown = null;
    if (typeof p === 'string') {
      const [r, k, ...rest] = p.split(':');
      region = r;
      kind = k;
      description = rest.length > 0 ? rest.join(':') : null;
    } else if (p !== null && typeof p === 'object' && !Array.isArray(p)) {
      ({ region, kind, description = null } = p as Record<string, unknown>);
      const extra = Object.keys(p).filter((k) => !['region', 'kind', 'description'].includes(k));
      if (extra.length > 0) return `a mark has region, kind and description only, not ${extra.join(', ')}`;
    } else return 'expected marks as region:kind[:description]';
    const reg = typeof region === 'string' ? region.trim().toLowerCase() : '';
    const kin = typeof kind === 'string' ? kind.trim().toLowerCase() : '';
    if (!regions.includes(reg)) return `mark region ${JSON.stringify(region ?? '')} is not one of ${regions.join(', ')}`;
    if (!kinds.includes(kin)) return `mark kind ${JSON.stringify(kind ?? '')} is not one of ${kinds.join(', ')}`;
    if (description !== null && typeof description !== 'string') return 'a mark description is text';
    const d = typeof description === 'string' ? description.trim().normalize('NFC') : '';
    if ([...d].length > 500) return 'a mark description has at most 500 characters';
    out.push({ region: reg, kind: kin, description: d === '' ? null : d });
  }
  return out;
}
