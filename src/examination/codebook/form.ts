// An examiner's answer for one person, checked against a codebook. Untrusted input: forms arrive
// as JSON typed or edited by people, through the CLI and the API, and are validated here.
import { IssueList, isRecord, joinPath, rejectUnknownKeys } from './errors.js';
import { AGE_BANDS, FINDING_VALUES, SEXES, type AgeBand, type Codebook } from './types.js';
import type { FindingValue, Sex } from './types.js';

export interface FindingAnswer {
  readonly value: FindingValue;
  /** Only on a 'present' answer to a regional finding: at least one region, sorted, no repeats. */
  readonly regions?: readonly string[];
}

/**
 * One examiner's answer in canonical form: every finding of the codebook answered, regions
 * sorted, no undefined members, so the same answer always canonicalizes (RFC 8785) to the same
 * bytes and therefore to the same commitment.
 */
export interface ExaminationAnswer {
  readonly sex: Sex;
  readonly age_band: AgeBand;
  readonly findings: Readonly<Record<string, FindingAnswer>>;
  /** Free text, not compared between examiners; left out when empty. */
  readonly notes?: string;
}

/** The template `custody examine` prints: nulls where the examiner must answer. */
export interface BlankForm {
  sex: null;
  age_band: null;
  findings: Record<string, { value: null; regions?: string[] }>;
  notes: string;
}

const TOP_KEYS = ['sex', 'age_band', 'findings', 'notes'];
const MAX_NOTES_LENGTH = 20_000;

/**
 * Validates an examiner's form against `codebook` and returns it in canonical form. Every
 * problem is listed at once (ExaminationError 'FORM_INVALID', `details.errors` as
 * `{ path, message }`), e.g. `findings.burns.value: expected present|absent|cannot_assess`.
 *
 * @example
 *   parseExaminationForm(cb, { sex: 'male', age_band: '30-39', findings: { … } })
 */
export function parseExaminationForm(codebook: Codebook, input: unknown): ExaminationAnswer {
  const issues = new IssueList();
  if (!isRecord(input)) {
    issues.add('(root)', 'expected an object with sex, age_band, findings and notes');
    issues.throwIfAny('FORM_INVALID', 'invalid examination form');
  }
  const form = input as Record<string, unknown>;
  rejectUnknownKeys(form, TOP_KEYS, '', issues);
  const sex = readChoice(form.sex, 'sex', SEXES, issues);
  const ageBand = readChoice(form.age_band, 'age_band', AGE_BANDS, issues);
  const findings = readFindings(codebook, form.findings, issues);
  const notes = readNotes(form.notes, issues);
  issues.throwIfAny('FORM_INVALID', 'invalid examination form');
  // No issues, so every reader above returned a value.
  const answer: ExaminationAnswer = { sex: sex as Sex, age_band: ageBand as AgeBand, findings };
  return notes === '' ? answer : { ...answer, notes };
}

/**
 * A blank form for `codebook`, in codebook order: `null` for every answer, an empty region list
 * for the findings that take regions. Parsing it unchanged lists every field still to fill in.
 */
export function blankForm(codebook: Codebook): BlankForm {
  const findings: BlankForm['findings'] = {};
  for (const f of codebook.findings) {
    findings[f.code] = f.regional ? { value: null, regions: [] } : { value: null };
  }
  return { sex: null, age_band: null, findings, notes: '' };
}

function readChoice<T extends string>(
  value: unknown,
  path: string,
  choices: readonly T[],
  issues: IssueList,
): T | undefined {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value))
    return value as T;
  issues.add(path, `expected ${choices.join('|')}`);
  return undefined;
}

function readNotes(value: unknown, issues: IssueList): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') {
    issues.add('notes', 'expected a string');
    return '';
  }
  if (value.length > MAX_NOTES_LENGTH)
    issues.add('notes', `longer than ${MAX_NOTES_LENGTH} characters`);
  return value;
}

function readFindings(
  codebook: Codebook,
  value: unknown,
  issues: IssueList,
): Record<string, FindingAnswer> {
  const out: Record<string, FindingAnswer> = {};
  if (!isRecord(value)) {
    issues.add('findings', 'expected an object keyed by finding code');
    return out;
  }
  const known = new Set(codebook.findings.map((f) => f.code));
  for (const key of Object.keys(value)) {
    if (!known.has(key)) {
      issues.add(joinPath('findings', key), `unknown finding code (codebook ${codebook.version})`);
    }
  }
  for (const finding of codebook.findings) {
    const path = joinPath('findings', finding.code);
    if (!Object.hasOwn(value, finding.code)) {
      issues.add(path, 'missing: every finding must be answered');
      continue;
    }
    const answer = readFinding(codebook, finding, value[finding.code], path, issues);
    if (answer !== undefined) out[finding.code] = answer;
  }
  return out;
}

function readFinding(
  codebook: Codebook,
  finding: Codebook['findings'][number],
  entry: unknown,
  path: string,
  issues: IssueList,
): FindingAnswer | undefined {
  if (!isRecord(entry)) {
    issues.add(path, 'expected { value, regions? }');
    return undefined;
  }
  rejectUnknownKeys(entry, ['value', 'regions'], path, issues);
  const value = readChoice(entry.value, joinPath(path, 'value'), FINDING_VALUES, issues);
  const regionsPath = joinPath(path, 'regions');
  if (!finding.regional) {
    if (entry.regions !== undefined) issues.add(regionsPath, 'this finding takes no regions');
    return value === undefined ? undefined : { value };
  }
  const regions = readRegions(codebook, entry.regions, regionsPath, issues);
  if (value === undefined || regions === undefined) return undefined;
  if (value !== 'present') {
    if (regions.length > 0)
      issues.add(regionsPath, 'regions are recorded only when the finding is present');
    return { value };
  }
  if (regions.length === 0)
    issues.add(regionsPath, 'list at least one region where the finding is seen');
  return { value, regions };
}

/** The region list, sorted (code-point order), or undefined after reporting a problem. */
function readRegions(
  codebook: Codebook,
  value: unknown,
  path: string,
  issues: IssueList,
): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    issues.add(path, 'expected a list of region codes');
    return undefined;
  }
  const known = codebook.regions.map((r) => r.code);
  const seen = new Set<string>();
  let ok = true;
  value.forEach((region: unknown, i) => {
    const at = `${path}[${i}]`;
    if (typeof region !== 'string' || !known.includes(region)) {
      issues.add(at, `unknown region ${JSON.stringify(region)} (expected ${known.join('|')})`);
      ok = false;
    } else if (seen.has(region)) {
      issues.add(at, `'${region}' is listed twice`);
      ok = false;
    } else {
      seen.add(region);
    }
  });
  return ok ? [...seen].sort() : undefined;
}
