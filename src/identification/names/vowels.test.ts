import { describe, expect, it } from 'vitest';
import { tokenKey } from './name-key.js';
import { tokens } from './tokens.js';
import { vowelShape, vowelsCompatible } from './vowels.js';

/** Parts that share a key: whether their vowels let them be one name. */
const VOWEL_CASES: readonly (readonly [string, string, boolean])[] = [
  ['محمد', 'محمود', false],
  ['Mohammed', 'محمود', false],
  ['Mahmoud', 'محمد', false],
  ['Mohammed', 'Mahmoud', false],
  ['Mohammed', 'Muhammad', true],
  ['Mohamad', 'محمد', true],
  ['حسن', 'حسين', false],
  ['Hassan', 'حسين', false],
  ['Hussein', 'حسن', false],
  ['Hassan', 'Hussein', false],
  ['Hussein', 'حسين', true],
  ['Youssef', 'Yusuf', true],
  ['Youssef', 'يوسف', true],
  ['Zeinab', 'Zainab', true],
  ['Zainab', 'زينب', true],
  ['Omar', 'عمر', true],
  ['Ibrahim', 'ابراهيم', true],
  ['ابرهيم', 'ابراهيم', true],
  ['Saeed', 'سعيد', true],
  ['Marwan', 'مروان', true],
  ['Fatimah', 'فاطمة', true],
  ['Abdul Rahman', 'عبد الرحمن', true],
];

describe('vowelsCompatible: one test per case', () => {
  it.each(VOWEL_CASES)('%s / %s → %s', (a, b, compatible) => {
    const [ta = '', tb = ''] = [tokens(a)[0], tokens(b)[0]];
    expect(tokenKey(ta)).toBe(tokenKey(tb));
    expect(vowelsCompatible(ta, tb)).toBe(compatible);
    expect(vowelsCompatible(tb, ta)).toBe(compatible);
  });
});

describe('vowelShape', () => {
  it('has the consonants of the key and one gap more', () => {
    for (const name of ['محمود', 'mahmoud', 'abdulrahman', 'fatimah', 'hassan', 'عيسى', 'sawsan']) {
      const shape = vowelShape(name);
      expect(shape.consonants).toBe(tokenKey(name));
      expect(shape.gaps).toHaveLength(shape.consonants.length + 1);
    }
  });
});
