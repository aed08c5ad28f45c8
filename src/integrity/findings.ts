/** Stable codes for everything `custody verify` can find. Tests assert these, not messages. */
export type FindingCode =
  | 'STORE_DIGEST_MISMATCH'
  | 'STORE_OBJECT_MISSING'
  | 'STORE_OBJECT_WITHDRAWN'
  | 'STORE_EXTRA_OBJECT'
  | 'STORE_UNREADABLE'
  | 'STORE_OBJECT_NOT_REGULAR'
  | 'STORE_MODE_WORLD_READABLE'
  | 'STORE_PURGED_OBJECT_PRESENT'
  | 'LEDGER_ENTRY_MALFORMED'
  | 'LEDGER_SEQ_MISMATCH'
  | 'LEDGER_TORN_TAIL'
  | 'LEDGER_TAIL_UNAUTHENTICATED'
  | 'LEDGER_NO_CREATION_ENTRY'
  /** The leaf index (ledger/leaves.bin) disagrees with the entries it indexes. */
  | 'LEDGER_LEAVES_MISMATCH'
  | 'CHECKPOINT_ROOT_MISMATCH'
  | 'CHECKPOINT_SIGNATURE_INVALID'
  | 'CHECKPOINT_MALFORMED'
  | 'CHECKPOINT_BEYOND_LEDGER'
  | 'CHECKPOINT_MISSING'
  | 'CHECKPOINT_NOT_REGULAR'
  | 'CHECKPOINT_UNREADABLE'
  | 'KEY_MISMATCH'
  | 'TRUSTED_CHECKPOINT_UNREADABLE'
  | 'TRUSTED_CHECKPOINT_SIGNATURE_INVALID'
  | 'TRUSTED_CHECKPOINT_FOREIGN'
  | 'TRUSTED_CHECKPOINT_TRUNCATED'
  | 'TRUSTED_CHECKPOINT_INCONSISTENT'
  | 'TRUSTED_CHECKPOINT_CONSISTENT'
  | 'DB_ROW_MISSING'
  | 'DB_ROW_EXTRA'
  | 'DB_ROW_CHANGED'
  | 'DB_LEDGER_LAG'
  | 'DB_AHEAD_OF_LEDGER'
  | 'INDEX_MISSING'
  | 'INDEX_CORRUPT'
  | 'SAMPLE_DRAW_MISMATCH'
  /** A seed entry names a checkpoint that does not cover the frame, or not with the ledger's root. */
  | 'SAMPLE_SEED_CHECKPOINT_INVALID'
  | 'EXAMINATION_REVEAL_MISMATCH'
  /** A reveal before every assigned examiner of the case had submitted: the seal was broken early (issue 12). */
  | 'EXAMINATION_REVEAL_EARLY'
  | 'EXAMINATION_UNREVEALED'
  /** A missing-person report the ledger does not record as erased has no key file: it is lost, unrecorded. */
  | 'REPORT_KEY_MISSING'
  /** An erased report's key file is still there (an interrupted erase, or a restored copy). */
  | 'REPORT_KEY_AFTER_ERASE'
  /** A key file that no report in the ledger explains (an interrupted import, or planted). */
  | 'REPORT_KEY_UNKNOWN'
  /** A closed plan's published case-code key does not give the case codes its assignment recorded (issue 12). */
  | 'EXAMINATION_CASE_CODE_MISMATCH'
  /**
   * A closed plan's sealed case ids (assignment version 2) do not open with its published case-id
   * key, do not open to its drawn members, or are not the links its close entry lists (issue 12).
   */
  | 'EXAMINATION_CASE_ID_MISMATCH'
  /** A key enrolment whose self-signature does not verify, or whose key id is not its key's. */
  | 'PERSON_KEY_ENROLMENT_INVALID'
  /** A signed submission whose signature does not verify, or whose key was not the examiner's valid key at its seq. */
  | 'EXAMINATION_SIGNATURE_INVALID'
  /** A submission without a signature by an examiner who had a valid enrolled key at its seq. */
  | 'EXAMINATION_SIGNATURE_MISSING';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  code: FindingCode;
  severity: Severity;
  message: string;
  /** What it concerns: an object digest, an entry index, a table row, a file. */
  subject: string | null;
}

/** Findings for which `verify` still exits 0. */
export function isFailure(f: Finding): boolean {
  return f.severity === 'error';
}
