// The finding vocabulary (versioned, configurable) and the examiner's form checked against it.
export { ExaminationError, type ExaminationErrorCode, type Issue } from './errors.js';
export {
  AGE_BANDS,
  FINDING_VALUES,
  SEXES,
  ageBandRank,
  type AgeBand,
  type Codebook,
  type CodebookTerm,
  type FindingDefinition,
  type FindingValue,
  type Sex,
  TRANSLATION_STATUSES,
  type CodebookTranslation,
  type TranslatedTerm,
  type TranslationStatus,
} from './types.js';
export {
  CUSTODY_FORENSIC_V1,
  CUSTODY_FORENSIC_V2,
  DEFAULT_CODEBOOK,
  DEFAULT_CODEBOOK_VERSION,
  DEFAULT_CODEBOOKS,
} from './default.js';
export { codebookDigest, defineCodebook } from './define.js';
export {
  blankForm,
  parseExaminationForm,
  type BlankForm,
  type ExaminationAnswer,
  type FindingAnswer,
} from './form.js';
export { dependentFields, impliedValue } from './dependencies.js';
