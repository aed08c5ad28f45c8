import { CustodyError } from '../../core/index.js';

export type SamplingErrorCode =
  /** A unit id is not a non-empty string of printable characters, or appears twice. */
  | 'SAMPLE_FRAME_INVALID'
  /** The seed is not a non-empty string of printable characters. */
  | 'SAMPLE_SEED_INVALID'
  /** n is not an integer >= 0. */
  | 'SAMPLE_SIZE_INVALID'
  /** n is larger than the frame (or a stratum's size larger than the stratum). */
  | 'SAMPLE_SIZE_EXCEEDS_FRAME'
  /** A stratum name is invalid, or one unit is listed in two strata. */
  | 'SAMPLE_STRATA_INVALID'
  /** The allocation is neither {total} nor {sizes}, or sizes do not name exactly the strata. */
  | 'SAMPLE_ALLOCATION_INVALID';

export class SamplingError extends CustodyError<SamplingErrorCode> {}
