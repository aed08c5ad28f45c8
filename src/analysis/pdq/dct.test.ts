import { describe, expect, it } from 'vitest';
import {
  DCT_MATRIX_16x64,
  dct64To16,
  DIHEDRAL_NAMES,
  dihedralDct,
  type DihedralName,
} from './dct.js';

const N = 64;

/** A deterministic, non-symmetric 64×64 test image with values in 0..255. */
function testImage(): Float32Array {
  return Float32Array.from({ length: N * N }, (_, k) => {
    const r = Math.floor(k / N);
    const c = k % N;
    return (
      128 + 60 * Math.sin(r / 5 + c / 11) + 40 * Math.cos((r * c) / 300) + ((r * 7 + c * 13) % 17)
    );
  });
}

/** Pixel-domain versions of the eight transforms (names as in pdqhashing.h). */
const PIXEL_TRANSFORMS: Record<DihedralName, (r: number, c: number) => [number, number]> = {
  original: (r, c) => [r, c],
  rotate90: (r, c) => [c, N - 1 - r], // counter-clockwise
  rotate180: (r, c) => [N - 1 - r, N - 1 - c],
  rotate270: (r, c) => [N - 1 - c, r], // clockwise
  flipX: (r, c) => [N - 1 - r, c], // top <-> bottom
  flipY: (r, c) => [r, N - 1 - c], // left <-> right
  flipPlus1: (r, c) => [c, r], // transpose
  flipMinus1: (r, c) => [N - 1 - c, N - 1 - r], // anti-transpose
};

function transform(a: Float32Array, which: DihedralName): Float32Array {
  const out = new Float32Array(N * N);
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      const [sr, sc] = PIXEL_TRANSFORMS[which](r, c);
      out[r * N + c] = a[sr * N + sc] as number;
    }
  }
  return out;
}

describe('DCT matrix', () => {
  it('has orthonormal rows (up to float32 rounding)', () => {
    for (let i = 0; i < 16; i++) {
      for (let j = 0; j < 16; j++) {
        let dot = 0;
        for (let k = 0; k < 64; k++)
          dot +=
            (DCT_MATRIX_16x64[i * 64 + k] as number) * (DCT_MATRIX_16x64[j * 64 + k] as number);
        expect(Math.abs(dot - (i === j ? 1 : 0))).toBeLessThan(1e-6);
      }
    }
  });

  it('skips the DC term: a flat image has (almost) no energy in the 16×16 block', () => {
    const b = dct64To16(new Float32Array(N * N).fill(200));
    for (const v of b) expect(Math.abs(v)).toBeLessThan(1e-2);
  });

  it('maps a separable cosine of frequency (u, v) to coefficient (u-1, v-1) with weight 32', () => {
    const u = 3;
    const v = 7;
    const a = Float32Array.from({ length: N * N }, (_, k) => {
      const x = Math.floor(k / N);
      const y = k % N;
      return (
        Math.cos((Math.PI * u * (2 * x + 1)) / 128) * Math.cos((Math.PI * v * (2 * y + 1)) / 128)
      );
    });
    const b = dct64To16(a);
    for (let i = 0; i < 16; i++) {
      for (let j = 0; j < 16; j++) {
        expect(b[i * 16 + j]).toBeCloseTo(i === u - 1 && j === v - 1 ? 32 : 0, 3);
      }
    }
  });
});

describe('dihedral DCT variants', () => {
  const a = testImage();
  const dct = dct64To16(a);

  it.each(DIHEDRAL_NAMES)('%s equals the DCT of the pixel-transformed image', (name) => {
    const expected = dct64To16(transform(a, name));
    const derived = dihedralDct(dct, name);
    for (let k = 0; k < 256; k++)
      expect(Math.abs((derived[k] as number) - (expected[k] as number))).toBeLessThan(0.05);
  });

  it('lists the reference order', () => {
    expect(DIHEDRAL_NAMES).toEqual([
      'original',
      'rotate90',
      'rotate180',
      'rotate270',
      'flipX',
      'flipY',
      'flipPlus1',
      'flipMinus1',
    ]);
  });
});
