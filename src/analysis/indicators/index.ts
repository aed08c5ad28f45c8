// The public surface of analysis/indicators: pointers for a digital-imaging expert to what in a
// photograph is unlike the rest of the collection. Pure: facts in, indicators out; never verdicts.
export { INDICATOR_CODES } from './image-facts.js';
export type {
  ImageFacts,
  ItemReceipt,
  Indicator,
  IndicatorCode,
  EvidenceValue,
} from './image-facts.js';
export { computeIndicators, indicatorEvaluator, type IndicatorOptions } from './compute.js';
export { summariseCollection, type CollectionSummary, type CameraSummary } from './summary.js';
export { INDICATOR_DISCLAIMER, INDICATOR_DOCS } from './docs.js';
export { editorNamedIn } from './editing-software.js';
export { modelKey } from './facts-keys.js';
export { MODEL_SCOPED_CODES } from './model-scope.js';
export * from './thresholds.js';
export { IndicatorError, type IndicatorErrorCode } from './errors.js';
