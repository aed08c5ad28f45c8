import { CustodyError } from '../core/index.js';

export type ArchiveErrorCode =
  | 'ARCHIVE_EXISTS'
  | 'ARCHIVE_NOT_FOUND'
  | 'ARCHIVE_INVALID'
  | 'ARCHIVE_TREE_SIZE_INVALID'
  | 'ARCHIVE_NOT_SIGNED'
  /** A write (or a still-archive read) while `custody serve` is the archive's one writer (exit 1). */
  | 'ARCHIVE_SERVED'
  | 'KEY_PASSPHRASE_REQUIRED'
  | 'KEY_PASSPHRASE_WRONG'
  | 'KEY_UNREADABLE'
  | 'KEY_FILE_INVALID'
  | 'KEY_FILE_TAMPERED'
  | 'KEY_NOT_ENCRYPTED'
  | 'KEY_MISMATCH'
  | 'KEY_VERIFIER_FILE_MISMATCH'
  | 'KEY_RECORD_MISSING'
  | 'NOT_FOUND'
  | 'AMBIGUOUS'
  | 'ALREADY_WITHDRAWN'
  /** A read of a withdrawn object's content or extracted metadata (preview, EXIF) (exit 1). */
  | 'ITEM_WITHDRAWN'
  /** withdraw: the index's container relations differ from the ingestion entries (exit 1, nothing recorded). */
  | 'WITHDRAW_CONTAINER_UNPROVEN'
  /** purge: the index marks an object withdrawn without a withdrawal entry for it in the ledger (exit 1, nothing deleted). */
  | 'PURGE_WITHDRAWAL_UNPROVEN'
  /** purge: the ledger holds a withdrawal the index does not show (exit 1, nothing deleted). */
  | 'PURGE_INDEX_MISMATCH'
  /** purge: the newest checkpoint does not verify with the archive's key against the ledger (exit 1, nothing deleted). */
  | 'PURGE_CHECKPOINT_INVALID'
  /** purge: a withdrawn object also lives inside a container that is not withdrawn (exit 1; that object is left alone). */
  | 'PURGE_CONTAINER_NOT_WITHDRAWN';

export class ArchiveError extends CustodyError<ArchiveErrorCode> {}
