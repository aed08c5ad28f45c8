// The shape of a codebook and the vocabularies that are fixed across codebooks. Findings and
// regions are configurable (defineCodebook); the value scale, sex and age bands are not, because
// the agreement statistics downstream depend on them (the age bands are ordinal).

import { AGE_BANDS, type AgeBand, type Sex } from '../../catalogue/subjects/index.js';

/** How an examiner answers each finding. */
export type FindingValue = 'present' | 'absent' | 'cannot_assess';
export const FINDING_VALUES: readonly FindingValue[] = ['present', 'absent', 'cannot_assess'];

// Sex and age band are the catalogue's vocabularies (a subject's record); the codebook uses them as is.
export { AGE_BANDS, SEXES, type AgeBand, type Sex } from '../../catalogue/subjects/index.js';

/**
 * The rank of an age band for ordinal agreement (1 = '<18' … 6 = '60+'), or null for
 * 'undetermined', which the agreement coefficients treat as a missing value.
 *
 * @example
 *   ageBandRank('30-39')        // 3
 *   ageBandRank('undetermined') // null
 */
export function ageBandRank(band: AgeBand): number | null {
  return band === 'undetermined' ? null : AGE_BANDS.indexOf(band) + 1;
}

/** One term of the codebook: a stable machine code, a label for people, and its definition. */
export interface CodebookTerm<C extends string = string> {
  readonly code: C;
  readonly label: string;
  readonly definition: string;
}

export interface FindingDefinition extends CodebookTerm {
  /** True when a 'present' answer must name the body regions where the finding is seen. */
  readonly regional: boolean;
}

/**
 * A versioned finding vocabulary. Everything an answer's meaning depends on is in here, so
 * `codebookDigest` pins it: a report and a stats record cite the version and the digest.
 * A plain JSON value (no floats), so it canonicalizes and can be stored in the ledger as is.
 */
export interface Codebook {
  readonly version: string;
  readonly title: string;
  /** General instructions printed with the blank form. */
  readonly instructions: string;
  /** Exactly FINDING_VALUES, in that order, with their definitions. */
  readonly values: readonly CodebookTerm<FindingValue>[];
  /** Exactly SEXES, in that order. */
  readonly sexes: readonly CodebookTerm<Sex>[];
  /** Exactly AGE_BANDS, in that order (the order is the ordinal scale). */
  readonly ageBands: readonly CodebookTerm<AgeBand>[];
  readonly regions: readonly CodebookTerm[];
  readonly findings: readonly FindingDefinition[];
}
