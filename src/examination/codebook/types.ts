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
  /**
   * Translations of the codebook's text, by language (BCP 47 primary tag, e.g. 'ar'). They are
   * part of the codebook, so the digest covers them: a changed word of a translation is a new
   * codebook. Absent from codebooks without translations (custody-forensic-v1), whose digest is
   * therefore unchanged.
   */
  readonly translations?: Readonly<Record<string, CodebookTranslation>>;
}

/** Whether a translation has been reviewed by a practitioner who is a native speaker. */
export type TranslationStatus =
  | 'needs-review-by-native-forensic-practitioner'
  | 'reviewed-by-native-forensic-practitioner';
export const TRANSLATION_STATUSES: readonly TranslationStatus[] = [
  'needs-review-by-native-forensic-practitioner',
  'reviewed-by-native-forensic-practitioner',
];

/** A term's label and definition in another language; the code stays the codebook's. */
export interface TranslatedTerm {
  readonly label: string;
  readonly definition: string;
}

/**
 * The codebook's text in one language: every term of every list, by code, with its label and
 * definition (a translation is complete or refused), and its review status.
 */
export interface CodebookTranslation {
  readonly status: TranslationStatus;
  readonly title: string;
  readonly instructions: string;
  readonly values: Readonly<Record<string, TranslatedTerm>>;
  readonly sexes: Readonly<Record<string, TranslatedTerm>>;
  readonly ageBands: Readonly<Record<string, TranslatedTerm>>;
  readonly regions: Readonly<Record<string, TranslatedTerm>>;
  readonly findings: Readonly<Record<string, TranslatedTerm>>;
}
