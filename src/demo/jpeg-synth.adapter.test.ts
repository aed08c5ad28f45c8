import { describe, expect, it } from 'vitest';
import { planCollection } from './collection-plan.js';
import { dmsToDegrees, readExifBlock, readJpegHeader } from './exif-readback.js';
import { toDmsRationals } from './exif-dirs.js';
import { renderPhoto } from './jpeg-synth.adapter.js';
import type { PlannedPhoto } from './plan-types.js';

// Small frames keep these tests fast; the renderer works the same way at any size.
const plan = planCollection({ count: 60, seed: 'render-test' }).map((p): PlannedPhoto => ({
  ...p,
  width: 240,
  height: Math.round((240 * p.height) / p.width),
}));
const withGps = plan.find((p) => p.exif.gps !== undefined && p.exif.orientation === 1)!;
const rotated = plan.find((p) => p.exif.orientation === 6 || p.exif.orientation === 8)!;

describe('renderPhoto', () => {
  it('gives the same bytes for the same plan entry, different bytes for another', async () => {
    const [a, b, other] = await Promise.all([
      renderPhoto(withGps),
      renderPhoto(withGps),
      renderPhoto(rotated),
    ]);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(other)).toBe(false);
    expect(a.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff])); // JPEG SOI
  });

  it('writes a JPEG of the planned size, orientation and no ICC profile', async () => {
    const header = readJpegHeader(await renderPhoto(rotated));
    expect(header).toMatchObject({ width: rotated.width, height: rotated.height, hasIcc: false });
    expect(readExifBlock(header.exif!).ifd0.Orientation).toEqual([rotated.exif.orientation]);
  });

  it('writes the planned EXIF, readable back', async () => {
    const exif = readExifBlock(readJpegHeader(await renderPhoto(withGps)).exif!);
    const e = withGps.exif;
    expect(exif.ifd0).toMatchObject({
      Make: e.make,
      Model: e.model,
      Software: e.software,
      DateTime: e.dateTime,
      Orientation: [1],
      XResolution: [withGps.camera.resolutionDpi],
    });
    expect(exif.exif).toMatchObject({
      DateTimeOriginal: e.dateTimeOriginal,
      DateTimeDigitized: e.dateTimeDigitized,
      OffsetTimeOriginal: e.offsetTimeOriginal,
      SubSecTimeOriginal: e.subSecTimeOriginal,
      BodySerialNumber: e.bodySerialNumber,
      ISOSpeedRatings: [Number(e.iso)],
      ColorSpace: [1],
    });
    const gps = e.gps!;
    expect(dmsToDegrees(exif.gps.GPSLatitude, exif.gps.GPSLatitudeRef)).toBeCloseTo(
      gps.latitude,
      6,
    );
    expect(dmsToDegrees(exif.gps.GPSLongitude, exif.gps.GPSLongitudeRef)).toBeCloseTo(
      gps.longitude,
      6,
    );
    expect(exif.gps.GPSDateStamp).toBe(gps.dateStamp);
    expect(exif.gps.GPSTimeStamp).toEqual(gps.timeStamp.split(':').map(Number));
  });

  it('omits the GPS IFD when the plan has no GPS', async () => {
    const noGps = plan.find((p) => p.exif.gps === undefined)!;
    const exif = readExifBlock(readJpegHeader(await renderPhoto(noGps)).exif!);
    expect(exif.gps).toEqual({});
    expect(exif.exif.DateTimeOriginal).toBe(noGps.exif.dateTimeOriginal);
  });
});

describe('toDmsRationals', () => {
  it('splits decimal degrees into unsigned DMS with milliarcseconds', () => {
    expect(toDmsRationals(41.0153)).toBe('41/1 0/1 55080/1000');
    expect(toDmsRationals(-0.5)).toBe('0/1 30/1 0/1000');
    expect(toDmsRationals(28.999999)).toBe('28/1 59/1 59996/1000');
  });
});
