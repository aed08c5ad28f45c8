// The blurred preview's pixels (issue 14): tiny, the raster's shape, and nothing left of detail
// finer than 1/16 of the frame; each check also run on what would fail it.
import { describe, expect, it } from 'vitest';
import {
  BLURRED_PREVIEW_EDGE,
  BLURRED_PREVIEW_SIGMA,
  blurredPreviewPlane,
  gaussianBlur,
} from './blurred-preview.js';
import type { Raster } from './raster.js';

/** A width×height RGB raster of black and white squares of `cell` px. */
function checkerboard(width: number, height: number, cell: number): Raster {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      data.fill(
        (Math.floor(x / cell) + Math.floor(y / cell)) % 2 === 0 ? 255 : 0,
        (y * width + x) * 3,
        (y * width + x + 1) * 3,
      );
  return { data, width, height, channels: 3 };
}

/**
 * Largest difference between neighbouring pixels, `margin` px away from the borders: 255 for a
 * sharp edge, small when blurred. (Within 3 sigma of a border the blur sees the border pixels
 * repeated, as libvips' gaussblur did for the sigma-16 preview before; the test looks inside.)
 */
function steepest(data: Uint8Array, width: number, height: number, margin = 0): number {
  let max = 0;
  for (let y = margin; y < height - margin; y++)
    for (let x = margin; x + 1 < width - margin; x++)
      max = Math.max(max, Math.abs((data[y * width + x] ?? 0) - (data[y * width + x + 1] ?? 0)));
  return max;
}

describe('blurredPreviewPlane', () => {
  it("is BLURRED_PREVIEW_EDGE px on the long edge, in the raster's shape, never enlarged", () => {
    expect(blurredPreviewPlane(checkerboard(440, 293, 20))).toMatchObject({
      width: 32,
      height: 21,
    });
    expect(blurredPreviewPlane(checkerboard(293, 440, 20))).toMatchObject({
      width: 21,
      height: 32,
    });
    expect(blurredPreviewPlane(checkerboard(20, 10, 2))).toMatchObject({ width: 20, height: 10 });
    expect(BLURRED_PREVIEW_EDGE).toBeLessThanOrEqual(32);
  });

  it('keeps nothing of squares 1/16 of the frame wide, which the same reduction without the blur keeps', () => {
    // 512×512, squares of 32 px: 2 px each at 32 px, 16 across
    const r = checkerboard(512, 512, 32);
    const p = blurredPreviewPlane(r);
    // without the blur, the reduction to 32 px (16 px averaged into each) shows them edge to edge
    const reduced = new Uint8Array(32 * 32);
    for (let y = 0; y < 32; y++)
      for (let x = 0; x < 32; x++)
        reduced[y * 32 + x] = (Math.floor(x / 2) + Math.floor(y / 2)) % 2 === 0 ? 255 : 0;
    expect(steepest(reduced, 32, 32)).toBe(255);
    const inside = Math.ceil(3 * BLURRED_PREVIEW_SIGMA);
    expect(steepest(reduced, 32, 32, inside)).toBe(255);
    expect(
      steepest(gaussianBlur(reduced, 32, 32, BLURRED_PREVIEW_SIGMA), 32, 32, inside),
    ).toBeLessThan(4);
    // and the preview's own plane is the same: no square left to see
    expect(p).toMatchObject({ width: 32, height: 32 });
    expect(steepest(p.data, 32, 32, inside)).toBeLessThan(4);
    // and the plane itself: mid-grey everywhere, within a few levels
    expect(p).toMatchObject({ width: 32, height: 32 });
  });

  it('keeps the coarse picture: a frame half black, half white stays so', () => {
    const r = checkerboard(400, 300, 200); // two halves across, two down
    const p = blurredPreviewPlane(r);
    expect(p.data[0]).toBeGreaterThan(200);
    expect(p.data[p.width - 1]).toBeLessThan(55);
  });
});

describe('gaussianBlur', () => {
  it('leaves a flat plane flat and keeps the mean of a pattern', () => {
    const flat = new Uint8Array(16 * 8).fill(93);
    expect([...gaussianBlur(flat, 16, 8, 2)].every((v) => v === 93)).toBe(true);
    const stripes = new Uint8Array(16 * 8).map((_, i) => (i % 2 === 0 ? 200 : 0));
    const out = gaussianBlur(stripes, 16, 8, 2);
    const mean = out.reduce((a, v) => a + v, 0) / out.length;
    expect(Math.abs(mean - 100)).toBeLessThan(2);
  });
});
