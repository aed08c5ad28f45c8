/**
 * A small reader for the JPEG headers and EXIF that renderPhoto writes, so the tests can check
 * its output without ExifTool or sharp. It follows ITU T.81 Annex B (marker segments), TIFF 6.0
 * §2 (header, IFD entries) and EXIF 2.32 §4.5.4 and §4.6 (APP1, Exif and GPS IFD pointers).
 *
 * Meant for our own synthetic files only. It is not the parser for evidence: EXIF from a source
 * is hostile input and belongs to analysis/, behind ExifTool. Out-of-range offsets throw.
 */

export type ExifValue = string | number[];

export interface ExifReadback {
  ifd0: Record<string, ExifValue>;
  exif: Record<string, ExifValue>;
  gps: Record<string, ExifValue>;
}

const IFD0_NAMES: Record<number, string> = {
  0x010f: 'Make',
  0x0110: 'Model',
  0x0112: 'Orientation',
  0x011a: 'XResolution',
  0x011b: 'YResolution',
  0x0128: 'ResolutionUnit',
  0x0131: 'Software',
  0x0132: 'DateTime',
  0x0213: 'YCbCrPositioning',
};
const EXIF_NAMES: Record<number, string> = {
  0x829a: 'ExposureTime',
  0x829d: 'FNumber',
  0x8827: 'ISOSpeedRatings',
  0x9000: 'ExifVersion',
  0x9003: 'DateTimeOriginal',
  0x9004: 'DateTimeDigitized',
  0x9010: 'OffsetTime',
  0x9011: 'OffsetTimeOriginal',
  0x9012: 'OffsetTimeDigitized',
  0x920a: 'FocalLength',
  0x9291: 'SubSecTimeOriginal',
  0x9292: 'SubSecTimeDigitized',
  0xa001: 'ColorSpace',
  0xa002: 'PixelXDimension',
  0xa003: 'PixelYDimension',
  0xa431: 'BodySerialNumber',
};
const GPS_NAMES: Record<number, string> = {
  0x0000: 'GPSVersionID',
  0x0001: 'GPSLatitudeRef',
  0x0002: 'GPSLatitude',
  0x0003: 'GPSLongitudeRef',
  0x0004: 'GPSLongitude',
  0x0005: 'GPSAltitudeRef',
  0x0006: 'GPSAltitude',
  0x0007: 'GPSTimeStamp',
  0x0012: 'GPSMapDatum',
  0x001d: 'GPSDateStamp',
};
const EXIF_POINTER = 0x8769;
const GPS_POINTER = 0x8825;
/** Bytes per component for TIFF field types 1–10 (TIFF 6.0 §2, "Types"). */
const TYPE_SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
};

export interface JpegHeader {
  width: number;
  height: number;
  /** The APP1 EXIF payload, starting at 'Exif\0\0'. */
  exif?: Buffer;
  /** True when an APP2 ICC_PROFILE segment is present. */
  hasIcc: boolean;
}

const SOS = 0xda;
const APP1 = 0xe1;
const APP2 = 0xe2;

/** Walks the marker segments up to the first scan: frame size, EXIF block, ICC presence. */
export function readJpegHeader(jpeg: Buffer): JpegHeader {
  if (jpeg.readUInt16BE(0) !== 0xffd8) throw new RangeError('no JPEG SOI marker');
  const header: JpegHeader = { width: 0, height: 0, hasIcc: false };
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) throw new RangeError(`no marker at byte ${at}`);
    const marker = jpeg.readUInt8(at + 1);
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === SOS) break;
    const length = jpeg.readUInt16BE(at + 2);
    const body = jpeg.subarray(at + 4, at + 2 + length);
    if (marker === APP1 && body.subarray(0, 6).toString('latin1') === 'Exif\0\0')
      header.exif = body;
    if (marker === APP2 && body.subarray(0, 12).toString('latin1') === 'ICC_PROFILE\0')
      header.hasIcc = true;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      header.height = body.readUInt16BE(1);
      header.width = body.readUInt16BE(3);
    }
    at += 2 + length;
  }
  return header;
}

/** Reads IFD0, the Exif IFD and the GPS IFD. Accepts the block with or without 'Exif\0\0'. */
export function readExifBlock(block: Buffer): ExifReadback {
  const tiff = block.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? block.subarray(6) : block;
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') throw new RangeError('not a TIFF header');
  const le = order === 'II';
  const u16 = (at: number): number => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number): number => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) throw new RangeError('TIFF magic number is not 42');

  const readIfd = (offset: number, names: Record<number, string>) => {
    const values: Record<string, ExifValue> = {};
    const pointers = new Map<number, number>();
    const count = u16(offset);
    for (let i = 0; i < count; i++) {
      const entry = offset + 2 + i * 12;
      const tag = u16(entry);
      const type = u16(entry + 2);
      const n = u32(entry + 4);
      const size = (TYPE_SIZES[type] ?? 1) * n;
      const at = size <= 4 ? entry + 8 : u32(entry + 8);
      if (at + size > tiff.length)
        throw new RangeError(`tag 0x${tag.toString(16)} runs past the block`);
      if (tag === EXIF_POINTER || tag === GPS_POINTER) pointers.set(tag, u32(entry + 8));
      else values[names[tag] ?? `0x${tag.toString(16).padStart(4, '0')}`] = decode(type, n, at);
    }
    return { values, pointers };
  };
  const decode = (type: number, n: number, at: number): ExifValue => {
    if (type === 2 || type === 7)
      return tiff
        .subarray(at, at + n)
        .toString('latin1')
        .replace(/\0+$/, '');
    const out: number[] = [];
    for (let k = 0; k < n; k++) {
      if (type === 1) out.push(tiff.readUInt8(at + k));
      else if (type === 3) out.push(u16(at + 2 * k));
      else if (type === 4) out.push(u32(at + 4 * k));
      else if (type === 5) out.push(u32(at + 8 * k) / u32(at + 8 * k + 4));
      else throw new RangeError(`TIFF type ${type} is not needed here`);
    }
    return out;
  };

  const ifd0 = readIfd(u32(4), IFD0_NAMES);
  const exifAt = ifd0.pointers.get(EXIF_POINTER);
  const gpsAt = ifd0.pointers.get(GPS_POINTER);
  return {
    ifd0: ifd0.values,
    exif: exifAt === undefined ? {} : readIfd(exifAt, EXIF_NAMES).values,
    gps: gpsAt === undefined ? {} : readIfd(gpsAt, GPS_NAMES).values,
  };
}

/** Decimal degrees from GPS DMS rationals and a reference letter (S and W are negative). */
export function dmsToDegrees(dms: ExifValue | undefined, ref: ExifValue | undefined): number {
  if (!Array.isArray(dms) || dms.length !== 3) return Number.NaN;
  const [d = 0, m = 0, s = 0] = dms;
  const sign = ref === 'S' || ref === 'W' ? -1 : 1;
  return sign * (d + m / 60 + s / 3600);
}
