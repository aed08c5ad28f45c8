import { CustodyError } from '../core/errors.js';

export type ArchiveErrorCode =
  | 'ARCHIVE_EXISTS'
  | 'ARCHIVE_NOT_FOUND'
  | 'ARCHIVE_INVALID'
  | 'ARCHIVE_TREE_SIZE_INVALID'
  | 'ARCHIVE_NOT_SIGNED'
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
  | 'ALREADY_WITHDRAWN';

export class ArchiveError extends CustodyError<ArchiveErrorCode> {}
