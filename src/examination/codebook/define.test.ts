import { describe, expect, it } from 'vitest';
import { hasCode } from '../../core/index.js';
import {
  DEFAULT_CODEBOOK,
  ExaminationError,
  codebookDigest,
  defineCodebook,
  type Issue,
} from './index.js';

function custom(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 'unit-7-v2',
    title: 'Unit 7 review',
    instructions: 'Record what is visible.',
    regions: [{ code: 'head', label: 'Head', definition: 'Above the neck.' }],
    findings: [
      { code: 'burns', label: 'Burns', definition: 'Thermal injury.', regional: true },
      { code: 'emaciation', label: 'Emaciation', definition: 'Marked wasting.', regional: false },
    ],
    ...overrides,
  };
}

/** The issues of the CODEBOOK_INVALID error `fn` throws. */
function issuesOf(fn: () => unknown): Issue[] {
  try {
    fn();
  } catch (e) {
    expect(hasCode(e, 'CODEBOOK_INVALID')).toBe(true);
    const err = e as ExaminationError;
    const issues = err.details.errors as Issue[];
    expect(err.details.path).toBe(issues[0]?.path);
    return issues;
  }
  throw new Error('expected CODEBOOK_INVALID');
}

const paths = (fn: () => unknown) => issuesOf(fn).map((i) => i.path);

describe('defineCodebook', () => {
  it('accepts a custom codebook and fills in the fixed scales', () => {
    const cb = defineCodebook(custom());
    expect(cb.findings.map((f) => f.code)).toEqual(['burns', 'emaciation']);
    expect(cb.values).toEqual(DEFAULT_CODEBOOK.values);
    expect(cb.ageBands).toEqual(DEFAULT_CODEBOOK.ageBands);
    expect(codebookDigest(cb)).toMatch(/^[0-9a-f]{64}$/);
    expect(codebookDigest(cb)).not.toBe(codebookDigest(DEFAULT_CODEBOOK));
    expect(Object.isFrozen(cb.findings)).toBe(true);
  });

  it('refuses what is not an object', () => {
    expect(paths(() => defineCodebook(null))).toEqual(['(root)']);
    expect(paths(() => defineCodebook([]))).toEqual(['(root)']);
  });

  it('refuses duplicate codes, naming both places', () => {
    const findings = [
      { code: 'burns', label: 'Burns', definition: 'x', regional: false },
      { code: 'burns', label: 'Burns again', definition: 'y', regional: false },
    ];
    const [issue] = issuesOf(() => defineCodebook(custom({ findings })));
    expect(issue).toEqual({
      path: 'findings[1].code',
      message: "duplicate code 'burns' (also findings[0])",
    });
    const regions = [
      { code: 'head', label: 'Head', definition: 'x' },
      { code: 'head', label: 'Head', definition: 'x' },
    ];
    expect(paths(() => defineCodebook(custom({ regions })))).toEqual(['regions[1].code']);
  });

  it('refuses a missing or malformed version', () => {
    expect(paths(() => defineCodebook(custom({ version: undefined })))).toEqual(['version']);
    expect(paths(() => defineCodebook(custom({ version: 'has space' })))).toEqual(['version']);
    expect(paths(() => defineCodebook(custom({ version: '' })))).toEqual(['version']);
  });

  it('refuses empty, blank or multi-line definitions and labels', () => {
    const findings = [
      { code: 'burns', label: '', definition: '   ', regional: false },
      { code: 'cuts', label: 'Cuts', definition: 'one\ntwo', regional: false },
    ];
    expect(paths(() => defineCodebook(custom({ findings })))).toEqual([
      'findings[0].label',
      'findings[0].definition',
      'findings[1].definition',
    ]);
  });

  it('refuses bad codes, a missing regional flag and unknown keys', () => {
    const findings = [
      { code: 'Burns', label: 'Burns', definition: 'x', regional: false },
      { code: 'cuts', label: 'Cuts', definition: 'x' },
      { code: 'bites', label: 'Bites', definition: 'x', regional: false, colour: 'red' },
    ];
    expect(paths(() => defineCodebook(custom({ findings, extra: 1 })))).toEqual([
      'extra',
      'findings[0].code',
      'findings[1].regional',
      'findings[2].colour',
    ]);
  });

  it('needs findings, and regions when a finding takes them', () => {
    expect(paths(() => defineCodebook(custom({ findings: [] })))).toEqual(['findings']);
    expect(paths(() => defineCodebook(custom({ findings: 'burns' })))).toEqual(['findings']);
    expect(paths(() => defineCodebook(custom({ regions: [] })))).toEqual(['regions']);
    const noRegional = [{ code: 'burns', label: 'Burns', definition: 'x', regional: false }];
    expect(defineCodebook(custom({ regions: [], findings: noRegional })).regions).toEqual([]);
  });

  it('insists on the fixed scales, in their order', () => {
    const ageBands = [...DEFAULT_CODEBOOK.ageBands].reverse();
    const [issue] = issuesOf(() => defineCodebook(custom({ ageBands })));
    expect(issue?.path).toBe('ageBands');
    expect(issue?.message).toContain('must list exactly <18, 18-29');
    const sexes = [{ code: 'other', label: 'Other', definition: 'x' }];
    expect(paths(() => defineCodebook(custom({ sexes })))).toEqual(['sexes[0].code', 'sexes']);
  });

  it('reserves the default version for the default content', () => {
    expect(paths(() => defineCodebook(custom({ version: 'custody-forensic-v1' })))).toEqual([
      'version',
    ]);
  });

  it('lists every problem at once, in the message too', () => {
    const err = (() => {
      try {
        defineCodebook({ title: 1, regions: {}, findings: [] });
      } catch (e) {
        return e as ExaminationError;
      }
      throw new Error('expected a throw');
    })();
    expect(err.code).toBe('CODEBOOK_INVALID');
    expect(err.message).toContain('version: expected a version');
    expect(err.message).toContain('title: expected a non-empty string');
    expect((err.details.errors as Issue[]).map((i) => i.path)).toEqual([
      'version',
      'title',
      'instructions',
      'regions',
      'findings',
    ]);
  });
});

