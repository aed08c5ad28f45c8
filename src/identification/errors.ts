import { CustodyError } from '../core/index.js';

export type IdentificationErrorCode =
  /** A report (or an import row) that fails the report schema; details.errors names row and column. */
  | 'MISSING_REPORT_INVALID'
  /** An import with any bad row: nothing was imported. */
  | 'MISSING_REPORT_IMPORT_REJECTED'
  | 'MISSING_REPORT_NOT_FOUND'
  /** The report's key was destroyed (`missing erase`): its content can no longer be read by anyone. */
  | 'MISSING_REPORT_ERASED'
  /** Reading or sealing a report needs the archive key (write mode). */
  | 'MISSING_REPORT_KEY_REQUIRED'
  /** A report recorded and not erased whose key file is gone: the report is unreadable. */
  | 'MISSING_REPORT_KEY_MISSING'
  /** A key file that fails authentication, or a ciphertext that its key does not open. */
  | 'MISSING_REPORT_KEY_INVALID'
  /** The asking organisation is outside the report's consent scope. */
  | 'MISSING_REPORT_FORBIDDEN'
  /** A link review names a report the archive does not hold (`missing link-review A B`). */
  | 'MISSING_LINK_UNKNOWN_REPORT'
  /** A link review of a report with itself, or without a decision or reason. */
  | 'MISSING_LINK_INVALID'
  | 'PM_INVALID'
  | 'PM_SUBJECT_NOT_FOUND';

export class IdentificationError extends CustodyError<IdentificationErrorCode> {}
