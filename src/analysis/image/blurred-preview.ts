// The blurred preview's pixels (issue 14): a tiny greyscale image, made from the raster already
// decoded, that the UI scales up to its tile. Pure, so that the privacy property (no detail finer
// than 1/16 of the frame) is checked without a decoder; the adapter only orients and encodes it.
import { greyResize, type Raster } from './raster.js';

/**
 * The blurred preview's long edge in pixels, whatever the plain preview's size: a tiny image the
 * UI scales up (smooth interpolation and a CSS blur) instead of a blurred image at tile size.
 */
export const BLURRED_PREVIEW_EDGE = 32;

/**
 * Its Gaussian blur, as a sigma in its own pixels: 1/16 of the long edge, the cut-off of the
 * sigma-16 blur of the 256 px preview it replaces, so that it carries no more detail than that one
 * did (a face in the photograph is unrecognisable in it by itself, with or without the UI's blur).
 */
export const BLURRED_PREVIEW_SIGMA = BLURRED_PREVIEW_EDGE / 16;

/** One grey plane, row by row. */
export interface GreyPlane {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * The blurred preview of a raster, before orientation: its luma area-averaged to
 * BLURRED_PREVIEW_EDGE px on the long edge (never enlarged), then a Gaussian blur of sigma
 * BLURRED_PREVIEW_SIGMA. Example: a 440×293 raster gives a 32×21 plane.
 */
export function blurredPreviewPlane(r: Raster): GreyPlane {
  const scale = Math.min(1, BLURRED_PREVIEW_EDGE / Math.max(r.width, r.height));
  const width = Math.max(1, Math.round(r.width * scale));
  const height = Math.max(1, Math.round(r.height * scale));
  return {
    data: gaussianBlur(greyResize(r, width, height), width, height, BLURRED_PREVIEW_SIGMA),
    width,
    height,
  };
}

/**
 * A separable Gaussian blur of a grey plane (kernel to 3 sigma, edges extended by their last
 * pixel, as libvips' gaussblur), rounded back to 8 bits.
 */
export function gaussianBlur(
  data: Uint8Array,
  width: number,
  height: number,
  sigma: number,
): Uint8Array {
  const radius = Math.ceil(3 * sigma);
  const kernel = new Float64Array(2 * radius + 1);
  let total = 0;
  for (let k = -radius; k <= radius; k++)
    total += kernel[k + radius] = Math.exp(-(k * k) / (2 * sigma * sigma));
  for (let k = 0; k < kernel.length; k++) kernel[k] = (kernel[k] ?? 0) / total;
  const clamp = (v: number, hi: number): number => (v < 0 ? 0 : v > hi ? hi : v);
  const rows = new Float64Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let k = -radius; k <= radius; k++)
        s += (kernel[k + radius] ?? 0) * (data[y * width + clamp(x + k, width - 1)] ?? 0);
      rows[y * width + x] = s;
    }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let k = -radius; k <= radius; k++)
        s += (kernel[k + radius] ?? 0) * (rows[clamp(y + k, height - 1) * width + x] ?? 0);
      out[y * width + x] = Math.round(s);
    }
  return out;
}
