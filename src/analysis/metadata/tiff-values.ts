/**
 * Type-checked readers for single TIFF/EXIF values as exifr returns them with
 * `translateKeys: false, reviveValues: false`. EXIF is hostile input: a value of the wrong type
 * gives null and a warning, never an exception.
 */

/** Collects warnings; every normaliser reports through one of these instead of throwing. */
export type Warn = (message: string) => void;

/** Raw exifr output with `translateKeys: false`: tag number (as a string key) -> value. */
export type RawBlock = Readonly<Record<string, unknown>>;

/**
 * TIFF 6.0 §2 ASCII: text up to the first NUL. ExifTool stops there too, so 'ION230\0F' is
 * 'ION230'. exifr has already trimmed surrounding whitespace. Empty text is null.
 */
export function textValue(v: unknown, name: string, warn: Warn): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') {
    warn(`EXIF ${name}: expected ASCII text, found ${describe(v)}`);
    return null;
  }
  const nul = v.indexOf('\0');
  const text = nul === -1 ? v : v.slice(0, nul);
  return text === '' ? null : text;
}

const EXIF_DATE_RE = /^\d{4}:\d{2}:\d{2} \d{2}:\d{2}:\d{2}$/;

/** A date kept literally; a value not in the EXIF form is still kept, with a warning. */
export function dateValue(v: unknown, name: string, warn: Warn): string | null {
  const text = textValue(v, name, warn);
  if (text !== null && !EXIF_DATE_RE.test(text))
    warn(`EXIF ${name}: '${clip(text)}' is not in the form YYYY:MM:DD HH:MM:SS`);
  return text;
}

/** SHORT or LONG, count 1. A longer array gives its first value and a warning. */
export function integerValue(v: unknown, name: string, warn: Warn): number | null {
  if (v === undefined || v === null) return null;
  let n: unknown = v;
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const list = v as ArrayLike<unknown>;
    n = list[0];
    if (list.length !== 1)
      warn(`EXIF ${name}: ${list.length} values where 1 is expected; using the first`);
  }
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n;
  warn(`EXIF ${name}: expected an unsigned integer, found ${describe(v)}`);
  return null;
}

/** A short, safe description of an unexpected value for a warning. */
export function describe(v: unknown): string {
  if (typeof v === 'string') return `text '${clip(v)}'`;
  if (typeof v === 'number') return `number ${v}`;
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const list = Array.from(v as ArrayLike<unknown>).slice(0, 4);
    return `a list of ${(v as ArrayLike<unknown>).length} (${list.map(String).join(', ')}${list.length < (v as ArrayLike<unknown>).length ? ', …' : ''})`;
  }
  return typeof v;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** At most 80 characters of attacker-controlled text in a warning, control characters escaped. */
export function clip(s: string, max = 80): string {
  const hex = (c: string): string => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  const safe = s.slice(0, max).replace(CONTROL_CHARACTERS, hex);
  return s.length > max ? `${safe}…` : safe;
}
