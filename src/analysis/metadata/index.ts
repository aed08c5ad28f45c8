// The public surface of analysis/metadata: the fields Custody records at ingest (exifr, fast)
// and the full ExifTool dump (slow, complete).
export {
  readExifFields,
  EXIFR_OPTIONS,
  EXIFR_TIME_LIMIT_MS,
  MAX_WARNINGS,
} from './exifr.adapter.js';
export type { ExifReadResult, ReadExifOptions } from './exifr.adapter.js';
export { emptyExifFields, type ExifFields, type GpsFields } from './exif-fields.js';
export {
  ExifToolAdapter,
  fullExifDump,
  closeExifTool,
  EXIFTOOL_TIMEOUT_MS,
} from './exiftool.adapter.js';
export type { ExifToolAdapterOptions } from './exiftool.adapter.js';
export { MetadataError, type MetadataErrorCode } from './errors.js';
