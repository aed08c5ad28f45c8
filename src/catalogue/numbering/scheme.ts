import { CatalogueError } from './errors.js';
import { SEPARATOR_CHARACTERS } from './text.js';

/**
 * A numbering scheme as people declare it (JSON). See README.md in this folder for the full
 * grammar; in short:
 *
 *   { "id": "caesar-card", "pattern": "{detainee}/{branch}/{report}",
 *     "fields": { "detainee": { "type": "integer", "min": 1, "max": 99999 },
 *                 "branch": { "type": "integer", "min": 1, "max": 999, "registry": "units" },
 *                 "report": { "type": "integer", "min": 1, "max": 99999 } } }
 *
 * Every '/' in the pattern is a separator slot (any accepted separator matches it); between two
 * slots sits a part: `{field}`, a word of letters (`FR`), or a word glued to a field (`FR{n}`).
 */
export interface NumberingSchemeConfig {
  id: string;
  description?: string;
  pattern: string;
  fields: Record<string, FieldConfig>;
}

export type FieldConfig = IntegerFieldConfig | YearFieldConfig | TextFieldConfig;

/** Non-negative integer, written without sign or grouping; leading zeros are accepted. */
export interface IntegerFieldConfig {
  type: 'integer';
  min: number;
  max: number;
  /** Name of a registry the value must be known to, e.g. 'units'. */
  registry?: string;
  description?: string;
}

/** Exactly four digits (a two-digit year is refused, never guessed); range defaults to 1000–9999. */
export interface YearFieldConfig {
  type: 'year';
  min?: number;
  max?: number;
  description?: string;
}

/** Free text checked by `regex` (anchored for you, Unicode mode), after digits become Western. */
export interface TextFieldConfig {
  type: 'text';
  regex: string;
  /** Name of a registry the value must be known to, e.g. 'units' (a unit code or alias). */
  registry?: string;
  description?: string;
}

export type FieldSpec =
  | {
      readonly kind: 'integer';
      readonly min: number;
      readonly max: number;
      readonly registry: string | null;
    }
  | { readonly kind: 'year'; readonly min: number; readonly max: number }
  | {
      readonly kind: 'text';
      readonly regex: string;
      readonly matcher: RegExp;
      readonly registry: string | null;
    };

/** One part of the pattern between separator slots: a literal word, a field, or both. */
export interface Segment {
  readonly literal: string;
  readonly field: string | null;
}

/** A validated, compiled scheme: make one with {@link defineNumberingScheme}. */
export interface NumberingScheme {
  readonly id: string;
  readonly description: string | null;
  readonly pattern: string;
  readonly segments: readonly Segment[];
  readonly fields: Readonly<Record<string, FieldSpec>>;
}

const ID_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const FIELD_NAME_RE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const REGISTRY_RE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const SEGMENT_RE = /^([\p{L}\p{M}]*)(?:\{([^{}]*)\})?$/u;
const TOP_KEYS = ['id', 'description', 'pattern', 'fields'];
const FIELD_KEYS: Record<string, string[]> = {
  integer: ['type', 'min', 'max', 'registry', 'description'],
  year: ['type', 'min', 'max', 'description'],
  text: ['type', 'regex', 'registry', 'description'],
};

/**
 * Validates a scheme config (untrusted: it comes from a JSON file an investigator wrote) and
 * compiles it. Throws `NUMBER_SCHEME_INVALID` with `details.path` (e.g. `fields.branch.max`)
 * and `details.reason`; unknown keys are refused so that a typo (`maximum`) is not ignored.
 *
 * @example
 *   defineNumberingScheme({ id: 'report', pattern: 'FR/{n}',
 *     fields: { n: { type: 'integer', min: 1, max: 9999 } } });
 */
export function defineNumberingScheme(config: unknown): NumberingScheme {
  const top = asRecord(config, '?', '(root)');
  const id = top.id;
  if (typeof id !== 'string' || !ID_RE.test(id)) {
    fail('?', 'id', 'must be a lowercase slug of 1–64 characters: a-z 0-9 . _ -');
  }
  checkKeys(top, TOP_KEYS, id, '');
  const description = optionalString(top.description, id, 'description');
  if (typeof top.pattern !== 'string') fail(id, 'pattern', 'must be a string');
  const fieldsIn = asRecord(top.fields, id, 'fields');
  const fields: Record<string, FieldSpec> = {};
  for (const [name, value] of Object.entries(fieldsIn)) {
    if (!FIELD_NAME_RE.test(name)) fail(id, `fields.${name}`, 'field names are A-Z a-z 0-9 _');
    fields[name] = compileField(value, id, `fields.${name}`);
  }
  const segments = compilePattern(top.pattern, fields, id);
  return Object.freeze({
    id,
    description,
    pattern: top.pattern,
    segments: Object.freeze(segments.map((s) => Object.freeze(s))),
    fields: Object.freeze(fields),
  });
}

