// Generated, synthetic card numbers written the ways people write them: three digit systems,
// every separator family, leading zeros, stray spaces and invisible bidi marks anywhere.
// Properties: the parse recovers the fields; the normalised form reads back to itself;
// formatting the fields gives the normalised form; and each kind of damage is refused with the
// right code and field.
import { describe, expect, it } from 'vitest';
import { CatalogueError } from './errors.js';
import { formatCatalogueNumber, parseCatalogueNumber, type Registries } from './parse.js';
import { defineNumberingScheme } from './scheme.js';
import type { DigitSystem } from './text.js';

const CAESAR = defineNumberingScheme({
  id: 'caesar-card',
  pattern: '{detainee}/{branch}/{report}',
  fields: {
    detainee: { type: 'integer', min: 1, max: 99999 },
    branch: { type: 'integer', min: 1, max: 999, registry: 'units' },
    report: { type: 'integer', min: 1, max: 99999 },
  },
});
const BRANCHES = [215, 227, 235, 248, 251];
const UNITS: Registries = { units: (code) => typeof code === 'number' && BRANCHES.includes(code) };
const FIELDS = ['detainee', 'branch', 'report'] as const;

const SYSTEMS: DigitSystem[] = ['western', 'arabic-indic', 'eastern-arabic-indic'];
const ZERO: Record<DigitSystem, number> = {
  western: 0x30,
  'arabic-indic': 0x660,
  'eastern-arabic-indic': 0x6f0,
};
const FAMILIES = ['/\\\u2044\u2215\uFF0F', '-\u2010\u2013\u2212', '.', '\u060C', '|', ' '];
const SPACES = [' ', '  ', '\u00A0', '\t', '\u202F'];
const INVISIBLE = [
  '\u200E',
  '\u200F',
  '\u061C',
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200B',
  '\u200C',
  '\u200D',
  '\uFEFF',
];

/** mulberry32: a tiny seeded generator, so every run sees the same cases. */
function rng(seed: number): { int(n: number): number; pick<T>(xs: readonly T[]): T } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { int, pick: (xs) => xs[int(xs.length)] as (typeof xs)[number] };
}
type Rng = ReturnType<typeof rng>;

function writeDigits(value: string, system: DigitSystem): string {
  return [...value].map((d) => String.fromCharCode(ZERO[system] + Number(d))).join('');
}

function separator(r: Rng, family: string): string {
  if (family === ' ') return r.pick(SPACES);
  const pad = (): string => (r.int(3) === 0 ? r.pick(SPACES) : '');
  return pad() + r.pick([...family]) + pad();
}

function sprinkleInvisibles(r: Rng, text: string): string {
  const chars = [...text];
  for (let k = r.int(4); k > 0; k--) chars.splice(r.int(chars.length + 1), 0, r.pick(INVISIBLE));
  return chars.join('');
}

interface Case {
  raw: string;
  values: Record<(typeof FIELDS)[number], number>;
  systems: DigitSystem[];
}

function generate(r: Rng): Case {
  const values = { detainee: 1 + r.int(99999), branch: r.pick(BRANCHES), report: 1 + r.int(99999) };
  const systems = FIELDS.map(() => r.pick(SYSTEMS));
  const family = r.pick(FAMILIES);
  const written = FIELDS.map((f, i) => {
    const zeros = '0'.repeat(r.int(3));
    return writeDigits(zeros + String(values[f]), systems[i] as DigitSystem);
  });
  const [a, b, c] = written;
  const raw = `${a}${separator(r, family)}${b}${separator(r, family)}${c}`;
  const lead = r.int(4) === 0 ? r.pick(SPACES) : '';
  return { raw: sprinkleInvisibles(r, lead + raw), values, systems };
}

function refusal(raw: string): CatalogueError {
  try {
    parseCatalogueNumber(CAESAR, raw, UNITS);
  } catch (e) {
    if (e instanceof CatalogueError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

describe('generated card numbers', () => {
  const r = rng(20130806);
  const cases = Array.from({ length: 2000 }, () => generate(r));

  it('are read back to their fields, in every digit system and separator', () => {
    for (const { raw, values, systems } of cases) {
      const parsed = parseCatalogueNumber(CAESAR, raw, UNITS);
      expect(parsed.fields, JSON.stringify(raw)).toEqual(values);
      expect(parsed.normalised).toBe(`${values.detainee}/${values.branch}/${values.report}`);
      expect(Object.values(parsed.digitSystems)).toEqual(systems);
    }
  });

  it('round-trip: the normalised form reads back to itself, and formatting gives it', () => {
    for (const { raw } of cases) {
      const once = parseCatalogueNumber(CAESAR, raw, UNITS);
      const twice = parseCatalogueNumber(CAESAR, once.normalised, UNITS);
      expect(twice.normalised).toBe(once.normalised);
      expect(twice.fields).toEqual(once.fields);
      expect(formatCatalogueNumber(CAESAR, once.fields)).toBe(once.normalised);
    }
  });

  it('a field mixing two digit systems is refused, naming that field', () => {
    const g = rng(7);
    for (let k = 0; k < 300; k++) {
      const i = g.int(3);
      const field = FIELDS[i] as string;
      const first = g.pick(SYSTEMS);
      const second = SYSTEMS[(SYSTEMS.indexOf(first) + 1 + g.int(2)) % 3] as DigitSystem;
      const digits = String(10 + g.int(89990)).padStart(2, '0');
      const mixed = writeDigits(digits.slice(0, 1), first) + writeDigits(digits.slice(1), second);
      const parts = ['1234', '215', '5678'];
      parts[i] = mixed;
      const e = refusal(parts.join('/'));
      expect([e.code, e.details.field]).toEqual(['NUMBER_MIXED_DIGITS', field]);
    }
  });

  it('mixed separator families are refused; out-of-range values name their field', () => {
    const g = rng(11);
    for (let k = 0; k < 300; k++) {
      const [f1, f2] = [g.int(FAMILIES.length), g.int(FAMILIES.length - 1)];
      const other = FAMILIES[(f1 + 1 + f2) % FAMILIES.length] as string;
      const raw = `1234${separator(g, FAMILIES[f1] as string)}215${separator(g, other)}5678`;
      expect(refusal(raw).code, JSON.stringify(raw)).toBe('NUMBER_MIXED_SEPARATORS');
      const i = g.int(3);
      const parts = ['1234', '215', '5678'];
      parts[i] = writeDigits(i === 1 ? String(1000 + g.int(9000)) : '0', g.pick(SYSTEMS));
      const e = refusal(parts.join('/'));
      expect([e.code, e.details.field]).toEqual(['NUMBER_OUT_OF_RANGE', FIELDS[i]]);
    }
  });
});
