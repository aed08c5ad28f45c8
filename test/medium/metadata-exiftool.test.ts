// fullExifDump through the real ExifTool (exiftool-vendored): the `exiftool -json -n -G` shape on
// a generated JPEG, agreement with readExifFields on it, and no hang on corrupt or hostile files.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../src/core/index.js';
import {
  closeExifTool,
  ExifToolAdapter,
  fullExifDump,
  readExifFields,
} from '../../src/analysis/metadata/index.js';
import {
  garbageApp1,
  hugeCount,
  iptcApp13,
  pairLoopIfd,
  selfLoopIfd,
  smallJpeg,
  truncatedIfd,
  withSegments,
} from '../support/hostile-jpegs.js';
import { seededBytes, seededRandom } from '../support/seeded-bytes.js';
import { makeTempDir } from '../support/tmp.js';

/** A corrupt or hostile file must be answered (or refused) well inside the adapter's limit. */
const ANSWER_BOUND_MS = 10_000;

let dir: string;
let cameraJpeg: Buffer;
beforeAll(async () => {
  dir = await makeTempDir('metadata-exiftool');
  cameraJpeg = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 200, b: 90 } },
  })
    .withExif({
      IFD0: {
        Make: 'Custody Test',
        Model: 'CT-1',
        Software: 'hostile-jpegs',
        DateTime: '2024:02:29 23:59:58',
      },
      IFD2: {
        DateTimeOriginal: '2024:02:29 23:59:59',
        OffsetTimeOriginal: '+02:00',
        BodySerialNumber: 'SN-0042',
      },
    })
    .jpeg({ quality: 85 })
    .toBuffer();
});
afterAll(closeExifTool);

async function save(name: string, bytes: Buffer): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  return file;
}

describe('fullExifDump (ExifTool)', () => {
  it('returns the exiftool -json -n -G object for a generated JPEG, and agrees with readExifFields', async () => {
    const dump = await fullExifDump(await save('camera.jpg', cameraJpeg));
    expect(dump['EXIF:Make']).toBe('Custody Test');
    expect(dump['File:ImageWidth']).toBe(64);
    expect(dump).not.toHaveProperty('errors'); // exiftool-vendored's additions are removed
    expect(
      Object.keys(dump)
        .filter((k) => k !== 'SourceFile')
        .every((k) => /^[\w-]+:/.test(k)),
    ).toBe(true);

    const { fields, warnings } = await readExifFields(cameraJpeg);
    expect(warnings).toEqual([]);
    expect(fields).toMatchObject({
      make: dump['EXIF:Make'],
      model: dump['EXIF:Model'],
      software: dump['EXIF:Software'],
      modifyDate: dump['EXIF:ModifyDate'],
      dateTimeOriginal: dump['EXIF:DateTimeOriginal'],
      offsetTimeOriginal: dump['EXIF:OffsetTimeOriginal'],
      bodySerialNumber: dump['EXIF:SerialNumber'], // ExifTool's name for 0xA431
      serialNumberSource: 'ExifIFD:BodySerialNumber',
      imageWidth: dump['File:ImageWidth'],
      imageHeight: dump['File:ImageHeight'],
    });
  });

  it('reads IPTC keywords as ExifTool does, in Latin-1 and in UTF-8 (1:90 ESC % G)', async () => {
    const keywords = ['Mariupol', 'Café', 'Drama theatre'];
    for (const utf8 of [false, true]) {
      const bytes = withSegments(cameraJpeg, iptcApp13(keywords, utf8));
      const dump = await fullExifDump(await save(`iptc-${utf8}.jpg`, bytes));
      const { fields, warnings } = await readExifFields(bytes);
      expect(warnings).toEqual([]);
      expect(fields.iptcKeywords).toEqual(keywords);
      expect(fields.iptcKeywords).toEqual(dump['IPTC:Keywords']);
    }
  });

  it('answers a corrupt file with an error field, and refuses a missing one with a code', async () => {
    const corrupt = await save(
      'corrupt.jpg',
      Buffer.concat([Buffer.from([0xff, 0xd8]), seededBytes(seededRandom(7), 5000)]),
    );
    const started = performance.now();
    const outcome = await fullExifDump(corrupt).then(
      (dump) => ({ dump, error: null }),
      (error: unknown) => ({ dump: null, error }),
    );
    expect(performance.now() - started).toBeLessThan(ANSWER_BOUND_MS);
    if (outcome.dump !== null) {
      expect(String(outcome.dump['ExifTool:Error'] ?? outcome.dump['ExifTool:Warning'])).toMatch(
        /error/i,
      );
    } else {
      expect(hasCode(outcome.error, 'METADATA_EXIFTOOL_FAILED')).toBe(true);
    }
    await expect(fullExifDump(join(dir, 'no-such-file.jpg'))).rejects.toSatisfy((e) =>
      hasCode(e, 'METADATA_EXIFTOOL_FAILED'),
    );
  });

  it('answers every hostile JPEG without hanging', async () => {
    const base = await smallJpeg();
    const cases = [
      truncatedIfd(base),
      selfLoopIfd(base),
      pairLoopIfd(base),
      hugeCount(base, 'beyond'),
      hugeCount(base, 'inside'),
      ...garbageApp1(base, 0x5eed),
    ];
    for (const [i, bytes] of cases.entries()) {
      const started = performance.now();
      const dump = await fullExifDump(await save(`hostile-${i}.jpg`, bytes));
      expect(performance.now() - started).toBeLessThan(ANSWER_BOUND_MS);
      expect(dump['File:ImageWidth']).toBe(16);
    }
  });

  it('rejects with METADATA_EXIFTOOL_TIMEOUT when ExifTool does not answer in time', async () => {
    const impatient = new ExifToolAdapter({ timeoutMs: 1 }); // a process cannot even start in 1 ms
    try {
      await expect(impatient.fullExifDump(await save('slow.jpg', cameraJpeg))).rejects.toSatisfy(
        (e) => hasCode(e, 'METADATA_EXIFTOOL_TIMEOUT'),
      );
    } finally {
      await impatient.close();
    }
  });
});
