// The shape of `custody stats --json`: everything a prevalence figure depends on travels with it,
// so that `custody stats --at <tree-size>` (or anyone with the ledger) can derive it again.
// Plain JSON, no floats beyond what JSON.stringify prints for a double; key order is fixed by
// construction so the output is byte-identical between runs and after `custody rebuild`.
import type { AgreementReport } from '../../stats/index.js';

export interface Interval95 {
  readonly method: string;
  readonly lower: number;
  readonly upper: number;
}

/** Counts of one finding within a group (the whole sample, or a breakdown cell). */
export interface FindingCounts {
  readonly present: number;
  readonly absent: number;
  /** Left out of the denominator and reported on its own. */
  readonly cannot_assess: number;
  /** present + absent */
  readonly assessed: number;
  /** present / assessed, or null when nothing could be assessed. */
  readonly proportion: number | null;
}

export interface BreakdownRow extends FindingCounts {
  /** The group's value: unit id, 'YYYY-MM', sex or age band; 'unknown' when not recorded. */
  readonly key: string;
  /** For units: the English name (or Arabic when there is no English one). */
  readonly label: string | null;
}

export interface FindingStatistics extends FindingCounts {
  readonly code: string;
  readonly label: string;
  /** Simple random / systematic sample: Wilson and Clopper–Pearson 95% for the proportion. */
  readonly wilson: Interval95 | null;
  readonly clopper_pearson: Interval95 | null;
  /**
   * With a known population size: the exact hypergeometric 95% interval for the number affected
   * in the population (only for unstratified plans; see `stratified` otherwise).
   */
  readonly population: {
    readonly size: number;
    readonly estimated_count: number | null;
    readonly count_interval: Interval95 | null;
  } | null;
  /** Stratified plans: weighted estimate, its standard error, and a named interval. */
  readonly stratified: {
    readonly estimate: number;
    readonly standard_error: number;
    readonly estimated_count: number;
    readonly interval: Interval95;
    /** Σ frame size of the strata that entered the estimate: what estimated_count is a share of. */
    readonly covered_population: number;
    /** Σ frame size of every stratum (excluded strata make it larger than covered_population). */
    readonly frame_population: number;
    readonly strata: readonly { readonly name: string; readonly population: number; readonly sampled: number; readonly present: number }[];
    /** Strata with fewer than two assessed cases (and not examined in full): no variance estimate, left out. */
    readonly excluded_strata: readonly string[];
  } | null;
  /** The plain sentence for reports: "93 of 150 examined individuals (62%; 95% CI 54–69%) showed emaciation". */
  readonly sentence: string;
  readonly breakdowns: {
    readonly unit: readonly BreakdownRow[];
    readonly month: readonly BreakdownRow[];
    readonly sex: readonly BreakdownRow[];
    readonly age_band: readonly BreakdownRow[];
  };
  /** Agreement on the raw independent answers (present/absent nominal; cannot assess = missing). */
  readonly agreement: AgreementReport | null;
}

export interface StatisticsReport {
  readonly format: 'custody-statistics';
  readonly version: 1;
  /** The ledger state the figures were computed from. */
  readonly checkpoint: { readonly tree_size: number; readonly root: string; readonly signed: boolean };
  readonly code_version: string;
  readonly sample: {
    readonly id: string;
    readonly name: string;
    readonly unit: 'subjects' | 'items';
    readonly method: 'simple' | 'systematic' | 'stratified';
    readonly stratify: 'unit' | 'month' | null;
    readonly size: number;
    readonly frame_size: number;
    readonly frame_digest: string;
    readonly seed: string;
    readonly manifest_digest: string;
    readonly procedure: string;
    /** Ledger indices of the frame, seed and manifest entries. */
    readonly entries: { readonly frame: number; readonly seed: number; readonly manifest: number };
  };
  readonly codebook: { readonly version: string; readonly digest: string };
  readonly cases: {
    readonly sampled: number;
    /** Every assigned examiner has submitted and the answers are revealed. */
    readonly revealed: number;
    /** Revealed and either unanimous or adjudicated: these enter the prevalence. */
    readonly final: number;
    readonly awaiting_submissions: number;
    readonly awaiting_adjudication: number;
  };
  readonly demographics: {
    readonly sex: readonly { readonly key: string; readonly count: number }[];
    readonly age_band: readonly { readonly key: string; readonly count: number }[];
  };
  readonly findings: readonly FindingStatistics[];
  /** Agreement on the ordinal age band (Krippendorff's alpha, ordinal). */
  readonly age_band_agreement: AgreementReport | null;
}
