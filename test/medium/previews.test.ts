// The safe previews (analysis/image makePreviews): the blurred one is what the UI, `custody
// preview`, reports and --blur-images exports show before a person chooses to look, so it must
// keep the plain preview's size and carry no detail finer than about 1/16 of the frame (a face in
// the photograph is then unrecognisable). Issue 14 tuned its WebP encoder effort; this proves the
// privacy property did not move with it, and that the check fails on an unblurred image.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
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

describe('makePreviews', () => {
  it('the blurred preview has the plain size, is grey, and keeps no detail finer than 1/16 of the frame', async () => {
    const { plain, blurred } = await makePreviews(detailed(), 1, 256);
    const p = await sharp(plain).metadata();
    const b = await sharp(blurred).metadata();
    expect([b.format, b.width, b.height]).toEqual(['webp', p.width, p.height]);
    expect([p.width, p.height]).toEqual([256, 170]);
    const stats = await sharp(blurred).stats();
    const [r, g, bl] = stats.channels;
    expect(Math.abs((r?.mean ?? 0) - (g?.mean ?? 1))).toBeLessThan(1);
    expect(Math.abs((g?.mean ?? 0) - (bl?.mean ?? 1))).toBeLessThan(1);
    // the check has teeth: the plain preview of the same blocks is far from its 16 px version
    expect(await fineDetail(plain)).toBeGreaterThan(30);
    // measured: 79 for the plain preview, 6.2 for the blurred one (sigma-16 blur, WebP effort 0)
    expect(await fineDetail(blurred)).toBeLessThan(10);
  });
});
