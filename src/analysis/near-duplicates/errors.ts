import { CustodyError } from '../../core/index.js';

export type NearDuplicateErrorCode =
  /** A hash or dihedral variant is not a Uint8Array of 32 bytes, or a record has not 7 variants. */
  | 'NEAR_DUP_BAD_HASH'
  /** The threshold is not an integer between 0 and 256. */
  | 'NEAR_DUP_BAD_THRESHOLD'
  /** A record id is not a safe integer. */
  | 'NEAR_DUP_BAD_ID'
  /** Two records share an id, so a pair {a, b} would be ambiguous. */
  | 'NEAR_DUP_DUPLICATE_ID'
  /** A search plan handed in does not satisfy the pigeonhole condition (internal misuse). */
  | 'NEAR_DUP_BAD_PLAN';

export class NearDuplicateError extends CustodyError<NearDuplicateErrorCode> {}
