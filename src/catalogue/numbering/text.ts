/**
 * Lexing of written catalogue numbers: what is invisible, what is a digit, what separates.
 * Everything here is about characters; parse.ts decides what the parts mean.
 */

export type DigitSystem = 'western' | 'arabic-indic' | 'eastern-arabic-indic';

/** Families of separators: within one number every separator slot must use one family. */
export type SeparatorKind = 'slash' | 'hyphen' | 'dot' | 'arabic-comma' | 'bar' | 'space';

const FAMILIES: Record<Exclude<SeparatorKind, 'space'>, string> = {
  // solidus, reverse solidus, fraction slash, division slash, fullwidth solidus
  slash: '/\\\u2044\u2215\uFF0F',
  // hyphen-minus, hyphen, non-breaking hyphen, figure dash, en dash, em dash, minus, small and
  // fullwidth hyphen-minus: word processors and OCR turn '-' into any of these
  hyphen: '-\u2010\u2011\u2012\u2013\u2014\u2212\uFE63\uFF0D',
  dot: '.\uFF0E',
  'arabic-comma': '\u060C',
  bar: '|\uFF5C',
};

/** Every character accepted as a separator; a pattern must spell all its slots '/'. */
export const SEPARATOR_CHARACTERS = Object.values(FAMILIES).join('');

/**
 * Invisible formatting characters, removed before anything else: LRM, RLM, ALM (U+061C), the
 * bidi embeddings/overrides U+202A–U+202E and isolates U+2066–U+2069, ZWSP/ZWNJ/ZWJ
 * U+200B–U+200D, word joiner U+2060, soft hyphen U+00AD and BOM/ZWNBSP U+FEFF. They are
 * invisible, so removing them cannot join what a reader saw as separate.
 */
const INVISIBLE_RE = /[\u200B-\u200F\u061C\u202A-\u202E\u2060\u2066-\u2069\u00AD\uFEFF]/gu;
/** Any white space, including NBSP U+00A0, U+202F and ideographic space: becomes one ' '. */
const SPACE_RE = /\s+/gu;
const ESCAPED_SEPARATORS = SEPARATOR_CHARACTERS.replace(/[\\\]^-]/g, '\\$&');
const SPLIT_RE = new RegExp(` ?([${ESCAPED_SEPARATORS}]) ?| `, 'gu');
const ANY_DIGIT_RE = /\p{Nd}/u;

/** NFC, invisible marks removed, white space runs collapsed to one space, trimmed. */
export function cleanNumberText(raw: string): string {
  return raw.normalize('NFC').replace(INVISIBLE_RE, '').replace(SPACE_RE, ' ').trim();
}

export interface SplitText {
  readonly parts: readonly string[];
  /** One entry per gap between parts: the family and the character as written. */
  readonly separators: readonly { readonly kind: SeparatorKind; readonly char: string }[];
}

/**
 * Splits cleaned text on separators: one separator character with optional spaces around it,
 * or spaces alone. Empty parts (`'12//3'`, `'/12'`) are kept as '' for the caller to refuse.
 */
export function splitParts(cleaned: string): SplitText {
  const parts: string[] = [];
  const separators: { kind: SeparatorKind; char: string }[] = [];
  let start = 0;
  for (const m of cleaned.matchAll(SPLIT_RE)) {
    parts.push(cleaned.slice(start, m.index));
    const char = m[1] ?? ' ';
    separators.push({ kind: separatorKind(char), char });
    start = m.index + m[0].length;
  }
  parts.push(cleaned.slice(start));
  return { parts, separators };
}

function separatorKind(char: string): SeparatorKind {
  for (const [kind, chars] of Object.entries(FAMILIES)) {
    if (chars.includes(char)) return kind as SeparatorKind;
  }
  return 'space';
}

export interface WesternText {
  /** The text with every supported digit replaced by its Western (ASCII) digit. */
  readonly text: string;
  /** Digit systems that occurred, in order of first appearance. */
  readonly systems: readonly DigitSystem[];
  /** First digit of another system (Devanagari, fullwidth, ...) as 'U+FF11', or null. */
  readonly foreignDigit: string | null;
}

/** Maps Arabic-Indic (U+0660–U+0669) and Eastern Arabic-Indic (U+06F0–U+06F9) digits to 0–9. */
export function toWesternDigits(text: string): WesternText {
  let out = '';
  const systems: DigitSystem[] = [];
  let foreignDigit: string | null = null;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const [system, value] = digitOf(cp);
    if (system === null) {
      if (foreignDigit === null && ANY_DIGIT_RE.test(ch)) foreignDigit = codePointName(ch);
      out += ch;
      continue;
    }
    if (!systems.includes(system)) systems.push(system);
    out += String(value);
  }
  return { text: out, systems, foreignDigit };
}

function digitOf(cp: number): [DigitSystem | null, number] {
  if (cp >= 0x30 && cp <= 0x39) return ['western', cp - 0x30];
  if (cp >= 0x660 && cp <= 0x669) return ['arabic-indic', cp - 0x660];
  if (cp >= 0x6f0 && cp <= 0x6f9) return ['eastern-arabic-indic', cp - 0x6f0];
  return [null, 0];
}

/** 'U+0662' for a character, for messages that must not depend on fonts or bidi. */
export function codePointName(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}
