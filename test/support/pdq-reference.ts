// The PDQ pipeline exactly as it was written before issue 14's faster loops (one row, one output
// at a time: the reference C++'s own loop order), kept as the yardstick the fast paths are tested
// against, value for value. Test-only: nothing in src/ imports this.
import { CROP_REGIONS, cropRaster, type Raster } from '../../src/analysis/image/raster.js';
import {
  DCT_MATRIX_16x64,
  DIHEDRAL_NAMES,
  dihedralDct,
  type DihedralName,
} from '../../src/analysis/pdq/dct.js';
import { formatHash256, wordsFromBits } from '../../src/analysis/pdq/hash256.js';
import {
  lumaFromPixels,
  PDQ_MIN_HASHABLE_DIM,
  pdqQuality,
  type PdqResult,
} from '../../src/analysis/pdq/pdq.js';
import { torben } from '../../src/analysis/pdq/torben.js';

const f = Math.fround;

export function referenceBoxAlongRows(
  input: Float32Array,
  output: Float32Array,
  rows: number,
  cols: number,
  window: number,
): void {
  const half = Math.trunc((window + 2) / 2); // 7 -> 4, 8 -> 5
  const phase1 = half - 1;
  const phase2 = window - half + 1;
  const phase3 = cols - window;
  const phase4 = half - 1;
  for (let r = 0; r < rows; r++) {
    const base = r * cols;
    let li = base;
    let ri = base;
    let oi = base;
    let sum = 0;
    let count = 0;
    for (let i = 0; i < phase1; i++) {
      sum = f(sum + (input[ri++] as number));
      count++;
    }
    for (let i = 0; i < phase2; i++) {
      sum = f(sum + (input[ri++] as number));
      count++;
      output[oi++] = sum / count;
    }
    for (let i = 0; i < phase3; i++) {
      sum = f(sum + (input[ri++] as number));
      sum = f(sum - (input[li++] as number));
      output[oi++] = sum / count;
    }
    for (let i = 0; i < phase4; i++) {
      sum = f(sum - (input[li++] as number));
      count--;
      output[oi++] = sum / count;
    }
  }
}

export function referenceBoxAlongCols(
  input: Float32Array,
  output: Float32Array,
  rows: number,
  cols: number,
  window: number,
): void {
  const half = Math.trunc((window + 2) / 2);
  const phase1 = half - 1;
  const phase2 = window - half + 1;
  const phase3 = rows - window;
  const phase4 = half - 1;
  const sums = new Float32Array(cols);
  let ri = 0; // row index of the right (leading) edge
  let li = 0; // row index of the left (trailing) edge
  let oi = 0; // output row
  let count = 0;
  const add = (row: number): void => {
    const o = row * cols;
    for (let j = 0; j < cols; j++) sums[j] = (sums[j] as number) + (input[o + j] as number);
  };
  const sub = (row: number): void => {
    const o = row * cols;
    for (let j = 0; j < cols; j++) sums[j] = (sums[j] as number) - (input[o + j] as number);
  };
  const write = (row: number): void => {
    const o = row * cols;
    for (let j = 0; j < cols; j++) output[o + j] = (sums[j] as number) / count;
  };
  // Storing into the Float32Array `sums` rounds each step to float32, like the C float `sum`.
  for (let i = 0; i < phase1; i++, count++) add(ri++);
  for (let i = 0; i < phase2; i++) {
    add(ri++);
    count++;
    write(oi++);
  }
  for (let i = 0; i < phase3; i++) {
    add(ri++);
    sub(li++);
    write(oi++);
  }
  for (let i = 0; i < phase4; i++) {
    sub(li++);
    count--;
    write(oi++);
  }
}

export function referenceDecimate(
  input: Float32Array,
  rows: number,
  cols: number,
  outRows: number,
  outCols: number,
): Float32Array {
  const out = new Float32Array(outRows * outCols);
  for (let i = 0; i < outRows; i++) {
    const ini = Math.trunc(((i + 0.5) * rows) / outRows);
    for (let j = 0; j < outCols; j++) {
      const inj = Math.trunc(((j + 0.5) * cols) / outCols);
      out[i * outCols + j] = input[ini * cols + inj] as number;
    }
  }
  return out;
}

export function referenceDct64To16(a: Float32Array): Float32Array {
  const d = DCT_MATRIX_16x64;
  const t = new Float32Array(16 * 64);
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 64; j++) {
      let sum = 0;
      for (let k = 0; k < 64; k++) {
        sum = f(sum + f((d[i * 64 + k] as number) * (a[k * 64 + j] as number)));
      }
      t[i * 64 + j] = sum;
    }
  }
  const b = new Float32Array(256);
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 16; j++) {
      let sum = 0;
      for (let k = 0; k < 64; k++) {
        sum = f(sum + f((t[i * 64 + k] as number) * (d[j * 64 + k] as number)));
      }
      b[i * 16 + j] = sum;
    }
  }
  return b;
}

/** jaroszWindowSize as the reference computes it. */
function windowSize(oldDimension: number, newDimension: number): number {
  return Math.trunc((oldDimension + 2 * newDimension - 1) / (2 * newDimension));
}

/** The 64×64 buffer and DCT of a luma image, by the loops above (jaroszFilter ×2, decimate, DCT). */
export function referenceIntermediates(
  luma: Float32Array,
  width: number,
  height: number,
): { luma64x64: Float32Array; dct16x16: Float32Array } {
  const a = Float32Array.from(luma);
  const b = new Float32Array(a.length);
  for (let p = 0; p < 2; p++) {
    referenceBoxAlongRows(a, b, height, width, windowSize(width, 64));
    referenceBoxAlongCols(b, a, height, width, windowSize(height, 64));
  }
  const luma64x64 = referenceDecimate(a, height, width, 64, 64);
  return { luma64x64, dct16x16: referenceDct64To16(luma64x64) };
}

/** PDQ with its dihedral variants, from luma, through the loops above (luma is not modified). */
export function referencePdq(luma: Float32Array, width: number, height: number): PdqResult {
  const names = DIHEDRAL_NAMES;
  if (width < PDQ_MIN_HASHABLE_DIM || height < PDQ_MIN_HASHABLE_DIM) {
    const zero = '0'.repeat(64);
    return {
      hash: zero,
      quality: 0,
      dihedral: Object.fromEntries(names.map((n) => [n, zero])) as Record<DihedralName, string>,
    };
  }
  const { luma64x64, dct16x16 } = referenceIntermediates(luma, width, height);
  const hashOf = (b: Float32Array): string => {
    const median = torben(b);
    return formatHash256(wordsFromBits((k) => (b[k] as number) > median));
  };
  const dihedral = Object.fromEntries(
    names.map((n) => [n, hashOf(dihedralDct(dct16x16, n))]),
  ) as Record<DihedralName, string>;
  return { hash: dihedral.original, quality: pdqQuality(luma64x64), dihedral };
}

/** PDQ of interleaved 8-bit pixels through the loops above. */
export function referencePdqFromRgb(r: Raster): PdqResult {
  return referencePdq(lumaFromPixels(r.data, r.width, r.height, r.channels), r.width, r.height);
}

/** The crop signal as the analysis computed it before: each region's pixels copied, then PDQ'd whole. */
export function referenceCropRegionHashes(r: Raster): { region: string; hash: string }[] {
  return CROP_REGIONS.map((c) => ({
    region: c.name,
    hash: referencePdqFromRgb(cropRaster(r, c.box)).hash,
  }));
}
