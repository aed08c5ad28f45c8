// The skeleton key drops vowels, so محمد and محمود, حسن and حسين, Mohammed and Mahmoud share a
// key. Arabic script writes long vowels (ا و ي) and leaves short ones out; Latin spellings mark
// long vowels by digraphs (ou, ee, ei, ai, aa) or y/w. vowelsCompatible() reads the vowels between
// the consonants of two parts with one key and says whether they can be one name: a long vowel on
// one side must meet a vowel of its class on the other (a, i, u), and an Arabic و or ي must meet
// some vowel. The first and last gaps are not checked (Oussama, Fatimah, مصطفى). French ou for a
// short u (Houda, Moustafa) does not meet an unwritten vowel: such pairs fall to the 'skeleton'
// level rather than 'normalised', which weakens the evidence, not discards it.
import { beforeSkeleton, KEY_TABLES, type KeyTables } from './name-key.js';

export type VowelClass = 'a' | 'i' | 'u';

/** Latin vowel spellings, longest first; a unit of two letters (or y, w) marks a long vowel. */
export const LATIN_VOWEL_UNITS: readonly {
  unit: string;
  classes: readonly VowelClass[];
  long: boolean;
}[] = [
  { unit: 'U', classes: ['u'], long: true }, // ou, by LATIN_KEY_RULES
  { unit: 'oo', classes: ['u'], long: true },
  { unit: 'uu', classes: ['u'], long: true },
  { unit: 'ee', classes: ['i'], long: true },
  { unit: 'ei', classes: ['i'], long: true },
  { unit: 'ie', classes: ['i'], long: true },
  { unit: 'ey', classes: ['i'], long: true },
  { unit: 'ay', classes: ['i'], long: true },
  { unit: 'ai', classes: ['i'], long: true },
  { unit: 'ii', classes: ['i'], long: true },
  { unit: 'aa', classes: ['a'], long: true },
  { unit: 'y', classes: ['i'], long: true },
  { unit: 'w', classes: ['u'], long: true },
  { unit: 'a', classes: ['a'], long: false },
  { unit: 'e', classes: ['a', 'i'], long: false },
  { unit: 'i', classes: ['i'], long: false },
  { unit: 'o', classes: ['u'], long: false },
  { unit: 'u', classes: ['u'], long: false },
];

/** The key letters of Arabic vowels after ARABIC_KEY_LETTERS: ا, و, ي are long; ع is a seat. */
const ARABIC_VOWELS: Readonly<Record<string, VowelClass | 'seat'>> = {
  a: 'a',
  w: 'u',
  y: 'i',
  "'": 'seat',
};

export interface Gap {
  readonly classes: ReadonlySet<VowelClass>;
  readonly long: boolean;
  /** An ع (or hamza) in the gap: Latin writes it as a vowel, an apostrophe or nothing. */
  readonly seat: boolean;
}

export interface VowelShape {
  readonly consonants: string;
  /** gaps[k] precedes consonant k; gaps[consonants.length] is the trailing gap. */
  readonly gaps: readonly Gap[];
}

interface MutableGap {
  classes: Set<VowelClass>;
  long: boolean;
  seat: boolean;
}
const emptyGap = (): MutableGap => ({ classes: new Set(), long: false, seat: false });
const merge = (a: MutableGap, b: MutableGap): MutableGap => ({
  classes: new Set([...a.classes, ...b.classes]),
  long: a.long || b.long,
  seat: a.seat || b.seat,
});

function readGaps(s: string, arabic: boolean): { consonants: string[]; gaps: MutableGap[] } {
  const consonants: string[] = [];
  const gaps: MutableGap[] = [emptyGap()];
  let i = 0;
  while (i < s.length) {
    const gap = gaps[gaps.length - 1] as MutableGap;
    const c = s[i] ?? '';
    const opening = i === 0 && (c === 'y' || c === 'w');
    if (arabic && !opening && ARABIC_VOWELS[c] !== undefined) {
      const v = ARABIC_VOWELS[c];
      if (v === 'seat') gap.seat = true;
      else if (v !== undefined) {
        gap.classes.add(v);
        gap.long = true;
      }
      i += 1;
      continue;
    }
    const unit =
      arabic || opening ? undefined : LATIN_VOWEL_UNITS.find((u) => s.startsWith(u.unit, i));
    if (unit !== undefined) {
      for (const cl of unit.classes) gap.classes.add(cl);
      gap.long ||= unit.long;
      i += unit.unit.length;
      continue;
    }
    if (!arabic && c === "'") {
      gap.seat = true;
      i += 1;
      continue;
    }
    consonants.push(c);
    gaps.push(emptyGap());
    i += 1;
  }
  return { consonants, gaps };
}

/**
 * The consonants of a part, as in its key, and the vowels between them.
 *
 * @example
 *   vowelShape('محمود').gaps[3] // { classes: {'u'}, long: true, seat: false } (between م and د)
 */
export function vowelShape(token: string, tables: KeyTables = KEY_TABLES): VowelShape {
  const arabic = /[\u0620-\u06FF]/u.test(token);
  const { consonants, gaps } = readGaps(beforeSkeleton(token, tables), arabic);
  // The skeleton drops a final h and merges equal neighbours: follow it.
  if (consonants.length > 1 && consonants[consonants.length - 1] === 'h') {
    consonants.pop();
    const last = gaps.pop() as MutableGap;
    gaps[gaps.length - 1] = merge(gaps[gaps.length - 1] as MutableGap, last);
  }
  for (let k = consonants.length - 1; k > 0; k--) {
    if (consonants[k] === consonants[k - 1]) {
      consonants.splice(k, 1);
      const [between, after] = gaps.splice(k, 2) as [MutableGap, MutableGap];
      gaps.splice(k, 0, merge(between, after));
    }
  }
  return { consonants: consonants.join('').toLowerCase(), gaps };
}

function gapsCompatible(x: Gap, y: Gap): boolean {
  if (x.seat || y.seat) return true;
  const ex = x.classes.size === 0;
  const ey = y.classes.size === 0;
  if (ex && ey) return true;
  if (ex || ey) {
    const other = ex ? y : x;
    return !(other.long && (other.classes.has('u') || other.classes.has('i')));
  }
  if (!x.long && !y.long) return true;
  return [...x.classes].some((c) => y.classes.has(c));
}

/** True when two parts with one key may be one name, by the vowels between their consonants. */
export function vowelsCompatible(a: string, b: string): boolean {
  return shapesCompatible(vowelShape(a), vowelShape(b));
}

/** vowelsCompatible on shapes read once. */
export function shapesCompatible(x: VowelShape, y: VowelShape): boolean {
  if (x.consonants !== y.consonants) return false;
  for (let k = 1; k < x.gaps.length - 1; k++) {
    if (!gapsCompatible(x.gaps[k] as Gap, y.gaps[k] as Gap)) return false;
  }
  return true;
}
