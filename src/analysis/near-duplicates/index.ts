// The public surface of analysis/near-duplicates: exact all-pairs search over PDQ hashes.
export {
  findPairs,
  findPackedPairs,
  DEFAULT_THRESHOLD,
  type FindPairsOptions,
} from './find-pairs.js';
export {
  findPairsParallel,
  findPackedPairsParallel,
  type ParallelOptions,
} from './find-pairs-parallel.js';
export { bruteForcePairs } from './brute-force.js';
export {
  packRecords,
  type HashRecord,
  type Pair,
  type PairColumns,
  type PackedHashes,
} from './packed.js';
export { pairsOf } from './collect.js';
export { planSubstrings, type Substring } from './plan.js';
export { NearDuplicateError, type NearDuplicateErrorCode } from './errors.js';
