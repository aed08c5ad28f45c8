import { describe, expect, it } from 'vitest';
import { jaro, jaroWinkler } from './jaro-winkler.js';

// Winkler (1990) Table 1 and the pairs every implementation quotes.
const REFERENCE_PAIRS: readonly { a: string; b: string; jaro: number; jw: number }[] = [
  { a: 'MARTHA', b: 'MARHTA', jaro: 0.944, jw: 0.961 },
  { a: 'DWAYNE', b: 'DUANE', jaro: 0.822, jw: 0.84 },
  { a: 'DIXON', b: 'DICKSONX', jaro: 0.767, jw: 0.813 },
  { a: 'JONES', b: 'JOHNSON', jaro: 0.79, jw: 0.832 },
  { a: 'ABROMS', b: 'ABRAMS', jaro: 0.889, jw: 0.922 },
];

describe('Jaro–Winkler', () => {
  it.each(REFERENCE_PAIRS)('$a / $b → Jaro $jaro, Jaro–Winkler $jw', ({ a, b, jaro: j, jw }) => {
    expect(jaro(a, b)).toBeCloseTo(j, 3);
    expect(jaroWinkler(a, b)).toBeCloseTo(jw, 3);
    expect(jaroWinkler(b, a)).toBeCloseTo(jw, 3);
  });

  it('is 1 for equal strings, 0 for strings with no common character, and counts code points', () => {
    expect(jaroWinkler('محمد', 'محمد')).toBe(1);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
    expect(jaroWinkler('', 'abc')).toBe(0);
    expect(jaroWinkler('', '')).toBe(1);
    // Two Arabic words one letter apart: 3 of 4 code points match in order.
    expect(jaro('محمد', 'محمود')).toBeCloseTo((4 / 4 + 4 / 5 + 1) / 3, 10);
  });

  it('gives no prefix bonus at or below a Jaro of 0.7', () => {
    const j = jaro('ab', 'ac');
    expect(j).toBeLessThanOrEqual(0.7);
    expect(jaroWinkler('ab', 'ac')).toBe(j);
  });
});
