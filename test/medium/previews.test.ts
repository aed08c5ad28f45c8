// The safe previews (analysis/image makePreviews): the blurred one is what the UI, `custody
// preview`, reports and --blur-images exports show before a person chooses to look. Since issue 14
// it is a tiny greyscale image (BLURRED_PREVIEW_EDGE px on the long edge) that the UI scales up,
// made from the raster already decoded: it must carry, by itself and at any scale, no detail finer
// than about 1/16 of the frame (a face in the photograph is then unrecognisable), as the sigma-16
// blur of the 256 px preview before it. The checks fail on an unblurred image of the same size.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BLURRED_PREVIEW_EDGE } from '../../src/analysis/image/blurred-preview.js';
import { makePreviews } from '../../src/analysis/image/image-decode.adapter.js';
import type { Raster } from '../../src/analysis/image/raster.js';

/** A 436×290 raster of high-contrast colour blocks 1/32 of the width: detail a blur must remove. */
function detailed(): Raster {
  const width = 436;
  const height = 290;
  const data = new Uint8Array(width * height * 3);
  let s = 7;
  const block = new Map<number, number>();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const key = Math.floor(y / 14) * 64 + Math.floor(x / 14);
      if (!block.has(key))
        block.set(key, (s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) & 1);
      const on = block.get(key) === 1;
      data.set(on ? [250, 230, 40] : [10, 30, 200], (y * width + x) * 3);
    }
  }
  return { data, width, height, channels: 3 };
}

/**
 * How far an image is from itself reduced to 16 px on the long side and scaled back: the mean
 * absolute difference in grey levels. Small only when nothing finer than 1/16 of the frame is left.
 */
async function fineDetail(webp: Buffer): Promise<number> {
  const { data, info } = await sharp(webp).greyscale().raw().toBuffer({ resolveWithObject: true });
  const coarse = await sharp(data, { raw: info })
    .resize({ width: 16, height: 16, fit: 'inside' })
    .resize({ width: info.width, height: info.height, fit: 'fill' })
    .raw()
    .toBuffer();
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += Math.abs((data[i] ?? 0) - (coarse[i] ?? 0));
  return sum / data.length;
}

/** `webp` scaled to `width`×`height` with smooth (bicubic) interpolation, as a browser shows it in a tile. */
async function scaledUp(webp: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(webp)
    .resize({ width, height, fit: 'fill', kernel: 'cubic' })
    .webp({ lossless: true })
    .toBuffer();
}

/** Standard deviation of the grey levels: how much is there to see at all. */
async function greySpread(webp: Buffer): Promise<number> {
  const stats = await sharp(webp).greyscale().stats();
  return stats.channels[0]?.stdev ?? 0;
}

describe('makePreviews', () => {
  it("the blurred preview is a tiny grey image of the plain one's shape, and keeps no detail finer than 1/16 of the frame when scaled up", async () => {
    const { plain, blurred } = await makePreviews(detailed(), 1, 256);
    const p = await sharp(plain).metadata();
    const b = await sharp(blurred).metadata();
    expect([p.width, p.height]).toEqual([256, 170]);
    expect(b.format).toBe('webp');
    expect(Math.max(b.width ?? 0, b.height ?? 0)).toBe(BLURRED_PREVIEW_EDGE);
    expect(BLURRED_PREVIEW_EDGE).toBeLessThanOrEqual(32);
    // the same shape, to the pixel: the UI fits it in the plain preview's place
    expect(Math.abs((b.width ?? 0) / (b.height ?? 1) - 256 / 170)).toBeLessThan(0.1);
    const stats = await sharp(blurred).stats();
    const [r, g, bl] = stats.channels;
    expect(Math.abs((r?.mean ?? 0) - (g?.mean ?? 1))).toBeLessThan(1);
    expect(Math.abs((g?.mean ?? 0) - (bl?.mean ?? 1))).toBeLessThan(1);
    const big = await scaledUp(blurred, 256, 170);
    // the check has teeth: the plain preview of the same blocks is far from its 16 px version,
    // and so is a 32 px reduction of it without the blur, scaled up the same way
    expect(await fineDetail(plain)).toBeGreaterThan(30);
    const unblurredTiny = await sharp(plain).resize({ width: 32 }).greyscale().webp().toBuffer();
    expect(await fineDetail(await scaledUp(unblurredTiny, 256, 170))).toBeGreaterThan(20);
    // measured: 79 for the plain preview, 35 for the unblurred 32 px one, 6.2 for the blurred one
    // (6.2 too for the sigma-16 blur of the 256 px preview before issue 14); spread 10.7 against 111
    expect(await fineDetail(big)).toBeLessThan(10);
    // and almost nothing is left to see: the blocks' grey levels spread far less than the plain's
    expect(await greySpread(big)).toBeLessThan((await greySpread(plain)) / 4);
  });

  it('the blurred preview does not depend on the preview size, and turns with the orientation', async () => {
    const a = await makePreviews(detailed(), 1, 256);
    const b = await makePreviews(detailed(), 1, 1280);
    expect(a.blurred.equals(b.blurred)).toBe(true);
    const turned = await makePreviews(detailed(), 6, 256);
    const m = await sharp(turned.blurred).metadata();
    expect([m.width, m.height]).toEqual([21, 32]);
  });
});
