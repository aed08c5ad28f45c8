// How long a file takes: readExifFields (exifr, at ingest) vs fullExifDump (ExifTool), on the
// fixture camera JPEGs (when present) and on a generated 8 MP JPEG. Printed, not asserted, apart
// from the order of magnitude between the two (machines and CI runners differ too much).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeExifTool, fullExifDump, readExifFields } from '../../src/analysis/metadata/index.js';
import { makeTempDir } from '../support/tmp.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const IMAGES = path.resolve(HERE, '../../../shared/fixtures/exif/images');
const FIXTURES_REASON = existsSync(IMAGES) ? null : `EXIF sample images not found at ${IMAGES}`;
if (FIXTURES_REASON !== null)
  console.warn(`[metadata-speed] fixture timings skipped: ${FIXTURES_REASON}`);

afterAll(closeExifTool);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** Median milliseconds of `reps` calls after `warm` unmeasured ones. */
async function timeIt(fn: () => Promise<unknown>, reps: number, warm = 3): Promise<number> {
  for (let i = 0; i < warm; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

/** An 8 MP (3264×2448) camera-like JPEG with EXIF, GPS and an sRGB profile. */
async function eightMegapixelJpeg(): Promise<Buffer> {
  return sharp({
    create: {
      width: 3264,
      height: 2448,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 120, sigma: 40 },
    },
  })
    .withExif({
      IFD0: { Make: 'Custody Test', Model: 'CT-8', DateTime: '2024:05:01 10:00:00' },
      IFD2: { DateTimeOriginal: '2024:05:01 10:00:00', SubSecTimeOriginal: '120' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '41/1 0/1 5508/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '28/1 58/1 1234/100',
      },
    })
    .withIccProfile('srgb')
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe('metadata read time per file', () => {
  it.skipIf(FIXTURES_REASON !== null)('fixture camera JPEGs: exifr vs ExifTool', async () => {
    const files = readdirSync(IMAGES, { recursive: true })
      .map(String)
      .filter((f) => f.toLowerCase().endsWith('.jpg'))
      .map((f) => path.join(IMAGES, f));
    const exifrMs: number[] = [];
    const exiftoolMs: number[] = [];
    for (const file of files) {
      const bytes = readFileSync(file); // ingest already holds the bytes; reading them is not timed
      exifrMs.push(await timeIt(() => readExifFields(bytes), 20));
      exiftoolMs.push(await timeIt(() => fullExifDump(file), 3, 1));
    }
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `[metadata-speed] ${files.length} fixture JPEGs, median per file: readExifFields mean ${mean(exifrMs).toFixed(3)} ms ` +
        `(max ${Math.max(...exifrMs).toFixed(3)}), fullExifDump mean ${mean(exiftoolMs).toFixed(1)} ms (max ${Math.max(...exiftoolMs).toFixed(1)})`,
    );
    expect(mean(exifrMs) * 5).toBeLessThan(mean(exiftoolMs));
  });

  it('a generated 8 MP JPEG: exifr vs ExifTool', async () => {
    const bytes = await eightMegapixelJpeg();
    const file = path.join(await makeTempDir('metadata-speed'), '8mp.jpg');
    await writeFile(file, bytes);
    const { fields, warnings } = await readExifFields(bytes);
    const dump = await fullExifDump(file); // ExifTool 13.50, live: a second opinion beside the fixtures
    expect(warnings).toEqual([]);
    expect(fields).toMatchObject({
      imageWidth: 3264,
      imageHeight: 2448,
      make: 'Custody Test',
      subSecTimeOriginal: '120',
    });
    expect(fields.iccProfileDescription).toBe(dump['ICC_Profile:ProfileDescription']);
    expect(fields.gps).toMatchObject({ latitude: '41.0153000', longitude: '28.9700944' });
    expect(
      Math.abs(Number(fields.gps?.latitude) - Number(dump['Composite:GPSLatitude'])),
    ).toBeLessThan(1e-6);
    expect(
      Math.abs(Number(fields.gps?.longitude) - Number(dump['Composite:GPSLongitude'])),
    ).toBeLessThan(1e-6);
    const exifrMs = await timeIt(() => readExifFields(bytes), 50);
    const exiftoolMs = await timeIt(() => fullExifDump(file), 5, 1);
    console.log(
      `[metadata-speed] 8 MP JPEG (${(bytes.length / 1e6).toFixed(1)} MB): readExifFields ${exifrMs.toFixed(3)} ms, ` +
        `fullExifDump ${exiftoolMs.toFixed(1)} ms (medians)`,
    );
    expect(exifrMs * 5).toBeLessThan(exiftoolMs);
  });
});
