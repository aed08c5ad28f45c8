import { describe, expect, it } from 'vitest';
import { CatalogueError, type CatalogueErrorCode } from './errors.js';
import { formatCatalogueNumber, parseCatalogueNumber, type Registries } from './parse.js';
import { defineNumberingScheme } from './scheme.js';

const CAESAR = defineNumberingScheme({
  id: 'caesar-card',
  pattern: '{detainee}/{branch}/{report}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 99999 },
    branch: { type: 'integer', min: 1, max: 999, registry: 'units' },
    report: { type: 'integer', min: 1, max: 99999 },
  },
});
const UNITS: Registries = { units: (code) => typeof code === 'number' && [215, 227, 235, 248].includes(code) };

const REPORT = defineNumberingScheme({
  id: 'forensic-report',
  pattern: 'FR{report}/{year}/{office}',
  fields: {
    report: { type: 'integer', min: 1, max: 9999 },
    year: { type: 'year', min: 2011, max: 2015 },
    office: { type: 'text', regex: '[A-Z]{2}[0-9]?' },
  },
});

function parseError(raw: string, registries: Registries | undefined = UNITS, scheme = CAESAR) {
  try {
    parseCatalogueNumber(scheme, raw, registries);
  } catch (e) {
    if (e instanceof CatalogueError) return e;
    throw e;
  }
  throw new Error(`expected ${raw} to be refused`);
}

describe('parseCatalogueNumber: what people write', () => {
  const accepted: [string, string][] = [
    ['1234/215/5678', '1234/215/5678'],
    ['1234 / 215 / 5678', '1234/215/5678'],
    ['  1234/215/5678  ', '1234/215/5678'],
    ['01234/0215/005678', '1234/215/5678'],
    ['1234-215-5678', '1234/215/5678'],
    ['1234 – 215 – 5678', '1234/215/5678'], // en dash from a word processor
    ['1234.215.5678', '1234/215/5678'],
    ['1234\\215\\5678', '1234/215/5678'],
    ['1234|215|5678', '1234/215/5678'],
    ['1234 215 5678', '1234/215/5678'],
    ['1234\t215\n5678', '1234/215/5678'],
    ['1234\u00A0215\u00A05678', '1234/215/5678'], // NBSP is a space, not nothing
    ['1234\u2044215\u20445678', '1234/215/5678'],
    ['1234\u2215215\u22155678', '1234/215/5678'],
    ['1234\uFF0F215\uFF0F5678', '1234/215/5678'],
    ['1234/215\\5678', '1234/215/5678'], // both solidi are one family
    ['١٢٣٤/٢١٥/٥٦٧٨', '1234/215/5678'],
    ['١٢٣٤،٢١٥،٥٦٧٨', '1234/215/5678'],
    ['۱۲۳۴/۲۱۵/۵۶۷۸', '1234/215/5678'],
    ['\u200F١٢٣٤\u200F/\u200F٢١٥\u200F/\u200F٥٦٧٨', '1234/215/5678'],
    ['\u202B١٢٣٤/٢١٥/٥٦٧٨\u202C', '1234/215/5678'],
    ['\u2067١٢٣٤\u2069 / \u2066215\u2069 / 5678', '1234/215/5678'],
    ['\uFEFF1234/215/5678', '1234/215/5678'],
    ['12\u200B34/2\u200D15/56\u061C78\u200E', '1234/215/5678'],
    ['١٢٣٤/215/۵۶۷۸', '1234/215/5678'], // a different system in each field is fine
  ];

  it.each(accepted)('reads %j as %s', (raw, normalised) => {
    const parsed = parseCatalogueNumber(CAESAR, raw, UNITS);
    expect(parsed.normalised).toBe(normalised);
    expect(parsed.raw).toBe(raw);
    expect(parsed.fields).toEqual({ detainee: 1234, branch: 215, report: 5678 });
  });

  it('reports the digit system of each field and the separator', () => {
    const parsed = parseCatalogueNumber(CAESAR, '١٢٣٤ ، 215 ، ۵۶۷۸', UNITS);
    expect(parsed.digitSystems).toEqual({
      detainee: 'arabic-indic',
      branch: 'western',
      report: 'eastern-arabic-indic',
    });
    expect(parsed.separator).toBe('arabic-comma');
  });

  it('reads logical order and never reverses what RTL display may have shown', () => {
    // Typed right to left as seen on screen, the parts arrive in a different order: we read
    // them as they are, so the number is a different one (here caught by the units registry).
    expect(parseCatalogueNumber(CAESAR, '\u200F5678/215/1234', UNITS).fields.detainee).toBe(5678);
    expect(parseError('5678/1234/215').details.field).toBe('branch');
  });

  it('reads literals case-insensitively, years and text fields', () => {
    const parsed = parseCatalogueNumber(REPORT, 'fr٠٤٢ - ٢٠١٣ - DA2');
    expect(parsed.fields).toEqual({ report: 42, year: 2013, office: 'DA2' });
    expect(parsed.normalised).toBe('FR42/2013/DA2');
  });

  it('formats field values as their normalised spelling, checked', () => {
    expect(formatCatalogueNumber(CAESAR, { detainee: 7, branch: 215, report: 99 })).toBe(
      '7/215/99',
    );
    expect(() => formatCatalogueNumber(CAESAR, { detainee: 7, branch: 215 })).toThrow(
      CatalogueError,
    );
    expect(() => formatCatalogueNumber(REPORT, { report: 1, year: 2013, office: 'D/A' })).toThrow(
      CatalogueError,
    );
  });
});

