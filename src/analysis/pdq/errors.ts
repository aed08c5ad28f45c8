import { CustodyError } from '../../core/index.js';

export type PdqErrorCode =
  /** Width, height or channel count is not a positive integer, or the buffer has the wrong length. */
  | 'PDQ_BAD_DIMENSIONS'
  /** The luma buffer holds NaN or infinite values (they would poison the DCT and the median). */
  | 'PDQ_BAD_LUMA'
  /** A hash given to hammingDistance is not 64 hex digits / 32 bytes. */
  | 'PDQ_BAD_HASH'
  /** The image could not be decoded (the adapter wraps sharp's error as the cause). */
  | 'PDQ_UNDECODABLE';

export class PdqError extends CustodyError<PdqErrorCode> {}
