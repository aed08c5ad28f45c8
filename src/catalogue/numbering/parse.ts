import { CatalogueError, type CatalogueErrorCode } from './errors.js';
import type { FieldSpec, NumberingScheme, Segment } from './scheme.js';
import {
  cleanNumberText,
  codePointName,
  splitParts,
  toWesternDigits,
  type DigitSystem,
  type SeparatorKind,
} from './text.js';

/** A catalogue number read in full; nothing is returned half-parsed. */
export interface ParsedNumber {
  readonly schemeId: string;
  /** Exactly what was given. */
  readonly raw: string;
  /** Western digits, '/' between parts, no leading zeros, literals as the pattern spells them. */
  readonly normalised: string;
  readonly fields: Readonly<Record<string, number | string>>;
  /** The digit system each field was written in (fields that contained digits). */
  readonly digitSystems: Readonly<Record<string, DigitSystem>>;
  /** The separator family written, or null for a single-part pattern. */
  readonly separator: SeparatorKind | null;
}

/**
 * Registry look-ups by name (the `registry` of an integer or text field), e.g. `{ units: has }`.
 * An integer field passes its number, a text field its text (digits made Western).
 */
export type Registries = Readonly<Record<string, ((code: number | string) => boolean) | undefined>>;

/** Longer input is refused before any work: no card number comes near it. */
export const MAX_NUMBER_LENGTH = 256;

interface Read {
  value: number | string;
  normalised: string;
  system: DigitSystem | null;
}

/**
 * Reads `raw` (untrusted: typed by people, OCR'd, imported) in logical order against one scheme.
 * Accepts Western, Arabic-Indic and Eastern Arabic-Indic digits, the separators of text.ts,
 * stray spaces and invisible bidi marks. Throws a CatalogueError whose `details.field` names the
 * field at fault (see errors.ts); registry look-ups run only once every field has been read.
 *
 * @example
 *   parseCatalogueNumber(caesarCard, '\u200F١٢٣٤ / ٢١٥ / 5678', { units: (c) => c === 215 })
 *   // { normalised: '1234/215/5678', fields: { detainee: 1234, branch: 215, report: 5678 }, ... }
 */
export function parseCatalogueNumber(
  scheme: NumberingScheme,
  raw: string,
  registries?: Registries,
): ParsedNumber {
  const parsed = readNumber(scheme, raw);
  checkRegistries(scheme, parsed.fields, registries);
  return parsed;
}

/**
 * The normalised spelling of field values, checked as parseCatalogueNumber would check them
 * (registries aside). `formatCatalogueNumber(s, parse(s, x).fields) === parse(s, x).normalised`.
 */
export function formatCatalogueNumber(
  scheme: NumberingScheme,
  fields: Readonly<Record<string, number | string>>,
): string {
  const text = scheme.segments
    .map((seg) => (seg.field === null ? seg.literal : `${seg.literal}${String(fields[seg.field])}`))
    .join('/');
  const parsed = readNumber(scheme, text);
  const extra = Object.keys(fields).filter((k) => !(k in scheme.fields));
  const wrong = Object.keys(scheme.fields).find((k) => parsed.fields[k] !== fields[k]);
  if (extra.length > 0 || wrong !== undefined) {
    const field = wrong ?? extra[0];
    fail(
      scheme,
      'NUMBER_MALFORMED',
      field ?? null,
      'value does not survive formatting and reading',
    );
  }
  return parsed.normalised;
}

function readNumber(scheme: NumberingScheme, raw: string): ParsedNumber {
  // Untrusted boundary: callers may hand us anything that came out of a form or a CSV.
  if (typeof raw !== 'string') fail(scheme, 'NUMBER_MALFORMED', null, 'the number is not text');
  if (raw.length > MAX_NUMBER_LENGTH) {
    fail(
      scheme,
      'NUMBER_MALFORMED',
      null,
      `the number is longer than ${MAX_NUMBER_LENGTH} characters`,
    );
  }
  const cleaned = cleanNumberText(raw);
  if (cleaned === '') fail(scheme, 'NUMBER_MALFORMED', null, 'the number is empty');
  const { parts, separators } = splitParts(cleaned);
  checkShape(scheme, parts);
  const kinds = [...new Set(separators.map((s) => s.kind))];
  if (kinds.length > 1) {
    const chars = separators.map((s) => codePointName(s.char));
    fail(
      scheme,
      'NUMBER_MIXED_SEPARATORS',
      null,
      `the number mixes separators (${kinds.join(', ')})`,
      {
        separators: chars,
      },
    );
  }
  const fields: Record<string, number | string> = {};
  const digitSystems: Record<string, DigitSystem> = {};
  const normalisedParts: string[] = [];
  scheme.segments.forEach((seg, i) => {
    const rest = stripLiteral(scheme, seg, parts[i] ?? '');
    if (seg.field === null) return normalisedParts.push(seg.literal);
    const read = readField(scheme, seg.field, rest);
    fields[seg.field] = read.value;
    if (read.system !== null) digitSystems[seg.field] = read.system;
    return normalisedParts.push(seg.literal + read.normalised);
  });
  return Object.freeze({
    schemeId: scheme.id,
    raw,
    normalised: normalisedParts.join('/'),
    fields: Object.freeze(fields),
    digitSystems: Object.freeze(digitSystems),
    separator: separators[0]?.kind ?? null,
  });
}

