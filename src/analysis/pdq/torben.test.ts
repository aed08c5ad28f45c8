import { describe, expect, it } from 'vitest';
import { torben } from './torben.js';

/** Small deterministic PRNG (mulberry32) so failures reproduce. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function lowerMedianBySort(values: Float32Array): number {
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.trunc((values.length - 1) / 2)] as number;
}

describe('torben', () => {
  it('equals the lower median found by sorting, for 256 random floats (the PDQ case)', () => {
    const r = random(42);
    for (let trial = 0; trial < 200; trial++) {
      const m = Float32Array.from({ length: 256 }, () => (r() - 0.5) * 2000);
      expect(torben(m)).toBe(lowerMedianBySort(m));
    }
  });

  it('handles ties, negative zero, odd lengths and tiny inputs', () => {
    const r = random(7);
    for (const n of [1, 2, 3, 5, 16, 255, 256, 257]) {
      for (let trial = 0; trial < 20; trial++) {
        // few distinct values -> many ties
        const m = Float32Array.from({ length: n }, () => Math.floor(r() * 5) - 2);
        expect(torben(m)).toBe(lowerMedianBySort(m));
      }
    }
    expect(torben(Float32Array.of(3, 1, 2, 4))).toBe(2);
    expect(torben(Float32Array.of(5, 5, 5, 5))).toBe(5);
  });

  it('does not reorder its input', () => {
    const m = Float32Array.of(9, 3, 7, 1);
    torben(m);
    expect(Array.from(m)).toEqual([9, 3, 7, 1]);
  });
});
