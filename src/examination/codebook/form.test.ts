import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../core/index.js';
import {
  DEFAULT_CODEBOOK,
  ExaminationError,
  blankForm,
  parseExaminationForm,
  type Issue,
} from './index.js';

const CODES = DEFAULT_CODEBOOK.findings.map((f) => f.code);

/** A complete, valid form: everything absent except what `findings` overrides. */
function form(findings: Record<string, unknown> = {}, rest: Record<string, unknown> = {}) {
  const all: Record<string, unknown> = {};
  for (const code of CODES) all[code] = { value: 'absent' };
  return { sex: 'male', age_band: '30-39', findings: { ...all, ...findings }, ...rest };
}

function issuesOf(input: unknown): Issue[] {
  try {
    parseExaminationForm(DEFAULT_CODEBOOK, input);
  } catch (e) {
    expect(e).toBeInstanceOf(ExaminationError);
    expect((e as ExaminationError).code).toBe('FORM_INVALID');
    return (e as ExaminationError).details.errors as Issue[];
  }
  throw new Error('expected FORM_INVALID');
}

const lines = (input: unknown) => issuesOf(input).map((i) => `${i.path}: ${i.message}`);

describe('parseExaminationForm', () => {
  it('accepts a complete form and returns it in canonical form', () => {
    const answer = parseExaminationForm(
      DEFAULT_CODEBOOK,
      form({ burns: { value: 'present', regions: ['chest', 'back'] } }, { notes: 'two burns' }),
    );
    expect(answer.findings.burns).toEqual({ value: 'present', regions: ['back', 'chest'] });
    expect(answer.findings.emaciation).toEqual({ value: 'absent' });
    expect(answer.notes).toBe('two burns');
    expect(Object.keys(answer.findings)).toEqual(CODES);
  });

  it('canonicalizes differently ordered inputs to the same bytes', () => {
    const a = form({ gunshot_wound: { value: 'present', regions: ['head', 'chest', 'back'] } });
    const reversed = Object.fromEntries(Object.entries(a.findings).reverse());
    const b = {
      findings: {
        ...reversed,
        gunshot_wound: { regions: ['back', 'head', 'chest'], value: 'present' },
      },
      age_band: '30-39',
      sex: 'male',
    };
    const pa = parseExaminationForm(DEFAULT_CODEBOOK, a);
    const pb = parseExaminationForm(DEFAULT_CODEBOOK, b);
    expect(canonicalize(pa)).toBe(canonicalize(pb));
    expect(pa).toEqual(pb);
  });

  it('drops empty notes and empty region lists, so they do not change the bytes', () => {
    const plain = parseExaminationForm(DEFAULT_CODEBOOK, form());
    const padded = parseExaminationForm(
      DEFAULT_CODEBOOK,
      form({ burns: { value: 'absent', regions: [] } }, { notes: '' }),
    );
    expect(canonicalize(padded)).toBe(canonicalize(plain));
    expect('notes' in padded).toBe(false);
    expect('regions' in (padded.findings.burns ?? {})).toBe(false);
  });

  it('lists every error at once, each with its path', () => {
    const input = {
      sex: 'man',
      age_band: 35,
      findings: {
        ...form().findings,
        burns: { value: 'yes' },
        emaciation: { value: 'present', regions: ['chest'] },
        gunshot_wound: { value: 'absent', regions: ['head'] },
        sharp_force_injury: { value: 'present' },
        blunt_force_injury: { value: 'present', regions: ['head', 'elbow', 'head'] },
        restraint_marks: 'present',
        decomposition: undefined,
        bruises: { value: 'present' },
      },
      notes: 3,
      examiner: 'A',
    };
    delete (input.findings as Record<string, unknown>).eye_injury;
    expect(lines(input)).toEqual([
      'examiner: unknown key (expected sex, age_band, findings, notes)',
      'sex: expected male|female|undetermined',
      'age_band: expected <18|18-29|30-39|40-49|50-59|60+|undetermined',
      'findings.bruises: unknown finding code (codebook custody-forensic-v2)',
      'findings.emaciation.regions: this finding takes no regions',
      'findings.blunt_force_injury.regions[1]: unknown region "elbow" (expected ' +
        DEFAULT_CODEBOOK.regions.map((r) => r.code).join('|') +
        ')',
      "findings.blunt_force_injury.regions[2]: 'head' is listed twice",
      'findings.burns.value: expected present|absent|cannot_assess',
      'findings.gunshot_wound.regions: regions are recorded only when the finding is present',
      'findings.sharp_force_injury.regions: list at least one region where the finding is seen',
      'findings.eye_injury: missing: every finding must be answered',
      'findings.restraint_marks: expected { value, regions? }',
      'findings.decomposition: expected { value, regions? }',
      'notes: expected a string',
    ]);
  });

  it('refuses a form that is not an object, or findings that are not one', () => {
    expect(lines('{}')).toEqual([
      '(root): expected an object with sex, age_band, findings and notes',
    ]);
    expect(lines({ sex: 'female', age_band: '<18', findings: [] })).toEqual([
      'findings: expected an object keyed by finding code',
    ]);
  });

  it('refuses regions that are not a list, and hostile keys', () => {
    const input = JSON.parse(
      JSON.stringify(form({ burns: { value: 'present', regions: 'chest' } })).replace(
        '"findings":{',
        '"findings":{"__proto__":{"value":"present"},',
      ),
    ) as unknown;
    expect(lines(input)).toEqual([
      'findings.__proto__: unknown finding code (codebook custody-forensic-v2)',
      'findings.burns.regions: expected a list of region codes',
    ]);
  });
});

describe('blankForm', () => {
  it('is a template with nulls to fill in, regions only where they apply', () => {
    const blank = blankForm(DEFAULT_CODEBOOK);
    expect(Object.keys(blank.findings)).toEqual(CODES);
    expect(blank.findings.burns).toEqual({ value: null, regions: [] });
    expect(blank.findings.emaciation).toEqual({ value: null });
    expect(blank.sex).toBeNull();
  });

  it('lists every field still to answer when parsed unchanged', () => {
    const issues = issuesOf(JSON.parse(JSON.stringify(blankForm(DEFAULT_CODEBOOK))));
    expect(issues.map((i) => i.path)).toEqual([
      'sex',
      'age_band',
      ...CODES.map((c) => `findings.${c}.value`),
    ]);
  });

  it('parses once filled in', () => {
    const filled = blankForm(DEFAULT_CODEBOOK);
    Object.assign(filled, { sex: 'undetermined', age_band: 'undetermined' });
    for (const entry of Object.values(filled.findings)) {
      Object.assign(entry, { value: 'cannot_assess' });
    }
    const answer = parseExaminationForm(DEFAULT_CODEBOOK, filled);
    expect(answer.findings.burns).toEqual({ value: 'cannot_assess' });
  });
});
