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
  /** Reading or sealing a report needs the report KEK, which opens only with the report passphrase (CUSTODY_REPORT_PASSPHRASE). */
  | 'MISSING_REPORT_KEK_LOCKED'
  /** The report KEK file (keys/report-kek.key) is gone while report keys are wrapped under it: restore it from a backup. */
  | 'MISSING_REPORT_KEK_MISSING'
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
  /** A report↔subject decision, level or viewing names a subject the catalogue does not hold. */
  | 'MISSING_SUBJECT_NOT_FOUND'
  /** A report↔subject decision without a reason, with an unknown decision or level, or a bad corroboration reference. */
  | 'MISSING_SUBJECT_LINK_INVALID'
  /** A level or a viewing over a report↔subject link that no reviewer has accepted (or that was rejected). */
  | 'MISSING_SUBJECT_LINK_NOT_ACCEPTED'
  /** `recognised` without a viewing of this report and subject in which the family recognised a photograph; `confirmed` over a link not recognised. */
  | 'MISSING_LEVEL_NEEDS_RECOGNITION'
  /** `confirmed` without a corroboration reference (number record, DNA or document). */
  | 'MISSING_LEVEL_NEEDS_CORROBORATION'
  /** A viewing for a family whose consent does not allow photographs to be shown. */
  | 'MISSING_VIEWING_NO_CONSENT'
  /** A viewing recorded by someone other than the liaison the family's consent names. */
  | 'MISSING_VIEWING_WRONG_LIAISON'
  /** A viewing without attendees or photographs, with a photograph not of the subject, or an unknown outcome. */
  | 'MISSING_VIEWING_INVALID'
  | 'PM_INVALID'
  | 'PM_SUBJECT_NOT_FOUND';

export class IdentificationError extends CustodyError<IdentificationErrorCode> {}
