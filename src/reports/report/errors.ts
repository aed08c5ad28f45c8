import { CustodyError } from '../../core/index.js';

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
  | 'REPORT_WRITE_FAILED'
  /** --bag names no readable export bag (no custody/checkpoint.txt, unparsable tables, a .zip). */
  | 'REPORT_BAG_INVALID'
  /**
   * --bag's checkpoint is not one of this archive's (another origin, a signature the archive key
   * does not verify, a root other than the ledger's at that size), or a table in the bag differs
   * from what the archive gives at a cell the report cites.
   */
  | 'REPORT_BAG_MISMATCH';

export class ReportError extends CustodyError<ReportErrorCode> {}
