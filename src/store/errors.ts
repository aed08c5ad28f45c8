import { CustodyError } from '../core/index.js';

export type StoreErrorCode =
  | 'STORE_DIGEST_MISMATCH'
  | 'STORE_OBJECT_MISSING'
  | 'STORE_EXTRA_OBJECT'
  | 'STORE_UNREADABLE'
  | 'STORE_OBJECT_NOT_REGULAR'
  | 'STORE_OUT_OF_SPACE'
  | 'STORE_WRITE_FAILED'
  | 'STORE_BAD_NAME';

export class StoreError extends CustodyError<StoreErrorCode> {}
