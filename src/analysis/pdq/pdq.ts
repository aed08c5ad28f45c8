/**
 * Meta's PDQ perceptual hash, computed exactly as the reference C++ core does
 * (facebook/ThreatExchange pdq/cpp/hashing/pdqhashing.cpp, downscaling.cpp, torben.cpp; the
 * algorithm is described in "PDQ hashing", pdqhash-2017-10-09.pdf). Pure: pixels in, hashes out.
 *
 * Identical pixels give identical hashes, bit for bit; different decoders of the same file
 * usually agree within a few bits (Meta's rule: <= 10 bits at quality >= 80).
 */
import { dct64To16, DIHEDRAL_NAMES, dihedralDct, type DihedralName } from './dct.js';
import { PdqError } from './errors.js';
import { formatHash256, wordsFromBits } from './hash256.js';
import { boxAlongCols, boxAlongColsDecimated, boxAlongRows, jaroszWindowSize } from './jarosz.js';
import { torben } from './torben.js';

/** Sides under this give an all-zero hash and quality 0 (MIN_HASHABLE_DIM). */
export const PDQ_MIN_HASHABLE_DIM = 5;

/** Float32 luma weights (pdqhashing.cpp, luma_from_{R,G,B}_coeff; ITU-R BT.601). */
const LUMA_R = Math.fround(0.299);
const LUMA_G = Math.fround(0.587);
const LUMA_B = Math.fround(0.114);

export interface PdqResult {
  /** 64 hex digits in the reference's text form (word 15 first; see hash256.ts). */
  hash: string;
  /** 0..100 gradient-based quality; Meta advises discarding hashes with quality <= 49. */
  quality: number;
  /** The eight dihedral hashes derived from the DCT, in the reference's order and names. */
  dihedral: Record<DihedralName, string>;
}

/** The intermediate buffers, for debugging against the reference's dumps. */
export interface PdqIntermediates {
  luma64x64: Float32Array;
  dct16x16: Float32Array;
  quality: number;
}

function checkDimensions(width: number, height: number, length: number, channels = 1): void {
  const ok =
    Number.isInteger(width) &&
    width > 0 &&
    Number.isInteger(height) &&
    height > 0 &&
    length === width * height * channels;
  if (!ok) {
    throw new PdqError(
      'PDQ_BAD_DIMENSIONS',
      `expected ${width}×${height}×${channels} samples, got ${length}`,
      {
        details: { width, height, channels, length },
      },
    );
  }
}

/**
 * Gradient-sum quality over the 64×64 buffer (pdqImageDomainQualityMetric): for each vertical and
 * horizontal neighbour pair add |int((u - v) * 100 / 255)| (float32, truncated toward zero), then
 * min(100, sum / 90) in integer division.
 */
export function pdqQuality(b: Float32Array): number {
  const f = Math.fround;
  const step = (u: number, v: number): number => Math.abs(Math.trunc(f(f(f(u - v) * 100) / 255)));
  let sum = 0;
  for (let i = 0; i < 63; i++) {
    for (let j = 0; j < 64; j++)
      sum += step(b[i * 64 + j] as number, b[(i + 1) * 64 + j] as number);
  }
  for (let i = 0; i < 64; i++) {
    for (let j = 0; j < 63; j++) sum += step(b[i * 64 + j] as number, b[i * 64 + j + 1] as number);
  }
  return Math.min(100, Math.trunc(sum / 90));
}

/** Images up to this many pixels share one scratch buffer (larger ones get their own, freed after). */
const SHARED_SCRATCH_MAX = 1 << 20;
let sharedScratch: Float32Array | null = null;

/**
 * A buffer of `n` floats for the filter passes. PDQ runs synchronously from start to end, so one
 * buffer serves every call: the analysis hashes 11 images per object (the frame and 10 regions),
 * and fresh megabyte buffers for each kept the garbage collector busy (issue 14). Every pass writes
 * all of the output it later reads, so what a previous call left in it does not matter.
 */
function scratchOf(n: number): Float32Array {
  if (n > SHARED_SCRATCH_MAX) return new Float32Array(n);
  if (sharedScratch === null || sharedScratch.length < n)
    sharedScratch = new Float32Array(Math.max(n, 1 << 18));
  return sharedScratch.subarray(0, n);
}

/**
 * Blur-and-decimate to 64×64, quality, DCT. Like pdqDihedralHash256esFromFloatLuma this always
 * filters; for a 64×64 input both windows are 1 (identity) and decimation picks every pixel,
 * so it equals the reference's 64×64 copy shortcut. `luma` is consumed (used as scratch).
 *
 * The filter is the reference's two X/Y rounds of box passes (PDQ_NUM_JAROSZ_XY_PASSES, a tent
 * filter: jaroszFilter(…, 2) then decimate); the last column pass runs only on the 64 columns
 * and rows that decimation keeps, which leaves every kept value as it was.
 */
