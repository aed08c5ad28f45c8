import { CustodyError } from '../../core/errors.js';

export type ReportErrorCode =
  /** --at names a tree size at which no checkpoint was signed (a report cites a signed one). */
  | 'REPORT_NO_CHECKPOINT'
  /** --exhibits names an item that is not in the archive at the checkpoint. */
  | 'REPORT_UNKNOWN_EXHIBIT'
  /** --include-images: an exhibit's stored bytes do not match its SHA-256 (no thumbnail is made). */
  | 'REPORT_EXHIBIT_DAMAGED'
  /** The PDF could not be printed (Chromium missing, crashed, or timed out). */
  | 'REPORT_PDF_FAILED'
  /** The report could not be written to --out. */
  | 'REPORT_WRITE_FAILED';

export class ReportError extends CustodyError<ReportErrorCode> {}
