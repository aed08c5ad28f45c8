import { describe, expect, it } from 'vitest';
import { ARABIC_NORMALISATION_RULES, normaliseArabic } from './arabic.js';

describe('normaliseArabic: one test per rule', () => {
  it.each(ARABIC_NORMALISATION_RULES.map((row) => [row.rule, row] as const))('%s', (_, row) => {
    for (const [input, expected] of row.examples) {
      expect(normaliseArabic(input)).toBe(expected);
      // The row itself changes its example: no row is carried by the others.
      expect(row.apply(input)).not.toBe(input);
    }
  });
});

describe('normaliseArabic', () => {
  it('never merges khah with kaf, nor touches Latin text', () => {
    expect(normaliseArabic('خالد')).not.toBe(normaliseArabic('كالد'));
    expect(normaliseArabic('Khaled al-Ali')).toBe('Khaled al-Ali');
  });

  it('is idempotent on every example', () => {
    for (const row of ARABIC_NORMALISATION_RULES) {
      for (const [input] of row.examples) {
        const once = normaliseArabic(input);
        expect(normaliseArabic(once)).toBe(once);
      }
    }
  });
});