describe('defineCodebook translations', () => {
  const term = (label: string) => ({ label, definition: `${label}: تعريف` });
  const scale = (codes: readonly string[]) =>
    Object.fromEntries(codes.map((c) => [c, term(`ت ${c}`)]));
  function arabic(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      status: 'needs-review-by-native-forensic-practitioner',
      title: 'مراجعة',
      instructions: 'سجّل ما هو مرئي.',
      values: scale(DEFAULT_CODEBOOK.values.map((t) => t.code)),
      sexes: scale(DEFAULT_CODEBOOK.sexes.map((t) => t.code)),
      ageBands: scale(DEFAULT_CODEBOOK.ageBands.map((t) => t.code)),
      regions: { head: term('الرأس') },
      findings: { burns: term('حروق'), emaciation: term('هزال') },
      ...overrides,
    };
  }

  it('takes a complete translation, and leaves the key out when there is none', () => {
    const cb = defineCodebook(custom({ translations: { ar: arabic() } }));
    expect(cb.translations?.ar?.findings.emaciation?.label).toBe('هزال');
    expect('translations' in defineCodebook(custom())).toBe(false);
    expect(codebookDigest(cb)).not.toBe(codebookDigest(defineCodebook(custom())));
  });

  it('refuses a translation that misses a term, adds an unknown one, or has no status', () => {
    const findings = { burns: term('حروق'), bruises: term('كدمات') };
    expect(paths(() => defineCodebook(custom({ translations: { ar: arabic({ findings }) } })))).toEqual([
      'translations.ar.findings.bruises',
      'translations.ar.findings.emaciation',
    ]);
    expect(paths(() => defineCodebook(custom({ translations: { ar: arabic({ status: 'reviewed' }) } })))).toEqual([
      'translations.ar.status',
    ]);
    const blank = { burns: term('حروق'), emaciation: { label: 'هزال', definition: ' ' } };
    expect(paths(() => defineCodebook(custom({ translations: { ar: arabic({ findings: blank }) } })))).toEqual([
      'translations.ar.findings.emaciation.definition',
    ]);
    expect(paths(() => defineCodebook(custom({ translations: { Arabic: arabic() } })))).toEqual(['translations.Arabic']);
    expect(paths(() => defineCodebook(custom({ translations: [] })))).toEqual(['translations']);
  });
});