function compilePattern(pattern: string, fields: Record<string, FieldSpec>, id: string): Segment[] {
  if (/\s/u.test(pattern))
    fail(id, 'pattern', 'contains spaces (stray spaces in numbers are tolerated anyway)');
  const used = new Set<string>();
  const segments = pattern.split('/').map((text, i): Segment => {
    const where = `pattern part ${i + 1} '${text}'`;
    const other = [...text].find((c) => SEPARATOR_CHARACTERS.includes(c));
    if (other !== undefined) {
      fail(
        id,
        'pattern',
        `${where}: write every separator slot as '/' (it accepts '${other}' and the others)`,
      );
    }
    const m = SEGMENT_RE.exec(text);
    const literal = m?.[1] ?? '';
    const field = m?.[2] ?? null;
    if (m === null || (literal === '' && field === null)) {
      fail(id, 'pattern', `${where}: must be {field}, a word of letters, or a word then {field}`);
    }
    if (field !== null) {
      if (!(field in fields)) fail(id, 'pattern', `${where}: no field '${field}' is declared`);
      if (used.has(field)) fail(id, 'pattern', `${where}: field '${field}' appears twice`);
      used.add(field);
    }
    return { literal: literal.normalize('NFC'), field };
  });
  const unused = Object.keys(fields).filter((f) => !used.has(f));
  if (unused.length > 0)
    fail(id, 'fields', `declared but not in the pattern: ${unused.join(', ')}`);
  if (used.size === 0) fail(id, 'pattern', 'has no {field}');
  return segments;
}

function compileField(value: unknown, id: string, path: string): FieldSpec {
  const f = asRecord(value, id, path);
  const keys = typeof f.type === 'string' ? FIELD_KEYS[f.type] : undefined;
  if (keys === undefined) fail(id, `${path}.type`, "must be 'integer', 'year' or 'text'");
  checkKeys(f, keys, id, path);
  optionalString(f.description, id, `${path}.description`);
  switch (f.type) {
    case 'integer': {
      const min = safeInteger(f.min, id, `${path}.min`);
      const max = safeInteger(f.max, id, `${path}.max`);
      if (min < 0) fail(id, `${path}.min`, 'must be >= 0 (numbers carry no sign)');
      if (min > max) fail(id, path, `min ${min} is greater than max ${max}`);
      return { kind: 'integer', min, max, registry: registryName(f.registry, id, path) };
    }
    case 'year': {
      const min = f.min === undefined ? 1000 : safeInteger(f.min, id, `${path}.min`);
      const max = f.max === undefined ? 9999 : safeInteger(f.max, id, `${path}.max`);
      if (min < 1000 || max > 9999)
        fail(id, path, 'a year has four digits: 1000 <= min <= max <= 9999');
      if (min > max) fail(id, path, `min ${min} is greater than max ${max}`);
      return { kind: 'year', min, max };
    }
    default:
      return compileText(f.regex, registryName(f.registry, id, path), id, `${path}.regex`);
  }
}

function registryName(value: unknown, id: string, path: string): string | null {
  const registry = optionalString(value, id, `${path}.registry`);
  if (registry !== null && !REGISTRY_RE.test(registry)) {
    fail(id, `${path}.registry`, 'must be a name: A-Z a-z 0-9 _ -');
  }
  return registry;
}

function compileText(regex: unknown, registry: string | null, id: string, path: string): FieldSpec {
  if (typeof regex !== 'string' || regex === '') fail(id, path, 'must be a non-empty string');
  try {
    return { kind: 'text', regex, matcher: new RegExp(`^(?:${regex})$`, 'u'), registry };
  } catch (cause) {
    return fail(id, path, `is not a valid regular expression: ${String(cause)}`);
  }
}

function asRecord(value: unknown, id: string, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(id, path, 'must be an object');
  }
  return value as Record<string, unknown>;
}

function checkKeys(
  obj: Record<string, unknown>,
  allowed: string[],
  id: string,
  path: string,
): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      fail(
        id,
        path === '' ? key : `${path}.${key}`,
        `unknown key (allowed: ${allowed.join(', ')})`,
      );
    }
  }
}

function optionalString(value: unknown, id: string, path: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value === '') fail(id, path, 'must be a non-empty string');
  return value;
}

function safeInteger(value: unknown, id: string, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    fail(id, path, 'must be an integer (|n| <= 2^53 - 1)');
  }
  return value;
}

function fail(schemeId: string, path: string, reason: string): never {
  throw new CatalogueError('NUMBER_SCHEME_INVALID', `scheme ${schemeId}: ${path}: ${reason}`, {
    details: { schemeId, path, reason },
  });
}