describe('parseCatalogueNumber: refusals name the field', () => {
  const refused: [string, CatalogueErrorCode, string | null][] = [
    ['', 'NUMBER_MALFORMED', null],
    ['\u200F \u200E', 'NUMBER_MALFORMED', null],
    ['1234/215', 'NUMBER_MALFORMED', 'report'],
    ['1234', 'NUMBER_MALFORMED', 'branch'],
    ['1234/215/5678/9', 'NUMBER_MALFORMED', null],
    ['/1234/215/5678', 'NUMBER_MALFORMED', 'detainee'],
    ['1234//215/5678', 'NUMBER_MALFORMED', 'branch'],
    ['1234/215/', 'NUMBER_MALFORMED', 'report'],
    ['1234/2l5/5678', 'NUMBER_MALFORMED', 'branch'], // letter l for digit 1
    ['1234/215/56O8', 'NUMBER_MALFORMED', 'report'], // letter O for zero
    ['1234/215/5,678', 'NUMBER_MALFORMED', 'report'], // ',' is not a separator (thousands?)
    ['1234/+215/5678', 'NUMBER_MALFORMED', 'branch'],
    ['１２３４/215/5678', 'NUMBER_MALFORMED', 'detainee'], // fullwidth digits
    ['1234/२१५/5678', 'NUMBER_MALFORMED', 'branch'], // Devanagari digits
    ['12٣4/215/5678', 'NUMBER_MIXED_DIGITS', 'detainee'],
    ['1234/٢۱٥/5678', 'NUMBER_MIXED_DIGITS', 'branch'], // ٢ and ٥ Arabic-Indic, ۱ Eastern
    ['1234/215/٥٦۷۸', 'NUMBER_MIXED_DIGITS', 'report'],
    ['1234/215-5678', 'NUMBER_MIXED_SEPARATORS', null],
    ['1234 215/5678', 'NUMBER_MIXED_SEPARATORS', null],
    ['1234.215،5678', 'NUMBER_MIXED_SEPARATORS', null],
    ['0/215/5678', 'NUMBER_OUT_OF_RANGE', 'detainee'],
    ['1234/1000/5678', 'NUMBER_OUT_OF_RANGE', 'branch'],
    ['1234/215/100000', 'NUMBER_OUT_OF_RANGE', 'report'],
    ['1234/215/99999999999999999999999', 'NUMBER_OUT_OF_RANGE', 'report'],
    ['1234/216/5678', 'NUMBER_UNKNOWN_REGISTRY_VALUE', 'branch'],
    ['١٢٣٤/٢١٦/٥٦٧٨', 'NUMBER_UNKNOWN_REGISTRY_VALUE', 'branch'],
  ];

  it.each(refused)('refuses %j with %s on %s', (raw, code, field) => {
    const e = parseError(raw);
    expect(e.code).toBe(code);
    expect(e.details.field).toBe(field);
    expect(e.details.schemeId).toBe('caesar-card');
    expect(typeof e.details.reason).toBe('string');
  });

  it('says which digit systems were mixed, and the value out of range', () => {
    expect(parseError('12٣4/215/5678').details.systems).toEqual(['western', 'arabic-indic']);
    expect(parseError('1234/1000/5678').details).toMatchObject({ value: '1000', min: 1, max: 999 });
    expect(parseError('1234/215-5678').details.separators).toEqual(['U+002F', 'U+002D']);
  });

  it('checks syntax of every field before asking a registry', () => {
    let asked = 0;
    const counting: Registries = { units: () => (asked++, true) };
    expect(parseError('1234/215/0', counting).code).toBe('NUMBER_OUT_OF_RANGE');
    expect(asked).toBe(0);
  });

  it('refuses rather than skips a registry the caller did not supply', () => {
    let caught: unknown;
    try {
      parseCatalogueNumber(CAESAR, '1234/215/5678');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CatalogueError);
    const e = caught as CatalogueError;
    expect(e.code).toBe('NUMBER_REGISTRY_MISSING');
    expect(e.details).toMatchObject({ field: 'branch', registry: 'units' });
    expect(parseError('1234/215/5678', {}).code).toBe('NUMBER_REGISTRY_MISSING');
  });

  it('refuses years that are not four digits, text that fails its regex, wrong literals', () => {
    const year = parseError('FR12/13/DA', undefined, REPORT);
    expect([year.code, year.details.field]).toEqual(['NUMBER_MALFORMED', 'year']);
    const range = parseError('FR12/2016/DA', undefined, REPORT);
    expect([range.code, range.details.field]).toEqual(['NUMBER_OUT_OF_RANGE', 'year']);
    const text = parseError('FR12/2013/da', undefined, REPORT);
    expect([text.code, text.details.field]).toEqual(['NUMBER_MALFORMED', 'office']);
    const literal = parseError('FX12/2013/DA', undefined, REPORT);
    expect([literal.code, literal.details.field]).toEqual(['NUMBER_MALFORMED', 'report']);
    const bare = parseError('FR/2013/DA', undefined, REPORT);
    expect([bare.code, bare.details.field]).toEqual(['NUMBER_MALFORMED', 'report']);
  });

  it('refuses input that is too long or not text before reading it', () => {
    expect(parseError('1/'.repeat(200) + '1').details.reason).toMatch(/longer than 256/);
    expect(parseError(42 as unknown as string).code).toBe('NUMBER_MALFORMED');
  });
});
