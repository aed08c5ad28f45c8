import { describe, expect, it } from 'vitest';
import { boxAlongCols, boxAlongRows, decimate, jaroszWindowSize } from './jarosz.js';

/** The box mean over [i - floor((w-1)/2), i + floor(w/2)] clipped to [0, n), in double. */
function naiveBox(v: number[], w: number): number[] {
  return v.map((_, i) => {
    const lo = Math.max(0, i - Math.floor((w - 1) / 2));
    const hi = Math.min(v.length - 1, i + Math.floor(w / 2));
    let s = 0;
    for (let k = lo; k <= hi; k++) s += v[k] as number;
    return s / (hi - lo + 1);
  });
}

describe('Jarosz helpers', () => {
  it('window size is ceil(old / (2 * new)) (computeJaroszFilterWindowSize)', () => {
    expect(jaroszWindowSize(1024, 64)).toBe(8);
    expect(jaroszWindowSize(1025, 64)).toBe(9);
    expect(jaroszWindowSize(64, 64)).toBe(1);
    expect(jaroszWindowSize(5, 64)).toBe(1);
    expect(jaroszWindowSize(1600, 64)).toBe(13);
  });

  it('the row box is the clipped windowed mean, for odd and even windows', () => {
    // Small integers keep every float32 sum exact, so only the final division rounds.
    const row = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3];
    for (const w of [1, 2, 3, 4, 7, 8, 16]) {
      const out = new Float32Array(row.length);
      boxAlongRows(Float32Array.from(row), out, 1, row.length, w);
      expect(Array.from(out)).toEqual(naiveBox(row, w).map(Math.fround));
    }
  });

  it('the column box equals the row box on the transpose', () => {
    const rows = 13;
    const cols = 6;
    const a = Float32Array.from({ length: rows * cols }, (_, i) => ((i * 37) % 101) / 3);
    const t = new Float32Array(rows * cols);
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) t[c * rows + r] = a[r * cols + c] as number;
    const viaCols = new Float32Array(rows * cols);
    const viaRows = new Float32Array(rows * cols);
    boxAlongCols(a, viaCols, rows, cols, 4);
    boxAlongRows(t, viaRows, cols, rows, 4);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) expect(viaCols[r * cols + c]).toBe(viaRows[c * rows + r]);
    }
  });

  it('decimation samples cell centres, and is the identity at 64×64', () => {
    const big = Float32Array.from({ length: 128 * 128 }, (_, i) => i);
    const out = decimate(big, 128, 128, 64, 64);
    expect(out[0]).toBe(1 * 128 + 1); // floor(0.5 * 2) = 1
    expect(out[64 * 64 - 1]).toBe(127 * 128 + 127);
    const same = Float32Array.from({ length: 64 * 64 }, (_, i) => i * 0.5);
    expect(decimate(same, 64, 64, 64, 64)).toEqual(same);
  });
});
