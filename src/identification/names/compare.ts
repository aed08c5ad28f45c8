// Comparing two names across scripts, part order and dropped parts. The level says how the names
// agree (the levels of a Fellegi–Sunter comparison); the similarity, a Jaro–Winkler score on the
// keys, says how close they are when they do not.
import { jaroWinkler } from './jaro-winkler.js';
import { withinOneEdit } from './edit-distance.js';
import { beforeSkeleton, tokenKey } from './name-key.js';
import { tokens } from './tokens.js';
import { shapesCompatible, vowelShape, type VowelShape } from './vowels.js';

/**
 * exact: the same text (case and spacing aside); normalised: the same parts, in any order and
 * either script (same key, vowels compatible: vowels.ts); subset: every part of one is a part of
 * the other (dropped parts); skeleton: the same or contained parts by key alone, the vowels
 * disagreeing (محمد / محمود, Hassan / Hussein, or French ou for a short u); different: none of
 * these; missing: one side is empty. Between two parts written in Arabic script, 'normalised'
 * asks for the same letters once normalised (the script writes the long vowels and ع that the
 * key drops: علي and ليلى, زياد and آزاد share a key, not a spelling); the key alone is 'skeleton'.
 * one_edit: every part of one meets a part of the other, one of them across one typo (a
 * Damerau–Levenshtein edit of the spelling within one script, of the key across scripts).
 */
export const NAME_LEVELS = [
  'exact',
  'normalised',
  'subset',
  'skeleton',
  'one_edit',
  'different',
  'missing',
] as const;
export type NameLevel = (typeof NAME_LEVELS)[number];

export interface NameComparison {
  readonly level: NameLevel;
  /** Jaro–Winkler on the keys, part by part (Monge–Elkan from the shorter name), in [0, 1]. */
  readonly similarity: number;
}

/** A name read once, for comparing many times (linkage compares each record with many). */
export interface PreparedName {
  /** One number per distinct name and handling (prepareName interns): the key of the comparison cache. */
  readonly id: number;
  readonly text: string;
  readonly tokens: readonly string[];
  readonly keys: readonly string[];
  /** The keys sorted, joined: equal for names with the same parts in any order. */
  readonly bag: string;
  readonly shapes: readonly VowelShape[];
  /** Each part as its script's table leaves it, vowels in (name-key.ts beforeSkeleton). */
  readonly forms: readonly string[];
  /** Whether each part is in Arabic script. */
  readonly arabic: readonly boolean[];
}

/**
 * 'normalised' (the default): parts and keys through the Arabic normalisation and the
 * transliteration tables. 'plain': each space-separated word in lower case (NFC) is its own key,
 * nothing unified: what linkage sees without the Arabic-aware handling (the benchmark's
 * "normalisation off").
 */
export type NameHandling = 'normalised' | 'plain';

/** Words of a name as they are written, lower case: the parts and keys of the 'plain' handling. */
function plainWords(name: string): string[] {
  return name
    .normalize('NFC')
    .toLowerCase()
    .split(/\s+/u)
    .filter((w) => w !== '');
}

/**
 * Names read, by handling and text, and comparisons made, by the two names' ids: linkage compares
 * the same few tens of thousands of names millions of times (20,000 reports: 1.7 M candidate
 * pairs, some 30 name comparisons each). Both are bounded; the comparisons are cleared with the names.
 */
const interned = new Map<string, PreparedName>();
const comparisons = new Map<number, Map<number, NameComparison>>();
const INTERN_LIMIT = 1 << 20;
const COMPARISON_LIMIT = 4_000_000;
let comparisonCount = 0;
/** Never reused (a name read before a clear keeps its id), so a cached comparison is never another pair's. */
let nextId = 0;

/** Reads a name once: its folded text, parts and keys. */
export function prepareName(name: string, handling: NameHandling = 'normalised'): PreparedName {
  const key = `${handling}\u0000${name}`;
  const known = interned.get(key);
  if (known !== undefined) return known;
  if (interned.size >= INTERN_LIMIT) interned.clear();
  const out = readName(name, handling, nextId++);
  interned.set(key, out);
  return out;
}

function readName(name: string, handling: NameHandling, id: number): PreparedName {
  if (handling === 'plain') {
    const words = plainWords(name);
    return {
      id,
      text: words.join(' '),
      tokens: words,
      keys: words,
      bag: [...words].sort().join(' '),
      shapes: words.map((w) => ({ consonants: w, gaps: [] })),
      forms: words,
      arabic: words.map(() => false),
    };
  }
  const parts = tokens(name);
  const keys = parts.map((t) => tokenKey(t));
  return {
    id,
    text: name.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim(),
    tokens: parts,
    keys,
    bag: [...keys].sort().join(' '),
    shapes: parts.map((t) => vowelShape(t)),
    forms: parts.map((t) => beforeSkeleton(t)),
    arabic: parts.map((t) => /[\u0620-\u06FF]/u.test(t)),
  };
}

/** Parts i of x and j of y agree strictly: one key, and the same Arabic letters or compatible vowels. */
function strictPart(x: PreparedName, i: number, y: PreparedName, j: number): boolean {
  if (x.arabic[i] === true && y.arabic[j] === true) return x.forms[i] === y.forms[j];
  return shapesCompatible(x.shapes[i] as VowelShape, y.shapes[j] as VowelShape);
}

/**
 * True when every part of `small` meets a part of `large` (each used once): by key alone, or
 * (strict) by key with the same Arabic letters or compatible vowels.
 */
