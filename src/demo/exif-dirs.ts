import type { PlannedGps, PlannedPhoto } from './plan-types.js';

/** Tag-name → value pairs per IFD, in the shape sharp's withExif() takes (libexif tag names). */
export interface ExifDirs {
  IFD0: Record<string, string>;
  IFD2: Record<string, string>;
  IFD3?: Record<string, string>;
}

/**
 * The EXIF a camera would have written for `p`. Names are libexif's (libvips writes EXIF
 * through libexif 0.6.x): 'DateTimeDigitized' for 0x9004, 'ISOSpeedRatings' for 0x8827.
 * Rationals are 'n/d' strings, several separated by spaces. libexif itself writes ExifVersion
 * '0210' and GPSVersionID 2.2.0.0 whatever is asked, so those two are left to it.
 */
export function buildExifDirs(p: PlannedPhoto): ExifDirs {
  const e = p.exif;
  const dirs: ExifDirs = {
    IFD0: {
      Make: e.make,
      Model: e.model,
      Software: e.software,
      DateTime: e.dateTime,
      Orientation: String(e.orientation),
    },
    IFD2: {
      DateTimeOriginal: e.dateTimeOriginal,
      DateTimeDigitized: e.dateTimeDigitized,
      OffsetTime: e.offsetTime,
      OffsetTimeOriginal: e.offsetTimeOriginal,
      OffsetTimeDigitized: e.offsetTimeDigitized,
      SubSecTimeOriginal: e.subSecTimeOriginal,
      SubSecTimeDigitized: e.subSecTimeDigitized,
      BodySerialNumber: e.bodySerialNumber,
      ExposureTime: e.exposureTime,
      FNumber: e.fNumber,
      ISOSpeedRatings: e.iso,
      FocalLength: e.focalLength,
      ColorSpace: '1', // sRGB; libvips would otherwise write 0xFFFF, uncalibrated
    },
  };
  if (e.gps !== undefined) dirs.IFD3 = buildGpsDir(e.gps);
  return dirs;
}

/** GPS IFD per EXIF 2.32 §4.6.6: unsigned DMS rationals plus N/S and E/W references. */
function buildGpsDir(gps: PlannedGps): Record<string, string> {
  return {
    GPSLatitudeRef: gps.latitude < 0 ? 'S' : 'N',
    GPSLatitude: toDmsRationals(gps.latitude),
    GPSLongitudeRef: gps.longitude < 0 ? 'W' : 'E',
    GPSLongitude: toDmsRationals(gps.longitude),
    GPSAltitudeRef: gps.altitudeM < 0 ? '1' : '0',
    GPSAltitude: `${Math.round(Math.abs(gps.altitudeM) * 10)}/10`,
    GPSTimeStamp: gps.timeStamp
      .split(':')
      .map((part) => `${Number(part)}/1`)
      .join(' '),
    GPSDateStamp: gps.dateStamp,
    GPSMapDatum: 'WGS-84',
  };
}

/** Degrees, minutes, seconds with milliarcsecond resolution: '41/1 0/1 55080/1000'. */
export function toDmsRationals(decimalDegrees: number): string {
  const mas = Math.round(Math.abs(decimalDegrees) * 3_600_000);
  const degrees = Math.floor(mas / 3_600_000);
  const minutes = Math.floor((mas % 3_600_000) / 60_000);
  const seconds = mas % 60_000;
  return `${degrees}/1 ${minutes}/1 ${seconds}/1000`;
}
