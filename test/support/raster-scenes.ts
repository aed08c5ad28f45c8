// The synthetic rasters shared by the crop-matching unit tests (issue 14): a photo-like scene
// from a seed, and a box cut out of it.
import { cropRaster, type Raster } from '../../src/analysis/image/raster.js';

/** A crop box as fractions of the width and height: [left, top, right, bottom]. */
export type Box = [number, number, number, number];

/** A photo-like synthetic raster: a horizon, smooth blobs, a texture, from a seed. */
export function scene(seed: number, width = 480, height = 360): Raster {
  let s = seed >>> 0;
  const rnd = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const blobs = Array.from({ length: 6 }, () => ({
    x: rnd(),
    y: rnd(),
    r: 0.05 + 0.2 * rnd(),
    v: 255 * rnd(),
  }));
  const horizon = 0.3 + 0.4 * rnd();
  const [fu, fv, phase] = [10 + 30 * rnd(), 10 + 30 * rnd(), 6 * rnd()];
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const v = y / height;
      let g = v < horizon ? 200 - 80 * v : 90 + 40 * Math.sin(u * fu + v * fv + phase);
      for (const b of blobs) {
        const d = ((u - b.x) ** 2 + (v - b.y) ** 2) / (b.r * b.r);
        if (d < 1) g = g * d + b.v * (1 - d);
      }
      const i = (y * width + x) * 3;
      data[i] = data[i + 1] = data[i + 2] = Math.max(0, Math.min(255, Math.round(g)));
    }
  }
  return { data, width, height, channels: 3 };
}

/** The part of r inside `box`. */
export function crop(r: Raster, [l, t, rr, b]: Box): Raster {
  return cropRaster(r, [l, t, rr - l, b - t]);
}
