import { gpsFromBlock, type GpsFields } from './gps-fields.js';
import { dateValue, integerValue, textValue, type RawBlock, type Warn } from './tiff-values.js';

/**
 * The EXIF/XMP/IPTC/ICC fields Custody records for an item at ingest. Every field is nullable:
 * null means "absent or unreadable", and the reason for unreadable is in the warnings.
 *
 * The custody ledger accepts only integers and strings, so there are no floats here: dates stay
 * the literal EXIF strings ('YYYY:MM:DD HH:MM:SS', EXIF 2.32 tag 0x9003), never converted
 * through a time zone; GPS and other rationals are decimal strings (see gps-fields.ts).
 */
export interface ExifFields {
  make: string | null;
  model: string | null;
  /** EXIF 2.32 tag 0xA431 BodySerialNumber; maker-note serial numbers are not read. */
  bodySerialNumber: string | null;
  serialNumberSource: 'ExifIFD:BodySerialNumber' | null;
  lensMake: string | null;
  lensModel: string | null;
  /** 0x9003, literal 'YYYY:MM:DD HH:MM:SS'. */
  dateTimeOriginal: string | null;
  /** 0x9004 DateTimeDigitized (ExifTool's CreateDate). */
  createDate: string | null;
  /** 0x0132 DateTime in IFD0 (ExifTool's ModifyDate). */
  modifyDate: string | null;
  subSecTime: string | null;
  subSecTimeOriginal: string | null;
  subSecTimeDigitized: string | null;
  offsetTime: string | null;
  offsetTimeOriginal: string | null;
  offsetTimeDigitized: string | null;
  software: string | null;
  /** 0x0112, 1–8 (TIFF 6.0 §8); other values are reported as null with a warning. */
  orientation: number | null;
  gps: GpsFields | null;
  /** 0xA002/0xA003 PixelXDimension/PixelYDimension as the camera wrote them. */
  exifImageWidth: number | null;
  exifImageHeight: number | null;
  /** From the JPEG frame header (ITU-T T.81 §B.2.2), the size a decoder will produce. */
  imageWidth: number | null;
  imageHeight: number | null;
  xmpCreatorTool: string | null;
  /** stEvt:softwareAgent of each xmpMM:History event, in document order. */
  xmpHistorySoftware: string[] | null;
  /** IPTC IIM 2:25 Keywords. */
  iptcKeywords: string[] | null;
  iccProfileDescription: string | null;
  /** IFD1 JPEGInterchangeFormat/Length (0x0201/0x0202) as absolute offsets in the file. */
  thumbnail: { offset: number; length: number } | null;
}

export type { GpsFields } from './gps-fields.js';

/** Tag numbers we ask exifr for (EXIF 2.32 §4.6.4–4.6.6; TIFF 6.0 §8). */
export const IFD0_TAGS = {
  make: 0x010f,
  model: 0x0110,
  orientation: 0x0112,
  software: 0x0131,
  dateTime: 0x0132,
} as const;
export const EXIF_TAGS = {
  dateTimeOriginal: 0x9003,
  dateTimeDigitized: 0x9004,
  offsetTime: 0x9010,
  offsetTimeOriginal: 0x9011,
  offsetTimeDigitized: 0x9012,
  subSecTime: 0x9290,
  subSecTimeOriginal: 0x9291,
  subSecTimeDigitized: 0x9292,
  pixelXDimension: 0xa002,
  pixelYDimension: 0xa003,
  bodySerialNumber: 0xa431,
  lensMake: 0xa433,
  lensModel: 0xa434,
} as const;
export const IFD1_TAGS = {
  jpegInterchangeFormat: 0x0201,
  jpegInterchangeFormatLength: 0x0202,
} as const;

export interface RawTiffBlocks {
  ifd0?: RawBlock;
  exif?: RawBlock;
  gps?: RawBlock;
  ifd1?: RawBlock;
}

export function emptyExifFields(): ExifFields {
  return {
    make: null,
    model: null,
    bodySerialNumber: null,
    serialNumberSource: null,
    lensMake: null,
    lensModel: null,
    dateTimeOriginal: null,
    createDate: null,
    modifyDate: null,
    subSecTime: null,
    subSecTimeOriginal: null,
    subSecTimeDigitized: null,
    offsetTime: null,
    offsetTimeOriginal: null,
    offsetTimeDigitized: null,
    software: null,
    orientation: null,
    gps: null,
    exifImageWidth: null,
    exifImageHeight: null,
    imageWidth: null,
    imageHeight: null,
    xmpCreatorTool: null,
    xmpHistorySoftware: null,
    iptcKeywords: null,
    iccProfileDescription: null,
    thumbnail: null,
  };
}

