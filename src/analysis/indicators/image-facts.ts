/**
 * What the indicators read about one stored object (one set of bytes, by SHA-256), and what they
 * return. The facts are extracted at ingest from hostile files (EXIF, XMP, JPEG segments are
 * attacker-controlled): every string here is treated as untrusted text, never as a format we rely on
 * without checking (see facts-keys.ts for the validating parsers).
 */

/** Every indicator code, in the order the README documents them. Codes are stable. */
export const INDICATOR_CODES = [
  'EDITING_SOFTWARE',
  'MODIFY_DATE_DIFFERS',
  'EXIF_MISSING',
  'CAMERA_UNLIKE_DELIVERY',
  'THUMBNAIL_MISMATCH',
  'QUANTISATION_UNLIKE_CAMERA',
  'NAME_SEQUENCE_VS_TIME',
  'TIMESTAMP_OUT_OF_RANGE',
  'DIMENSIONS_UNLIKE_CAMERA',
] as const;

export type IndicatorCode = (typeof INDICATOR_CODES)[number];

/** One receipt of the bytes: the item, its file name and path as delivered, and the source's delivery. */
export interface ItemReceipt {
  id: string;
  name: string;
  relativePath: string;
  delivery: string;
}

export interface ImageFacts {
  sha256: string;
  /** Receipts of these bytes; the same object may arrive in several deliveries under several names. */
  items: ItemReceipt[];
  mediaType: string;
  make: string | null;
  model: string | null;
  bodySerial: string | null;
  software: string | null;
  xmpCreatorTool: string | null;
  xmpHistorySoftware: string[];
  /** Literal EXIF 'YYYY:MM:DD HH:MM:SS' (EXIF 2.32 tag 0x9003), never converted through a time zone. */
  dateTimeOriginal: string | null;
  /** EXIF 2.32 tag 0x9004 (DateTimeDigitized), literal. */
  createDate: string | null;
  /** TIFF tag 0x0132 DateTime in IFD0, literal. */
  modifyDate: string | null;
  offsetTimeOriginal: string | null;
  subSecTimeOriginal: string | null;
  /** An EXIF APP1 segment with IFD0 was found. */
  exifPresent: boolean;
  /** From the JPEG frame header (ITU-T T.81 §B.2.2). */
  width: number | null;
  height: number | null;
  orientation: number | null;
  /** SHA-256 of the DQT payloads (ITU-T T.81 §B.2.4.1). */
  quantDigest: string | null;
  /** IJG quality 1–100 estimated from the luminance table. */
  estimatedQuality: number | null;
  /** PDQ of the main image, 64 hex digits. */
  pdq: string | null;
  /** PDQ of the embedded EXIF thumbnail (IFD1), 64 hex; null when absent or undecodable. */
  thumbnailPdq: string | null;
  /**
   * When a near-duplicate search verified this image as a crop of another object: that object's
   * SHA-256 (the likely original) and the box of it this image shows, as 'left,top,right,bottom'
   * fractions of the original's width and height.
   */
  cropOf?: { sha256: string; box: string };
}

export type EvidenceValue = string | number | null | string[];

/** One thing an expert should look at. Never a verdict: see INDICATOR_DISCLAIMER. */
export interface Indicator {
  code: IndicatorCode;
  /** Plain language; says what was compared with what. */
  explanation: string;
  evidence: Record<string, EvidenceValue>;
}
