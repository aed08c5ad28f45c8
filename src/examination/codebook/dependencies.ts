// The form's dependency rules: which fields follow from another field's value. Today one rule:
// a regional finding's regions depend on its value (listed when 'present', empty otherwise), as
// parseExaminationForm enforces. Adjudication uses these rules to let a decision carry the fields
// that follow from it.
import type { Codebook, FindingValue } from './types.js';

/**
 * The fields that depend on `field` (flattened names as in adjudication: 'findings.<code>.value',
 * 'findings.<code>.regions').
 *
 * @example
 *   dependentFields(cb, 'findings.burns.value') // ['findings.burns.regions'] when burns is regional
 */
export function dependentFields(codebook: Codebook, field: string): string[] {
  const m = /^findings\.(.+)\.value$/.exec(field);
  const finding = m === null ? undefined : codebook.findings.find((f) => f.code === m[1]);
  return finding?.regional === true ? [`findings.${finding.code}.regions`] : [];
}

/**
 * The value a dependent field must take given the value of the field it depends on, or undefined
 * when it must be given (regions of a 'present' finding: at least one region).
 */
export function impliedValue(dependent: string, value: string): string | undefined {
  if (/^findings\..+\.regions$/.test(dependent)) return value === ('present' satisfies FindingValue) ? undefined : '';
  return undefined;
}
