import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseJpegStructure } from '../../src/analysis/jpeg/jpeg-structure.js';

async function jpeg(quality: number): Promise<Buffer> {
  const raw = Buffer.alloc(64 * 48 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7) % 251;
  return sharp(raw, { raw: { width: 64, height: 48, channels: 3 } }).jpeg({ quality, mozjpeg: false }).toBuffer();
}

describe('parseJpegStructure', () => {
  it('reads markers, frame, tables and estimates the IJG quality exactly', async () => {
    for (const q of [50, 75, 90, 95]) {
      const s = parseJpegStructure(await jpeg(q));
      expect(s.warnings).toEqual([]);
      expect(s.frame).toMatchObject({ width: 64, height: 48, components: 3 });
      expect(s.markers[0]?.marker).toBe('SOI');
      expect(s.markers.some((m) => m.marker === 'SOS')).toBe(true);
      expect(s.quantTables.length).toBeGreaterThanOrEqual(2);
      expect(s.huffmanTables.length).toBeGreaterThanOrEqual(2);
      expect(s.estimatedQuality).toEqual({ quality: q, meanAbsError: 0 });
    }
  });

  it('gives different table digests for different qualities, equal for equal ones', async () => {
    const a = parseJpegStructure(await jpeg(80)).quantDigest;
    const b = parseJpegStructure(await jpeg(80)).quantDigest;
    const c = parseJpegStructure(await jpeg(81)).quantDigest;
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it('survives hostile input with a warning, never a throw', async () => {
    const good = await jpeg(90);
    expect(parseJpegStructure(Buffer.from('not a jpeg')).warnings[0]).toMatch(/no SOI/);
    expect(parseJpegStructure(good.subarray(0, 30)).warnings.length).toBeGreaterThan(0);
    const lying = Buffer.from(good);
    lying[4] = 0xff; // first segment claims ~65 kB
    lying[5] = 0xff;
    expect(parseJpegStructure(lying).warnings.join(' ')).toMatch(/beyond the end/);
    const junk = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(100, 0x41)]);
    expect(parseJpegStructure(junk).warnings.join(' ')).toMatch(/expected a marker/);
  });
});
