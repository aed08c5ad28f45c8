import type { IndicatorCode } from './image-facts.js';

/**
 * The codes whose check reads, of the collection, only the images of the target's camera model
 * (its ModelStats: modelStatsOf) and of its camera body (a subset of those), besides the target
 * itself and the time: judged from the target and those images alone, each gives exactly what the
 * whole collection gives it (model-scope.test.ts). The others read the target's deliveries, name
 * patterns, folders or name sequences, which may span the whole collection.
 */
export const MODEL_SCOPED_CODES: readonly IndicatorCode[] = [
  'EDITING_SOFTWARE',
  'MODIFY_DATE_DIFFERS',
  'THUMBNAIL_MISMATCH',
  'QUANTISATION_UNLIKE_CAMERA',
  'TIMESTAMP_OUT_OF_RANGE',
  'DIMENSIONS_UNLIKE_CAMERA',
];
