import { describe, expect, it } from 'vitest';
import { compareNames, comparePrepared, prepareName, type NameLevel } from './compare.js';
import {
  NAME_PART_LAYOUTS,
  alignNameParts,
  prepareParts,
  splitNameParts,
  type NameParts,
} from './name-parts.js';

/** Pairs of names and the level they must compare at. */
const COMPARISON_CASES: readonly (readonly [string, string, NameLevel])[] = [
  ['Mohammed Al-Hassan', 'mohammed  al-hassan', 'exact'],
  ['Mohammed Al-Hassan', 'محمد الحسن', 'normalised'],
  ['Mhd Abdul Rahman', 'Muhammad Abd al-Rahman', 'normalised'],
  ['أحمد علي', 'علي أحمد', 'normalised'],
  ['Ahmad Ali', 'Ahmad Mohammed Ali', 'subset'],
  ['أحمد', 'احمد محمد العلي', 'subset'],
  ['Mohammed Ali', 'محمود علي', 'skeleton'],
  ['Hassan', 'Hussein Hamdan', 'skeleton'],
  // Arabic script writes the long vowels and ع the key drops: the same key, not the same name.
  ['علي', 'ليلى', 'skeleton'],
  ['زياد', 'آزاد', 'skeleton'],
  ['أيمن', 'آمنة', 'skeleton'],
  ['سعيد', 'سعاد', 'skeleton'],
  // ...while the spelling variants normalisation unifies still agree.
  ['أسامة', 'اسامه', 'normalised'],
  ['ئەحمەد', 'أحمد', 'normalised'],
  ['عبد الله', 'عبدالله', 'normalised'],
  // One typo: in the spelling within a script, in the key across scripts. Not a merge: خ and ك
  // keep their keys (name-key.ts), a typo is a weaker level of its own.
  ['علي', 'عكي', 'one_edit'],
  ['Khaled', 'Khaeld', 'normalised'], // vowels aside, the same key
  ['Ahmad', 'Amhad', 'one_edit'],
  ['Khaled', 'Kaled', 'one_edit'],
  ['Kahled Hamdan', 'Khaled', 'one_edit'],
  ['حمدان', 'Hamdn', 'normalised'],
  ['حمدان', 'Hamdam', 'one_edit'],
  ['Ali', 'Aly', 'normalised'],
  ['Ali', 'Eli', 'normalised'],
  ['Ali', 'Abi', 'one_edit'],
  ['Ali', 'Aboud', 'different'],
  ['Khaled', 'Samir', 'different'],
  ['Omar', '', 'missing'],
];

describe('compareNames: one test per case', () => {
  it.each(COMPARISON_CASES)('%s / %s → %s', (a, b, level) => {
    expect(compareNames(a, b).level).toBe(level);
    expect(compareNames(b, a).level).toBe(level);
  });
});

describe('compareNames', () => {
  it('gives a Jaro–Winkler similarity below 1 to names that differ, higher for closer ones', () => {
    const typo = compareNames('Khaled', 'Khalid Hamdan'); // same key, kept as subset
    expect(typo).toEqual({ level: 'subset', similarity: 1 });
    const close = compareNames('Mahmoud', 'Mahmud Hamdan');
    expect(close.level).toBe('subset');
    const near = compareNames('Khaled', 'Kaled');
    const far = compareNames('Khaled', 'Samir');
    expect(near.similarity).toBeGreaterThan(0.7);
    expect(near.similarity).toBeLessThan(1);
    expect(far.similarity).toBeLessThan(near.similarity);
  });
});

describe('splitNameParts: one test per layout', () => {
  it.each(NAME_PART_LAYOUTS.map((row) => [row.parts, row] as const))('%i parts', (_, row) => {
    const [name, expected] = row.example;
    expect(splitNameParts(name)).toEqual(expected);
  });

  it('keeps the first three positions and the last of a longer name', () => {
    expect(splitNameParts('a b c d e')).toEqual({
      given: 'a',
      father: 'b',
      grandfather: 'c',
      family: 'e',
    });
    expect(splitNameParts('  ')).toEqual({});
  });
});

/** Name-part order and dropped parts: each row is two reports of one person. */
const ORDER_CASES: readonly (readonly [
  string,
  NameParts,
  NameParts,
  'as-written' | 'family-first',
])[] = [
  [
    'the same order, Arabic against Latin',
    { given: 'أحمد', father: 'محمد', family: 'الحسن' },
    { given: 'Ahmad', father: 'Mohammed', family: 'Al Hassan' },
    'as-written',
  ],
  [
    'family name written first in Latin letters',
    { given: 'أحمد', family: 'الحسن' },
    { given: 'Al Hassan', family: 'Ahmad' },
    'family-first',
  ],
  [
    'a dropped grandfather leaves the other parts aligned',
    { given: 'Ahmad', father: 'Mohammed', grandfather: 'Ali', family: 'Hamdan' },
    { given: 'احمد', father: 'محمد', family: 'حمدان' },
    'as-written',
  ],
];

describe('alignNameParts: one test per order case', () => {
  it.each(ORDER_CASES)('%s', (_, a, b, order) => {
    const aligned = alignNameParts(prepareParts(a), prepareParts(b));
    expect(aligned.order).toBe(order);
    expect(['exact', 'normalised']).toContain(aligned.parts.given.level);
    expect(['exact', 'normalised']).toContain(aligned.parts.family.level);
  });
});

describe('prepared names and the comparison cache', () => {
  it('reads a name once per handling, each distinct name with its own id', () => {
    expect(prepareName('Khaled Omar')).toBe(prepareName('Khaled Omar'));
    expect(prepareName('Khaled Omar', 'plain')).not.toBe(prepareName('Khaled Omar'));
    expect(prepareName('Khaled Omar').id).not.toBe(prepareName('Khalid Omar').id);
  });

  it('gives every pair its own comparison, in either order', () => {
    const names = ['Khaled', 'خالد', 'Kaled', 'Khalil', 'Omar', 'عمر'].map((n) => prepareName(n));
    for (const a of names) {
      for (const b of names) {
        const expected = compareNames(a.text, b.text);
        expect(comparePrepared(a, b)).toEqual(expected);
        expect(comparePrepared(a, b)).toEqual(expected);
      }
    }
  });
});
