import { CustodyError } from '../../core/index.js';

export type IndicatorErrorCode =
  /** opts.now is not an RFC 3339 date-time. */
  | 'INDICATORS_BAD_NOW'
  /** opts.thumbnailDistance is not an integer between 0 and 256. */
  | 'INDICATORS_BAD_THRESHOLD';

export class IndicatorError extends CustodyError<IndicatorErrorCode> {}
