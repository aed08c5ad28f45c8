// Fellegi–Sunter record linkage of missing-person reports (issue 15). Pure: no I/O. It proposes
// pairs and clusters for review; it never merges reports.
export {
  linkRecords,
  isSeedPair,
  planLinkage,
  finishLinkage,
  scoreUnseenPairs,
  LINKAGE_DEFAULTS,
  type LinkagePlan,
} from './link.js';
export { compareAll, compareSlice } from './compare-all.js';
export {
  clusterPairs,
  FLOOR_WEIGHT,
  type ClusterOptions,
  type Clustering,
  type ScoreUnseen,
  type WeightedPair,
} from './cluster.js';
export { linkRecordsParallel, linkRecordsFor, linkageMode, PARALLEL_FROM, type ParallelLinkOptions } from './parallel-link.adapter.js';
export { BLOCKING_RULES, candidatePairs, type BlockingRule, type Candidates } from './blocking.js';
export {
  LINK_FIELDS,
  MISSING,
  JW_HIGH,
  JW_MID,
  compareRecords,
  prepareRecord,
  prepareRecordAs,
  dateLevel,
  birthYearLevel,
  parsePartialDate,
  type LinkField,
  type PartialDate,
  type PreparedRecord,
} from './fields.js';
export {
  estimateLambda,
  estimateParameters,
  matchPosterior,
  nameAgreement,
  orientClasses,
  type EmParameters,
  type EmResult,
  type PatternCount,
} from './em.js';
export {
  MIN_RULE_PAIRS,
  MISSING_CELL,
  patternCounts,
  trainPerRule,
  type RuleTraining,
  type TrainedModel,
  type TrainingInput,
  type TrainingRule,
} from './training.js';
export {
  LinkageError,
  type BlockingSummary,
  type FieldParameters,
  type LevelParameters,
  type LinkRecord,
  type LinkageErrorCode,
  type LinkageModel,
  type LinkageOptions,
  type LinkageResult,
  type LinkedPair,
} from './types.js';