export function pdqIntermediatesFromLuma(
  luma: Float32Array,
  width: number,
  height: number,
): PdqIntermediates {
  const { luma64x64, dct16x16 } = filterAndDct(luma, width, height);
  return { luma64x64, dct16x16, quality: pdqQuality(luma64x64) };
}

/** The 64×64 buffer and its DCT (pdqIntermediatesFromLuma without the quality). */
function filterAndDct(
  luma: Float32Array,
  width: number,
  height: number,
): { luma64x64: Float32Array; dct16x16: Float32Array } {
  checkDimensions(width, height, luma.length);
  const scratch = scratchOf(luma.length);
  const alongRows = jaroszWindowSize(width, 64);
  const alongCols = jaroszWindowSize(height, 64);
  boxAlongRows(luma, scratch, height, width, alongRows);
  boxAlongCols(scratch, luma, height, width, alongCols);
  boxAlongRows(luma, scratch, height, width, alongRows);
  const luma64x64 = boxAlongColsDecimated(scratch, height, width, alongCols, 64, 64);
  const dct16x16 = dct64To16(luma64x64);
  if (!dct16x16.every(Number.isFinite)) {
    throw new PdqError('PDQ_BAD_LUMA', 'luma holds NaN or infinite values');
  }
  return { luma64x64, dct16x16 };
}

/** Bit k = i*16 + j is set iff B[i][j] is strictly above the Torben (lower) median. */
function hashFromDct(b: Float32Array): string {
  const median = torben(b);
  return formatHash256(wordsFromBits((k) => (b[k] as number) > median));
}

const ZERO_HASH = '0'.repeat(64);

/**
 * PDQ of a float luma image (row-major, `width * height` values, typically 0..255).
 * The buffer is used as scratch and overwritten; pass a copy to keep it.
 *
 * @example
 *   const r = pdqFromLuma(new Float32Array(64 * 64).fill(128), 64, 64);
 *   r.quality // 0
 */
export function pdqFromLuma(luma: Float32Array, width: number, height: number): PdqResult {
  checkDimensions(width, height, luma.length);
  if (width < PDQ_MIN_HASHABLE_DIM || height < PDQ_MIN_HASHABLE_DIM) {
    const dihedral = Object.fromEntries(DIHEDRAL_NAMES.map((n) => [n, ZERO_HASH]));
    return { hash: ZERO_HASH, quality: 0, dihedral: dihedral as Record<DihedralName, string> };
  }
  const { dct16x16, quality } = pdqIntermediatesFromLuma(luma, width, height);
  const dihedral = {} as Record<DihedralName, string>;
  for (const name of DIHEDRAL_NAMES) dihedral[name] = hashFromDct(dihedralDct(dct16x16, name));
  return { hash: dihedral.original, quality, dihedral };
}

/**
 * The PDQ hash alone, without its quality or the seven dihedral variants: what a region hash
 * needs (the crop signal records only each region's own hash). Equal to `pdqFromLuma(…).hash`.
 * `luma` is consumed (used as scratch).
 */
export function pdqHashFromLuma(luma: Float32Array, width: number, height: number): string {
  checkDimensions(width, height, luma.length);
  if (width < PDQ_MIN_HASHABLE_DIM || height < PDQ_MIN_HASHABLE_DIM) return ZERO_HASH;
  return hashFromDct(filterAndDct(luma, width, height).dct16x16);
}

/**
 * Float32 luma of interleaved 8-bit pixels: with 3 or more channels Y = 0.299 R + 0.587 G +
 * 0.114 B (fillFloatLumaFromRGB; channels past the third, e.g. alpha, are ignored); with 1 or 2
 * channels Y is the grey value (fillFloatLumaFromGrey).
 */
export function lumaFromPixels(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
): Float32Array {
  if (!Number.isInteger(channels) || channels < 1 || channels > 4) {
    throw new PdqError('PDQ_BAD_DIMENSIONS', `channels must be 1..4, got ${channels}`, {
      details: { channels },
    });
  }
  checkDimensions(width, height, pixels.length, channels);
  const f = Math.fround;
  const n = width * height;
  const luma = new Float32Array(n);
  if (channels < 3) {
    for (let p = 0, o = 0; p < n; p++, o += channels) luma[p] = pixels[o] as number;
    return luma;
  }
  for (let p = 0, o = 0; p < n; p++, o += channels) {
    const r = f(LUMA_R * (pixels[o] as number));
    const g = f(LUMA_G * (pixels[o + 1] as number));
    const b = f(LUMA_B * (pixels[o + 2] as number));
    luma[p] = f(r + g) + b;
  }
  return luma;
}

/** PDQ of interleaved 8-bit pixels (1 grey, 2 grey+alpha, 3 RGB or 4 RGBA channels). */
export function pdqFromRgb(
  rgb: Uint8Array,
  width: number,
  height: number,
  channels: number,
): PdqResult {
  return pdqFromLuma(lumaFromPixels(rgb, width, height, channels), width, height);
}
