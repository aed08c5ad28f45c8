import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { mediaTypeOf, SNIFF_HEAD_BYTES } from '../../src/ingest/media-type.js';

async function tiff(compression: 'none' | 'jpeg' | 'lzw', endian: 'le' | 'be' = 'le'): Promise<Buffer> {
  const w = 200;
  const h = 150;
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7) % 251;
  const b = await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).tiff({ compression }).toBuffer();
  if (endian === 'le') return b;
  // The same header written big-endian: only the first bytes matter to the fallback.
  const be = Buffer.from(b);
  be.write('MM', 0, 'latin1');
  be.writeUInt16BE(42, 2);
  return be;
}

describe('media type of a received file', () => {
  it('files a TIFF whose first directory comes after the image data (beyond the bytes read) as image/tiff', async () => {
    for (const c of ['none', 'jpeg'] as const) {
      const file = await tiff(c);
      expect(file.readUInt32LE(4), c).toBeGreaterThan(SNIFF_HEAD_BYTES); // the IFD is out of reach
      expect(await mediaTypeOf(file.subarray(0, SNIFF_HEAD_BYTES)), c).toBe('image/tiff');
    }
    expect(await mediaTypeOf((await tiff('none', 'be')).subarray(0, SNIFF_HEAD_BYTES))).toBe('image/tiff');
  });

  it('still names what file-type recognises, and anonymous bytes as octet-stream', async () => {
    expect(await mediaTypeOf((await tiff('lzw')).subarray(0, SNIFF_HEAD_BYTES))).toBe('image/tiff');
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } }).jpeg().toBuffer();
    expect(await mediaTypeOf(jpeg)).toBe('image/jpeg');
    expect(await mediaTypeOf(Buffer.from('II not a tiff at all'))).toBe('application/octet-stream');
    expect(await mediaTypeOf(Buffer.alloc(0))).toBe('application/octet-stream');
  });
});