/**
 * Fills the TIFF-derived fields of `out` from exifr's raw blocks. `tiffStart` is the file offset
 * of the TIFF header (the byte after 'Exif\0\0'), used to make thumbnail offsets absolute.
 * Untrusted input: every value is type-checked; a wrong type gives null and a warning.
 */
export function fillFromTiffBlocks(
  out: ExifFields,
  raw: RawTiffBlocks,
  tiffStart: number | null,
  fileLength: number,
  warn: Warn,
): void {
  const ifd0 = raw.ifd0 ?? {};
  const exif = raw.exif ?? {};
  out.make = textValue(ifd0[IFD0_TAGS.make], 'Make', warn);
  out.model = textValue(ifd0[IFD0_TAGS.model], 'Model', warn);
  out.software = textValue(ifd0[IFD0_TAGS.software], 'Software', warn);
  out.modifyDate = dateValue(ifd0[IFD0_TAGS.dateTime], 'ModifyDate', warn);
  out.orientation = orientationValue(ifd0[IFD0_TAGS.orientation], warn);

  out.dateTimeOriginal = dateValue(exif[EXIF_TAGS.dateTimeOriginal], 'DateTimeOriginal', warn);
  out.createDate = dateValue(exif[EXIF_TAGS.dateTimeDigitized], 'CreateDate', warn);
  out.subSecTime = textValue(exif[EXIF_TAGS.subSecTime], 'SubSecTime', warn);
  out.subSecTimeOriginal = textValue(
    exif[EXIF_TAGS.subSecTimeOriginal],
    'SubSecTimeOriginal',
    warn,
  );
  out.subSecTimeDigitized = textValue(
    exif[EXIF_TAGS.subSecTimeDigitized],
    'SubSecTimeDigitized',
    warn,
  );
  out.offsetTime = textValue(exif[EXIF_TAGS.offsetTime], 'OffsetTime', warn);
  out.offsetTimeOriginal = textValue(
    exif[EXIF_TAGS.offsetTimeOriginal],
    'OffsetTimeOriginal',
    warn,
  );
  out.offsetTimeDigitized = textValue(
    exif[EXIF_TAGS.offsetTimeDigitized],
    'OffsetTimeDigitized',
    warn,
  );
  out.exifImageWidth = integerValue(exif[EXIF_TAGS.pixelXDimension], 'ExifImageWidth', warn);
  out.exifImageHeight = integerValue(exif[EXIF_TAGS.pixelYDimension], 'ExifImageHeight', warn);
  out.bodySerialNumber = textValue(exif[EXIF_TAGS.bodySerialNumber], 'BodySerialNumber', warn);
  out.serialNumberSource = out.bodySerialNumber === null ? null : 'ExifIFD:BodySerialNumber';
  out.lensMake = textValue(exif[EXIF_TAGS.lensMake], 'LensMake', warn);
  out.lensModel = textValue(exif[EXIF_TAGS.lensModel], 'LensModel', warn);

  if (raw.gps !== undefined) out.gps = gpsFromBlock(raw.gps, warn);
  if (raw.ifd1 !== undefined) out.thumbnail = thumbnailValue(raw.ifd1, tiffStart, fileLength, warn);
}

function orientationValue(v: unknown, warn: Warn): number | null {
  const n = integerValue(v, 'Orientation', warn);
  if (n === null || (n >= 1 && n <= 8)) return n;
  warn(`EXIF Orientation: ${n} is outside 1–8`);
  return null;
}

function thumbnailValue(
  ifd1: RawBlock,
  tiffStart: number | null,
  fileLength: number,
  warn: Warn,
): ExifFields['thumbnail'] {
  const offset = integerValue(ifd1[IFD1_TAGS.jpegInterchangeFormat], 'ThumbnailOffset', warn);
  const length = integerValue(ifd1[IFD1_TAGS.jpegInterchangeFormatLength], 'ThumbnailLength', warn);
  if (offset === null || length === null || tiffStart === null) return null;
  const absolute = tiffStart + offset;
  if (length === 0 || absolute + length > fileLength) {
    warn(
      `EXIF thumbnail: ${length} bytes at file offset ${absolute} do not fit in the ${fileLength}-byte file`,
    );
    return null;
  }
  return { offset: absolute, length };
}
