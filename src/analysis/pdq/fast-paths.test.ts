// Issue 14 made the PDQ loops faster (rows four at a time, the last column pass only where
// decimation samples, the DCT four outputs at a time, region hashes from one luma plane). Hashes
// are evidence: these tests hold every fast path to the loops it replaced
// (test/support/pdq-reference.ts), byte for byte, on sizes and windows the analysis meets and on
// the awkward ones (fewer rows than 4, fewer than 64, under 5 px).
import { describe, expect, it } from 'vitest';
import {
  referenceBoxAlongCols,
  referenceBoxAlongRows,
  referenceCropRegionHashes,
  referenceDct64To16,
  referenceDecimate,
  referencePdq,
} from '../../../test/support/pdq-reference.js';
import { cropRegionHashes } from '../image/region-hashes.js';
import type { Raster } from '../image/raster.js';
import { dct64To16 } from './dct.js';
import { boxAlongCols, boxAlongColsDecimated, boxAlongRows, jaroszWindowSize } from './jarosz.js';
import { pdqFromLuma, pdqHashFromLuma, pdqIntermediatesFromLuma } from './pdq.js';
import { seededRandom } from '../../../test/support/seeded-bytes.js';


/** Luma-like values with fractional parts, so that float32 sums round (the order matters). */
function noisyLuma(width: number, height: number, seed: number): Float32Array {
  const next = seededRandom(seed);
  return Float32Array.from({ length: width * height }, (_, k) => {
    const x = k % width;
    const y = Math.floor(k / width);
    return 128 + 80 * Math.sin(x / 7 + y / 11) + 40 * next() + next() / 3;
  });
}

function pixels(width: number, height: number, channels: number, seed: number): Raster {
  const next = seededRandom(seed);
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < channels; c++)
        data[(y * width + x) * channels + c] = Math.max(
          0,
          Math.min(255, Math.round(128 + 90 * Math.sin((x * (c + 1)) / 9 + y / 14) + 30 * next())),
        );
  return { data, width, height, channels };
}

const bytes = (a: Float32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** rows × cols met in the analysis (crops of a halved raster, shrink-on-load sizes) and edge cases. */
const SIZES: [number, number][] = [
  [1, 1],
  [1, 9],
  [3, 17],
  [5, 5],
  [7, 63],
  [13, 6],
  [63, 64],
  [64, 64],
  [65, 130],
  [131, 198],
  [146, 220],
  [293, 440],
  [375, 500],
];

describe('PDQ fast paths equal the reference loops, byte for byte', () => {
  it('the row box pass, four rows at a time and the rest one by one, for every window', () => {
    for (const [rows, cols] of SIZES) {
      for (const w of new Set([1, 2, 3, 4, 7, 8, 13, jaroszWindowSize(cols, 64)])) {
        if (w > cols) continue;
        const input = noisyLuma(cols, rows, rows * 1000 + cols + w);
        const fast = new Float32Array(input.length);
        const slow = new Float32Array(input.length);
        boxAlongRows(input, fast, rows, cols, w);
        referenceBoxAlongRows(input, slow, rows, cols, w);
        expect(bytes(fast).equals(bytes(slow)), `${rows}×${cols} window ${w}`).toBe(true);
      }
    }
  });

  it('the column box pass, for every window', () => {
    for (const [rows, cols] of SIZES) {
      for (const w of new Set([1, 2, 3, 5, 8, jaroszWindowSize(rows, 64)])) {
        if (w > rows) continue;
        const input = noisyLuma(cols, rows, rows + cols * 7 + w);
        const fast = new Float32Array(input.length);
        const slow = new Float32Array(input.length);
        boxAlongCols(input, fast, rows, cols, w);
        referenceBoxAlongCols(input, slow, rows, cols, w);
        expect(bytes(fast).equals(bytes(slow)), `${rows}×${cols} window ${w}`).toBe(true);
      }
    }
  });

  it('the last column pass on the sampled columns only equals the whole pass then decimation', () => {
    for (const [rows, cols] of SIZES) {
      const w = jaroszWindowSize(rows, 64);
      const input = noisyLuma(cols, rows, 3 * rows + cols);
      const whole = new Float32Array(input.length);
      referenceBoxAlongCols(input, whole, rows, cols, w);
      const slow = referenceDecimate(whole, rows, cols, 64, 64);
      const fast = boxAlongColsDecimated(input, rows, cols, w, 64, 64);
      expect(bytes(fast).equals(bytes(slow)), `${rows}×${cols}`).toBe(true);
    }
  });

  it('the DCT, four outputs at a time', () => {
    for (const seed of [1, 2, 3]) {
      const a = noisyLuma(64, 64, seed);
      expect(bytes(dct64To16(a)).equals(bytes(referenceDct64To16(a)))).toBe(true);
    }
  });

  it('the whole hash: 64×64 buffer, DCT, quality, hash and the 8 dihedral variants', () => {
    for (const [rows, cols] of SIZES) {
      const luma = noisyLuma(cols, rows, rows * 31 + cols);
      const want = referencePdq(luma, cols, rows);
      expect(pdqFromLuma(Float32Array.from(luma), cols, rows), `${rows}×${cols}`).toEqual(want);
      expect(pdqHashFromLuma(Float32Array.from(luma), cols, rows)).toBe(want.hash);
      if (cols >= 5 && rows >= 5) {
        const got = pdqIntermediatesFromLuma(Float32Array.from(luma), cols, rows);
        expect(got.quality).toBe(want.quality);
      }
    }
    // Not vacuous: the textured images above give real hashes.
    const r = referencePdq(noisyLuma(440, 293, 9), 440, 293);
    expect(r.quality).toBeGreaterThan(50);
    expect(r.hash).not.toBe('0'.repeat(64));
  });

  it('region hashes from one luma plane equal PDQ of each copied region (RGB and grey rasters)', () => {
    const rasters: [number, number, number][] = [
      [220, 146, 3],
      [146, 220, 3],
      [128, 128, 3],
      [131, 250, 1],
      [255, 128, 4],
      [40, 30, 3],
    ];
    for (const [w, h, c] of rasters) {
      const r = pixels(w, h, c, w * h + c);
      expect(cropRegionHashes(r), `${w}×${h}×${c}`).toEqual(referenceCropRegionHashes(r));
    }
  });
});
