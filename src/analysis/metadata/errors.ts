import { CustodyError } from '../../core/index.js';

export type MetadataErrorCode =
  /** ExifTool could not read the file (missing, unreadable, or ExifTool itself failed); the cause is attached. */
  | 'METADATA_EXIFTOOL_FAILED'
  /** ExifTool did not answer within the per-file time limit; its process was ended. */
  | 'METADATA_EXIFTOOL_TIMEOUT';

export class MetadataError extends CustodyError<MetadataErrorCode> {}