function isSubBag(small: PreparedName, large: PreparedName, strict: boolean): boolean {
  const used = new Array<boolean>(large.keys.length).fill(false);
  return small.keys.every((k, i) => {
    const j = large.keys.findIndex(
      (l, jj) => !used[jj] && l === k && (!strict || strictPart(small, i, large, jj)),
    );
    if (j < 0) return false;
    used[j] = true;
    return true;
  });
}

/** Shorter spellings than this are not read as typos: one edit makes most short names another. */
const MIN_TYPO_LENGTH = 3;

/**
 * Parts i of x and j of y are one typo apart: the spelling as written (Arabic normalised, Latin in
 * lower case) within one script, the key across scripts.
 */
function oneTypo(x: PreparedName, i: number, y: PreparedName, j: number): boolean {
  const sameScript = x.arabic[i] === y.arabic[j];
  const [p, q] = sameScript
    ? [x.tokens[i] ?? '', y.tokens[j] ?? '']
    : [x.keys[i] ?? '', y.keys[j] ?? ''];
  return (
    Math.min(Array.from(p).length, Array.from(q).length) >= MIN_TYPO_LENGTH && withinOneEdit(p, q)
  );
}

/** Every part of `small` meets a part of `large` by key, but one that meets its part across one typo. */
function isSubBagButOneTypo(small: PreparedName, large: PreparedName): boolean {
  const used = new Array<boolean>(large.keys.length).fill(false);
  let typos = 0;
  const matched = small.keys.every((k, i) => {
    let j = large.keys.findIndex((l, jj) => !used[jj] && l === k);
    if (j < 0 && typos === 0) {
      j = large.keys.findIndex((_, jj) => !used[jj] && oneTypo(small, i, large, jj));
      if (j >= 0) typos++;
    }
    if (j < 0) return false;
    used[j] = true;
    return true;
  });
  return matched && typos === 1;
}

/** Jaro–Winkler of two keys, remembered: linkage compares the same few thousand keys again and again. */
const jwCache = new Map<string, number>();
const JW_CACHE_LIMIT = 500_000;
function keyJaroWinkler(k: string, l: string): number {
  if (k === l) return 1;
  const id = k < l ? `${k}\u0000${l}` : `${l}\u0000${k}`;
  let v = jwCache.get(id);
  if (v === undefined) {
    if (jwCache.size >= JW_CACHE_LIMIT) jwCache.clear();
    v = jaroWinkler(k, l);
    jwCache.set(id, v);
  }
  return v;
}

/** Monge–Elkan: the mean, over the parts of the shorter name, of the best Jaro–Winkler in the other. */
function keySimilarity(a: readonly string[], b: readonly string[]): number {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length === 0) return 0;
  let sum = 0;
  for (const k of short) {
    let best = 0;
    for (const l of long) best = Math.max(best, keyJaroWinkler(k, l));
    sum += best;
  }
  return sum / short.length;
}

/** Compares two prepared names (remembered by their ids). */
export function comparePrepared(a: PreparedName, b: PreparedName): NameComparison {
  let row = comparisons.get(a.id);
  const known = row?.get(b.id);
  if (known !== undefined) return known;
  if (comparisonCount >= COMPARISON_LIMIT) {
    comparisons.clear();
    comparisonCount = 0;
    row = undefined;
  }
  if (row === undefined) {
    row = new Map();
    comparisons.set(a.id, row);
  }
  const out = compareUncached(a, b);
  row.set(b.id, out);
  comparisonCount++;
  return out;
}

function compareUncached(a: PreparedName, b: PreparedName): NameComparison {
  if (a.keys.length === 0 || b.keys.length === 0) return { level: 'missing', similarity: 0 };
  if (a.text === b.text) return { level: 'exact', similarity: 1 };
  const [short, long] = a.keys.length <= b.keys.length ? [a, b] : [b, a];
  if (isSubBag(short, long, true)) {
    return { level: a.keys.length === b.keys.length ? 'normalised' : 'subset', similarity: 1 };
  }
  if (isSubBag(short, long, false)) return { level: 'skeleton', similarity: 1 };
  if (isSubBagButOneTypo(short, long)) {
    return { level: 'one_edit', similarity: keySimilarity(a.keys, b.keys) };
  }
  return { level: 'different', similarity: keySimilarity(a.keys, b.keys) };
}

/**
 * Compares two names, in Arabic script or Latin letters, in any part order.
 *
 * @example
 *   compareNames('Mohammed Al-Hassan', 'محمد الحسن') // { level: 'normalised', similarity: 1 }
 *   compareNames('Ahmad Ali', 'Ahmad Mohammed Ali') // { level: 'subset', similarity: 1 }
 *   compareNames('Khaled', 'Kaled') // { level: 'different', similarity: 0.9… }
 */
export function compareNames(a: string, b: string): NameComparison {
  return comparePrepared(prepareName(a), prepareName(b));
}

/** Rank of a level, lower is stronger agreement. */
export function levelRank(level: NameLevel): number {
  return NAME_LEVELS.indexOf(level);
}

/** The stronger of two comparisons: the better level, then the higher similarity. */
export function betterComparison(x: NameComparison, y: NameComparison): NameComparison {
  const dx = levelRank(x.level);
  const dy = levelRank(y.level);
  if (dx !== dy) return dx < dy ? x : y;
  return x.similarity >= y.similarity ? x : y;
}
