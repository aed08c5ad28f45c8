// How the adjudicator's page names an answer's fields and values: by the codebook's labels, not
// by the codes the adjudication uses ('findings.<code>.value', 'age_band', '30-39'). The field
// names that are not codebook terms (sex, age band, "where is … seen?") come from the page's
// strings, in its language; the codebook's own labels are in the language it was written in.
import type { Codebook, Term } from './types';

export interface FieldStrings {
  sex: string;
  ageBand: string;
  /** The regions field of a finding, given the finding's label. */
  regions(finding: string): string;
}

const FINDING_FIELD = /^findings\.([^.]+)\.(value|regions)$/;

function labelIn(terms: readonly Term[] | undefined, code: string): string {
  return terms?.find((t) => t.code === code)?.label ?? code;
}

/**
 * The label of a field, or the field itself when the codebook does not name it.
 *
 * @example
 *   fieldLabel('findings.burns.value', codebook, strings)   // 'Burns'
 *   fieldLabel('findings.burns.regions', codebook, strings) // 'Where is “Burns” seen?'
 */
export function fieldLabel(field: string, cb: Codebook | undefined, s: FieldStrings): string {
  if (field === 'sex') return s.sex;
  if (field === 'age_band') return s.ageBand;
  const m = FINDING_FIELD.exec(field);
  if (m === null) return field;
  const finding = labelIn(cb?.findings, m[1] ?? '');
  return m[2] === 'regions' ? s.regions(finding) : finding;
}

/**
 * The label of a value of `field` in the codebook's scale for it (a finding's values, sexes, age
 * bands, regions, comma-separated), or the value itself when the codebook has no such term.
 *
 * @example
 *   valueLabel('age_band', '30-39', codebook)                    // '30 to 39'
 *   valueLabel('findings.burns.regions', 'chest,back', codebook) // 'Chest, Back'
 */
export function valueLabel(field: string, value: string, cb: Codebook | undefined): string {
  if (value === '') return '';
  if (field === 'sex') return labelIn(cb?.sexes, value);
  if (field === 'age_band') return labelIn(cb?.ageBands, value);
  const m = FINDING_FIELD.exec(field);
  if (m === null) return value;
  if (m[2] === 'value') return labelIn(cb?.values, value);
  return value
    .split(',')
    .filter((r) => r !== '')
    .map((r) => labelIn(cb?.regions, r))
    .join(', ');
}
