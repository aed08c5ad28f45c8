import { CustodyError } from '../../core/index.js';
import type { NameHandling } from '../names/index.js';
import type { RuleTraining } from './training.js';
import type { Clustering } from './cluster.js';

/** A missing-person report as linkage sees it: every field but id and org may be missing. */
export interface LinkRecord {
  readonly id: string;
  readonly org: string;
  readonly name_ar?: string;
  readonly name_latin?: string;
  readonly father?: string;
  readonly grandfather?: string;
  readonly family?: string;
  readonly mother?: string;
  readonly sex?: 'male' | 'female';
  readonly birth_year?: number;
  readonly origin?: string;
  /** YYYY-MM-DD, YYYY-MM or YYYY. */
  readonly arrest_date?: string;
  readonly arrest_place?: string;
  readonly unit?: string;
}

/**
 * `LINKAGE_INVALID_INPUT`: a record or an option linkage cannot read (an empty or repeated id, a
 * date that is not YYYY[-MM[-DD]], a birth year that is not a plausible whole year, a sex other
 * than male/female, a threshold outside (0, 1)). details name the record and the field.
 */
export type LinkageErrorCode = 'LINKAGE_INVALID_INPUT';

export class LinkageError extends CustodyError<LinkageErrorCode> {}

export interface LinkageOptions {
  /**
   * Pairs at or above this match probability are put in clusters for review (with 'consensus',
   * only where the pairs between the two clusters, together, clear it too). Default 0.05
   * (LINKAGE_DEFAULTS).
   */
  readonly threshold?: number;
  /**
   * How pairs become clusters (cluster.ts): 'consensus' (default), strongest pairs first, a merge
   * only when all the pairs it joins clear the threshold together; 'connected', the transitive
   * closure of the pairs at the threshold (the clusters before issue 15's quality work).
   */
  readonly clustering?: Clustering;
  /**
   * What a consensus merge costs, in bits, for each organisation both clusters already hold: a
   * family reports a person to an organisation once, so two reports of one organisation in one
   * cluster are more likely namesakes. Default 4; Infinity: at most one report of each
   * organisation per cluster (a one-to-one assignment, the better-weighted pair first). 0: none.
   */
  readonly sameOrganisationBits?: number;
  /** Pairs below this probability are left out of `pairs`. Default 0.01. */
  readonly minPairProbability?: number;
  /** Compare only reports of different organisations. Default false. */
  readonly crossOrgOnly?: boolean;
  /** Random non-candidate pairs drawn to represent the pairs blocking left out. Default 50,000. */
  readonly uSampleSize?: number;
  /** Seed of the random pairs (xoshiro128**, src/stats/prng.ts). */
  readonly seed?: string;
  readonly maxIterations?: number;
  /** EM stops when no m, u or λ moves by more than this. Default 1e-6. */
  readonly tolerance?: number;
  /** Blocks larger than this are skipped and reported (a quadratic blow-up otherwise). Default 2,000. */
  readonly maxBlockSize?: number;
  /** Adjust name agreements by how common the name is (term-frequency.ts). Default true. */
  readonly termFrequencies?: boolean;
  /**
   * Where u comes from: 'sample' (default), the level shares among random pairs, held fixed while
   * EM fits m and λ (Splink); 'em', EM fits u too, starting from the sample (fastLink). 'em'
   * found a wrong optimum on 20,000 synthetic reports; 'sample' did not.
   */
  readonly estimateU?: 'sample' | 'em';
  /**
   * How m and λ are fitted: 'per-rule' (default), EM on each blocking rule's pairs with the rule's
   * fields held out, then λ over all pairs (Splink, training.ts); 'global', one EM over all pairs
   * from seed pairs (found a wrong optimum on 20,000 synthetic reports: F1 0.57).
   */
  readonly training?: 'per-rule' | 'global';
  /** 'normalised' (default): the Arabic-aware name handling; 'plain': names as written, to measure it. */
  readonly names?: NameHandling;
}

export interface LevelParameters {
  readonly level: string;
  readonly m: number;
  readonly u: number;
  /** log2(m/u): the evidence, in bits, this level adds to a pair. 0 for missing. */
  readonly weight: number;
}

export interface FieldParameters {
  readonly name: string;
  readonly levels: readonly LevelParameters[];
}

export interface LinkageModel {
  readonly fields: readonly FieldParameters[];
  /** Prior probability that a pair (of all pairs, not only candidates) is a match. */
  readonly lambda: number;
  readonly iterations: number;
  readonly converged: boolean;
  /** How m and λ were fitted: 'global' also where per-rule training found no rule with enough pairs. */
  readonly training: 'per-rule' | 'global';
  /** Each rule's EM (per-rule training): its pairs, its λ, whether its m was used and why not. */
  readonly rules: readonly RuleTraining[];
}

export interface LinkedPair {
  readonly a: string;
  readonly b: string;
  /** Match weight in bits: log2(λ/(1−λ)) + Σ log2(m/u) + Σ tf_adjustments. */
  readonly weight: number;
  /** 1 / (1 + 2^−weight). */
  readonly probability: number;
  /** The level of each field: why the pair ranks where it does. */
  readonly agreements: Readonly<Record<string, string>>;
  /** Bits added to a name agreement for a rare name, taken for a common one (term-frequency.ts). */
  readonly tf_adjustments: Readonly<Record<string, number>>;
}

export interface BlockingSummary {
  readonly rules: readonly string[];
  readonly candidate_pairs: number;
  /** Candidate pairs each rule found alone (a pair may be found by several). */
  readonly per_rule: Readonly<Record<string, number>>;
  /** Blocks skipped for size: the pairs inside them were not compared. */
  readonly oversized_blocks: readonly { rule: string; key: string; size: number }[];
}

export interface LinkageResult {
  readonly model: LinkageModel;
  readonly pairs: readonly LinkedPair[];
  /**
   * Groups of reports that may be one person, at the threshold (LinkageOptions.clustering): to
   * be reviewed, never auto-merged. With 'consensus', two reports of one cluster need not have a
   * pair at the threshold (they are joined through the others), and a pair at the threshold may
   * be left out of every cluster (the others speak against it).
   */
  readonly clusters: readonly (readonly string[])[];
  readonly blocking: BlockingSummary;
}
