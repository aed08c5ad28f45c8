/** Decoded pixels, interleaved, 8 bits per channel, as the analysis works on them. */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

export interface CropRegion {
  name: string;
  /** Fractions of the width and height: left, top, width, height. */
  box: [number, number, number, number];
}

/**
 * Regions hashed for the crop signal. PDQ alone misses crops; a cropped copy B of A hashes close
 * to the same region of A, so A's region hashes are compared with every other image's full hash.
 */
export const CROP_REGIONS: readonly CropRegion[] = [
  { name: 'center-90', box: [0.05, 0.05, 0.9, 0.9] },
  { name: 'center-80', box: [0.1, 0.1, 0.8, 0.8] },
  { name: 'top-left-90', box: [0, 0, 0.9, 0.9] },
  { name: 'top-right-90', box: [0.1, 0, 0.9, 0.9] },
  { name: 'bottom-left-90', box: [0, 0.1, 0.9, 0.9] },
  { name: 'bottom-right-90', box: [0.1, 0.1, 0.9, 0.9] },
  // One side cut by 10%: no corner or central region covers these (measured in
  // bench/near-duplicate-quality: one-sided crops went from 0/200 found to nearly all).
  { name: 'left-90', box: [0, 0, 0.9, 1] },
  { name: 'right-90', box: [0.1, 0, 0.9, 1] },
  { name: 'top-90', box: [0, 0, 1, 0.9] },
  { name: 'bottom-90', box: [0, 0.1, 1, 0.9] },
];

/**
 * Halves a raster with a 2×2 box average while its short side stays ≥ `minShort`. The crop
 * signal works on this: PDQ reduces everything to 64×64 anyway, and at a quarter of the pixels
 * the six crop hashes cost about as much as the main one.
 */
export function halveWhileAbove(r: Raster, minShort: number): Raster {
  let cur = r;
  while (Math.min(cur.width, cur.height) / 2 >= minShort) {
    const w = Math.floor(cur.width / 2);
    const h = Math.floor(cur.height / 2);
    const c = cur.channels;
    const out = new Uint8Array(w * h * c);
    const src = cur.data;
    const stride = cur.width * c;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = 2 * y * stride + 2 * x * c;
        for (let k = 0; k < c; k++) {
          out[(y * w + x) * c + k] =
            ((src[i + k] ?? 0) +
              (src[i + c + k] ?? 0) +
              (src[i + stride + k] ?? 0) +
              (src[i + stride + c + k] ?? 0) +
              2) >>
            2;
        }
      }
    }
    cur = { data: out, width: w, height: h, channels: c };
  }
  return cur;
}

/** The pixel rectangle of a fractional box (left, top, width, height) in a `width`×`height` image. */
export function regionRect(
  width: number,
  height: number,
  box: readonly [number, number, number, number],
): { x0: number; y0: number; w: number; h: number } {
  const x0 = Math.round(box[0] * width);
  const y0 = Math.round(box[1] * height);
  const w = Math.max(1, Math.min(width - x0, Math.round(box[2] * width)));
  const h = Math.max(1, Math.min(height - y0, Math.round(box[3] * height)));
  return { x0, y0, w, h };
}

/** Copies a rectangular region out of a raster. */
export function cropRaster(r: Raster, box: readonly [number, number, number, number]): Raster {
  const { x0, y0, w, h } = regionRect(r.width, r.height, box);
  const out = new Uint8Array(w * h * r.channels);
  const rowBytes = w * r.channels;
  for (let y = 0; y < h; y++) {
    const from = ((y0 + y) * r.width + x0) * r.channels;
    out.set(r.data.subarray(from, from + rowBytes), y * rowBytes);
  }
  return { data: out, width: w, height: h, channels: r.channels };
}

/** Side of the greyscale raster kept for crop alignment (ALIGN_GREY in the analysis). */
export const ALIGN_GREY_SIZE = 32;

/**
 * The whole frame as a `size`×`size` greyscale raster (BT.601 luma, area average), stretched to a
 * square whatever the aspect. A crop B of A then maps onto A by a scale and an offset per axis,
 * which is what analysis/similarity/crop-align searches for; resizing and re-compression vanish at
 * this size. Costs one pass over the decoded raster.
 */
export function greyThumbnail(r: Raster, size: number = ALIGN_GREY_SIZE): Uint8Array {
  return greyResize(r, size, size);
}

/**
 * The whole frame as a `width`×`height` greyscale raster (BT.601 luma, area average: each output
 * pixel the mean of the input pixels that fall in it). One pass over the raster.
 */
export function greyResize(r: Raster, width: number, height: number): Uint8Array {
  const sums = new Float64Array(width * height);
  const counts = new Float64Array(width * height);
  const c = r.channels;
  const colOf = new Int32Array(r.width);
  for (let x = 0; x < r.width; x++) colOf[x] = Math.min(width - 1, Math.floor((x * width) / r.width));
  for (let y = 0; y < r.height; y++) {
    const row = Math.min(height - 1, Math.floor((y * height) / r.height)) * width;
    let i = y * r.width * c;
    for (let x = 0; x < r.width; x++, i += c) {
      const luma =
        c >= 3
          ? 0.299 * (r.data[i] ?? 0) + 0.587 * (r.data[i + 1] ?? 0) + 0.114 * (r.data[i + 2] ?? 0)
          : (r.data[i] ?? 0);
      const k = row + (colOf[x] ?? 0);
      sums[k] = (sums[k] ?? 0) + luma;
      counts[k] = (counts[k] ?? 0) + 1;
    }
  }
  const out = new Uint8Array(width * height);
  for (let k = 0; k < out.length; k++) out[k] = Math.round((sums[k] ?? 0) / Math.max(1, counts[k] ?? 0));
  return out;
}
