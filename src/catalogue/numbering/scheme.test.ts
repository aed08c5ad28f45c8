import { describe, expect, it } from 'vitest';
import { CatalogueError } from './errors.js';
import { defineNumberingScheme } from './scheme.js';

const CAESAR = {
  id: 'caesar-card',
  description: 'detainee / security branch / forensic report',
  pattern: '{detainee}/{branch}/{report}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 99999 },
    branch: { type: 'integer', min: 1, max: 999, registry: 'units' },
    report: { type: 'integer', min: 1, max: 99999 },
  },
};

function configError(config: unknown): CatalogueError {
  try {
    defineNumberingScheme(config);
  } catch (e) {
    if (e instanceof CatalogueError) return e;
    throw e;
  }
  throw new Error('expected NUMBER_SCHEME_INVALID');
}

/** A copy of CAESAR with one change, for the table below. */
function caesarWith(change: (c: Record<string, unknown>) => void): unknown {
  const copy = structuredClone(CAESAR) as unknown as Record<string, unknown>;
  change(copy);
  return copy;
}

function fieldsOf(c: Record<string, unknown>): Record<string, Record<string, unknown>> {
  return c.fields as Record<string, Record<string, unknown>>;
}

describe('defineNumberingScheme', () => {
  it('compiles the founding-case card scheme', () => {
    const s = defineNumberingScheme(CAESAR);
    expect(s.id).toBe('caesar-card');
    expect(s.segments.map((x) => x.field)).toEqual(['detainee', 'branch', 'report']);
    expect(s.fields.branch).toEqual({ kind: 'integer', min: 1, max: 999, registry: 'units' });
    expect(Object.isFrozen(s.fields)).toBe(true);
  });

  it('compiles literals, years and text fields', () => {
    const s = defineNumberingScheme({
      id: 'forensic-report',
      pattern: 'FR{report}/{year}/{office}',
      fields: {
        report: { type: 'integer', min: 0, max: 9999 },
        year: { type: 'year', min: 2011, max: 2015 },
        office: { type: 'text', regex: '[A-Z]{2}[0-9]?' },
      },
    });
    expect(s.segments).toEqual([
      { literal: 'FR', field: 'report' },
      { literal: '', field: 'year' },
      { literal: '', field: 'office' },
    ]);
    expect(s.fields.year).toEqual({ kind: 'year', min: 2011, max: 2015 });
  });

  const cases: [string, unknown, string][] = [
    ['not an object', [CAESAR], '(root)'],
    ['a missing id', caesarWith((c) => delete c.id), 'id'],
    ['an id with spaces', caesarWith((c) => (c.id = 'Caesar card')), 'id'],
    ['an unknown top-level key', caesarWith((c) => (c.patern = 'x')), 'patern'],
    ['a pattern that is not text', caesarWith((c) => (c.pattern = 3)), 'pattern'],
    ['fields that are not an object', caesarWith((c) => (c.fields = [])), 'fields'],
    [
      'a typo in a field key',
      caesarWith((c) => (fieldsOf(c).report!.maximum = 5)),
      'fields.report.maximum',
    ],
    [
      'an unknown field type',
      caesarWith((c) => (fieldsOf(c).report!.type = 'float')),
      'fields.report.type',
    ],
    ['min above max', caesarWith((c) => (fieldsOf(c).report!.min = 100000)), 'fields.report'],
    ['a negative min', caesarWith((c) => (fieldsOf(c).report!.min = -1)), 'fields.report.min'],
    ['a fractional max', caesarWith((c) => (fieldsOf(c).report!.max = 9.5)), 'fields.report.max'],
    ['a missing min', caesarWith((c) => delete fieldsOf(c).report!.min), 'fields.report.min'],
    [
      'a bad registry name',
      caesarWith((c) => (fieldsOf(c).branch!.registry = 'a b')),
      'fields.branch.registry',
    ],
    [
      'a registry on a year field',
      caesarWith((c) => (fieldsOf(c).branch = { type: 'year', registry: 'units' })),
      'fields.branch.registry',
    ],
    [
      'a registry name that is not a name, on a text field',
      caesarWith((c) => (fieldsOf(c).branch = { type: 'text', regex: 'x', registry: 'u nits' })),
      'fields.branch.registry',
    ],
    [
      'an invalid regex',
      caesarWith((c) => (fieldsOf(c).branch = { type: 'text', regex: '[' })),
      'fields.branch.regex',
    ],
    [
      'an empty regex',
      caesarWith((c) => (fieldsOf(c).branch = { type: 'text', regex: '' })),
      'fields.branch.regex',
    ],
    [
      'a five-digit year bound',
      caesarWith((c) => (fieldsOf(c).report = { type: 'year', max: 10000 })),
      'fields.report',
    ],
    [
      'a bad field name',
      caesarWith((c) => (fieldsOf(c)['re port'] = { type: 'integer', min: 1, max: 2 })),
      'fields.re port',
    ],
    [
      'a hyphen as separator in the pattern',
      caesarWith((c) => (c.pattern = '{detainee}-{branch}/{report}')),
      'pattern',
    ],
    [
      'spaces in the pattern',
      caesarWith((c) => (c.pattern = '{detainee} / {branch}/{report}')),
      'pattern',
    ],
    [
      'an undeclared field',
      caesarWith((c) => (c.pattern = '{detainee}/{unit}/{report}')),
      'pattern',
    ],
    ['a declared field left out', caesarWith((c) => (c.pattern = '{detainee}/{report}')), 'fields'],
    [
      'a field used twice',
      caesarWith((c) => (c.pattern = '{detainee}/{branch}/{report}/{report}')),
      'pattern',
    ],
    [
      'an empty pattern part',
      caesarWith((c) => (c.pattern = '{detainee}//{branch}/{report}')),
      'pattern',
    ],
    [
      'two fields glued together',
      caesarWith((c) => (c.pattern = '{detainee}{branch}/{report}')),
      'pattern',
    ],
    [
      'digits in a literal',
      caesarWith((c) => (c.pattern = 'F2{detainee}/{branch}/{report}')),
      'pattern',
    ],
    [
      'a literal after a field',
      caesarWith((c) => (c.pattern = '{detainee}X/{branch}/{report}')),
      'pattern',
    ],
    ['no field at all', { id: 'x', pattern: 'FR', fields: {} }, 'pattern'],
  ];

  it.each(cases)('refuses %s with a path', (_label, config, path) => {
    const e = configError(config);
    expect(e.code).toBe('NUMBER_SCHEME_INVALID');
    expect(e.details.path).toBe(path);
    expect(typeof e.details.reason).toBe('string');
  });

  it('says which separator character the pattern should not use', () => {
    const e = configError(caesarWith((c) => (c.pattern = '{detainee}.{branch}/{report}')));
    expect(e.message).toContain("write every separator slot as '/'");
  });
});
