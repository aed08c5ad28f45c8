import { describe, expect, it } from 'vitest';
import { DIHEDRAL_NAMES } from './dct.js';
import { hammingDistance } from './hash256.js';
import { lumaFromPixels, pdqFromLuma, pdqFromRgb, pdqIntermediatesFromLuma } from './pdq.js';

function smoothRgb(width: number, height: number, seed: number): Uint8Array {
  const px = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let ch = 0; ch < 3; ch++) {
        const v =
          128 +
          70 * Math.sin((x * (ch + 1)) / (9 + seed) + y / 13) +
          50 * Math.cos((x - y * (ch + 2)) / 17);
        px[(y * width + x) * 3 + ch] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  }
  return px;
}

function bitsSet(hex: string): number {
  return hammingDistance(hex, '0'.repeat(64));
}

describe('pdqFromLuma / pdqFromRgb', () => {
  it('gives an all-zero hash and quality 0 below 5 px (MIN_HASHABLE_DIM)', () => {
    const r = pdqFromLuma(new Float32Array(4 * 40).fill(50), 4, 40);
    expect(r.quality).toBe(0);
    expect(r.hash).toBe('0'.repeat(64));
    for (const name of DIHEDRAL_NAMES) expect(r.dihedral[name]).toBe('0'.repeat(64));
  });

  it('rates a flat image quality 0 and a textured one 100', () => {
    expect(pdqFromLuma(new Float32Array(300 * 200).fill(128), 300, 200).quality).toBe(0);
    expect(pdqFromRgb(smoothRgb(320, 240, 1), 320, 240, 3).quality).toBe(100);
  });

  it('sets exactly 128 bits when the DCT has no ties at the median, in every variant', () => {
    const r = pdqFromRgb(smoothRgb(320, 240, 2), 320, 240, 3);
    expect(r.hash).toBe(r.dihedral.original);
    for (const name of DIHEDRAL_NAMES) expect(bitsSet(r.dihedral[name])).toBe(128);
  });

  it('is deterministic and leaves a pixel buffer untouched', () => {
    const px = smoothRgb(200, 150, 3);
    const copy = Uint8Array.from(px);
    expect(pdqFromRgb(px, 200, 150, 3)).toEqual(pdqFromRgb(px, 200, 150, 3));
    expect(px).toEqual(copy);
  });

  it('at 64×64 (no filtering), hashing the rotated pixels gives the derived dihedral hash', () => {
    const n = 64;
    const luma = lumaFromPixels(smoothRgb(n, n, 4), n, n, 3);
    const rotated = new Float32Array(n * n); // 90° counter-clockwise
    for (let r = 0; r < n; r++)
      for (let c = 0; c < n; c++) rotated[r * n + c] = luma[c * n + (n - 1 - r)] as number;
    const derived = pdqFromLuma(Float32Array.from(luma), n, n).dihedral.rotate90;
    expect(hammingDistance(pdqFromLuma(rotated, n, n).hash, derived)).toBeLessThanOrEqual(2);
  });
});

describe('lumaFromPixels', () => {
  it('uses the float32 BT.601 weights for RGB and the grey value for 1-2 channels', () => {
    const rgb = lumaFromPixels(Uint8Array.of(255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30), 4, 1, 3);
    expect(Array.from(rgb)).toEqual(
      [0.299, 0.587, 0.114]
        .map((c) => Math.fround(Math.fround(c) * 255))
        .concat([
          Math.fround(
            Math.fround(
              Math.fround(Math.fround(0.299) * 10) + Math.fround(Math.fround(0.587) * 20),
            ) + Math.fround(Math.fround(0.114) * 30),
          ),
        ]),
    );
    expect(Array.from(lumaFromPixels(Uint8Array.of(7, 255, 9, 0), 2, 1, 2))).toEqual([7, 9]);
    const rgba = lumaFromPixels(Uint8Array.of(10, 20, 30, 0), 1, 1, 4);
    expect(rgba[0]).toBe(rgb[3]);
  });

  it('rejects mismatched dimensions and channel counts with PDQ_BAD_DIMENSIONS', () => {
    const code = expect.objectContaining({ code: 'PDQ_BAD_DIMENSIONS' }) as Error;
    expect(() => lumaFromPixels(new Uint8Array(11), 2, 2, 3)).toThrowError(code);
    expect(() => lumaFromPixels(new Uint8Array(10), 2, 1, 5)).toThrowError(code);
    expect(() => pdqFromLuma(new Float32Array(10), 0, 10)).toThrowError(code);
    expect(() => pdqFromLuma(new Float32Array(10), 2.5, 4)).toThrowError(code);
  });

  it('rejects NaN luma with PDQ_BAD_LUMA rather than hashing garbage', () => {
    const luma = new Float32Array(100 * 100).fill(10);
    luma[5050] = Number.NaN;
    expect(() => pdqFromLuma(luma, 100, 100)).toThrowError(
      expect.objectContaining({ code: 'PDQ_BAD_LUMA' }) as Error,
    );
  });
});

describe('pdqIntermediatesFromLuma', () => {
  it('exposes the 64×64 buffer, the 16×16 DCT and the quality', () => {
    const im = pdqIntermediatesFromLuma(lumaFromPixels(smoothRgb(130, 70, 5), 130, 70, 3), 130, 70);
    expect(im.luma64x64).toHaveLength(4096);
    expect(im.dct16x16).toHaveLength(256);
    expect(im.quality).toBeGreaterThan(0);
  });
});