function checkShape(scheme: NumberingScheme, parts: readonly string[]): void {
  const { segments } = scheme;
  const empty = parts.findIndex((p) => p === '');
  if (empty >= 0) {
    const field = segments[empty]?.field ?? null;
    fail(
      scheme,
      'NUMBER_MALFORMED',
      field,
      `part ${empty + 1} is empty (a separator at an end, or two in a row)`,
    );
  }
  if (parts.length < segments.length) {
    const field = segments.slice(parts.length).find((s) => s.field !== null)?.field ?? null;
    fail(
      scheme,
      'NUMBER_MALFORMED',
      field,
      `missing: the number has ${parts.length} parts, the pattern ${segments.length}`,
    );
  }
  if (parts.length > segments.length) {
    fail(
      scheme,
      'NUMBER_MALFORMED',
      null,
      `the number has ${parts.length} parts, the pattern ${segments.length}`,
    );
  }
}

function stripLiteral(scheme: NumberingScheme, seg: Segment, part: string): string {
  if (seg.literal === '') return part;
  // Case-insensitive, so 'fr-12' reads as 'FR/12'; the literal has letters only.
  const m = new RegExp(`^${seg.literal}`, 'iu').exec(part);
  const rest = m === null ? null : part.slice(m[0].length);
  if (rest === null || (seg.field === null && rest !== '') || (seg.field !== null && rest === '')) {
    const want = seg.field === null ? `'${seg.literal}'` : `'${seg.literal}' then ${seg.field}`;
    fail(scheme, 'NUMBER_MALFORMED', seg.field, `expected ${want}, found '${part}'`);
  }
  return rest;
}

function readField(scheme: NumberingScheme, name: string, text: string): Read {
  const spec = scheme.fields[name] as FieldSpec;
  const western = toWesternDigits(text);
  if (western.foreignDigit !== null) {
    fail(
      scheme,
      'NUMBER_MALFORMED',
      name,
      `digit ${western.foreignDigit} is of an unsupported digit system`,
    );
  }
  if (western.systems.length > 1) {
    fail(
      scheme,
      'NUMBER_MIXED_DIGITS',
      name,
      `mixes digit systems: ${western.systems.join(' and ')}`,
      {
        systems: western.systems,
      },
    );
  }
  const system = western.systems[0] ?? null;
  if (spec.kind === 'text') {
    if (!spec.matcher.test(western.text)) {
      fail(scheme, 'NUMBER_MALFORMED', name, `'${western.text}' does not match /${spec.regex}/`);
    }
    return { value: western.text, normalised: western.text, system };
  }
  const stray = [...western.text].find((c) => c < '0' || c > '9');
  if (stray !== undefined) {
    fail(scheme, 'NUMBER_MALFORMED', name, `'${text}' is not a number (${codePointName(stray)})`);
  }
  if (spec.kind === 'year' && western.text.length !== 4) {
    fail(scheme, 'NUMBER_MALFORMED', name, `a year is written with four digits, found '${text}'`);
  }
  const digits = western.text.replace(/^0+(?=\d)/, '');
  const big = BigInt(digits); // exact for any length; min and max are safe integers
  if (big < BigInt(spec.min) || big > BigInt(spec.max)) {
    fail(scheme, 'NUMBER_OUT_OF_RANGE', name, `${digits} is outside ${spec.min}–${spec.max}`, {
      value: digits,
      min: spec.min,
      max: spec.max,
    });
  }
  return { value: Number(big), normalised: digits, system };
}

function checkRegistries(
  scheme: NumberingScheme,
  fields: Readonly<Record<string, number | string>>,
  registries: Registries | undefined,
): void {
  for (const [name, spec] of Object.entries(scheme.fields)) {
    if (spec.kind === 'year' || spec.registry === null) continue;
    const lookup = registries?.[spec.registry];
    const value = fields[name] as number | string;
    if (lookup === undefined) {
      fail(
        scheme,
        'NUMBER_REGISTRY_MISSING',
        name,
        `needs the '${spec.registry}' registry, which was not given`,
        {
          registry: spec.registry,
        },
      );
    }
    if (!lookup(value)) {
      fail(
        scheme,
        'NUMBER_UNKNOWN_REGISTRY_VALUE',
        name,
        `${value} is not in the '${spec.registry}' registry`,
        {
          registry: spec.registry,
          value,
        },
      );
    }
  }
}

function fail(
  scheme: NumberingScheme,
  code: CatalogueErrorCode,
  field: string | null,
  reason: string,
  extra: Record<string, unknown> = {},
): never {
  const where = field === null ? '' : `field '${field}': `;
  throw new CatalogueError(code, `${scheme.id}: ${where}${reason}`, {
    details: { schemeId: scheme.id, field, reason, ...extra },
  });
}
