// The figures of `custody stats` from the rows of one plan, pure: prevalence of each finding over
// the final answers (unanimous or adjudicated), with intervals, breakdowns and agreement. The
// statistics service gathers the inputs from the index; `custody verify-export` gathers them from
// the ledger entries a bag carries, and compares what this returns with the bag's table.
import type { SamplesTable, SubjectsTable } from '../../db/index.js';
import {
  agreementReport,
  clopperPearsonInterval,
  hypergeometricInterval,
  StatsError,
  stratifiedProportion,
  wilsonInterval,
  type AgreementReport,
  type RatingMatrix,
} from '../../stats/index.js';
import { sampleCodebook } from '../blind/outcomes.js';
import type { CaseOutcome } from '../blind/case-outcomes.js';
import { AGE_BANDS, ageBandRank, SEXES, type Codebook, type ExaminationAnswer } from '../codebook/index.js';
import { stratumOf } from '../sampling/plan.service.js';
import { breakdown, counts } from './counts.js';
import type { FindingStatistics, Interval95, StatisticsReport } from './types.js';

export interface StatisticsInput {
  readonly sample: SamplesTable;
  /** caseOutcomes / caseOutcomesFrom of the plan, in draw order. */
  readonly outcomes: readonly CaseOutcome[];
  /** Every subject by id (for the unit and month of each case). */
  readonly subjects: ReadonlyMap<string, Pick<SubjectsTable, 'unit_id' | 'date_of_death' | 'date_of_photography'>>;
  /** Unit id -> English name, else Arabic (null: none). */
  readonly unitLabels: ReadonlyMap<string, string | null>;
  /** For plans over items: item id -> subject id; null for plans over subjects. */
  readonly subjectOfItem: ReadonlyMap<string, string> | null;
  readonly checkpoint: StatisticsReport['checkpoint'];
  readonly codeVersion: string;
}

export const PROCEDURE = 'PROCEDURE.md (SHA-256 counter-mode draw over seed and frame digest; README "Sampling plans")';

interface FinalCase {
  outcome: CaseOutcome;
  final: ExaminationAnswer;
  unit: string;
  unitLabel: string | null;
  month: string;
}

/**
 * The statistics of one plan (the shape of `custody stats --json` without unit_attribution).
 *
 * @example
 *   statisticsReport({ sample, outcomes, subjects, unitLabels, subjectOfItem: null, checkpoint, codeVersion }).findings[0].proportion
 */
export function statisticsReport(input: StatisticsInput): StatisticsReport {
  const { sample, outcomes } = input;
  const codebook = sampleCodebook(sample);
  const finals = finalCases(input);
  const strata = JSON.parse(sample.strata_json) as { name: string; frame_size: number }[];
  return {
    format: 'custody-statistics',
    version: 1,
    checkpoint: input.checkpoint,
    code_version: input.codeVersion,
    sample: {
      id: sample.id,
      name: sample.name,
      unit: sample.unit_kind as 'subjects' | 'items',
      method: sample.method as 'simple' | 'systematic' | 'stratified',
      stratify: sample.stratify as 'unit' | 'month' | null,
      size: sample.size,
      frame_size: sample.frame_size,
      frame_digest: sample.frame_digest,
      seed: sample.seed ?? '',
      manifest_digest: sample.manifest_digest ?? '',
      procedure: PROCEDURE,
      entries: { frame: sample.frame_seq, seed: sample.seed_seq ?? -1, manifest: sample.manifest_seq ?? -1 },
    },
    codebook: { version: codebook.version, digest: sample.codebook_digest },
    cases: {
      sampled: outcomes.length,
      revealed: outcomes.filter((o) => o.answers !== null).length,
      final: finals.length,
      awaiting_submissions: outcomes.filter((o) => o.status === 'awaiting_submissions' || o.status === 'unassigned').length,
      awaiting_adjudication: outcomes.filter((o) => o.status === 'awaiting_adjudication').length,
    },
    demographics: {
      sex: SEXES.map((key) => ({ key, count: finals.filter((f) => f.final.sex === key).length })),
      age_band: AGE_BANDS.map((key) => ({ key, count: finals.filter((f) => f.final.age_band === key).length })),
    },
    findings: codebook.findings.map((f) => findingStatistics(sample, codebook, f.code, finals, outcomes, strata)),
    age_band_agreement: agreement(
      ratingRows(outcomes, (a) => ageBandRank(a.age_band)),
      'ordinal',
    ),
  };
}

function finalCases(input: StatisticsInput): FinalCase[] {
  const out: FinalCase[] = [];
  for (const outcome of input.outcomes) {
    if (outcome.final === null) continue;
    const subjectId = input.subjectOfItem === null ? outcome.case : (input.subjectOfItem.get(outcome.case) ?? '');
    const unit = stratumOf('unit', input.subjects.get(subjectId));
    out.push({ outcome, final: outcome.final, unit, unitLabel: input.unitLabels.get(unit) ?? null, month: stratumOf('month', input.subjects.get(subjectId)) });
  }
  return out;
}

function findingStatistics(
  sample: SamplesTable,
  codebook: Codebook,
  code: string,
  finals: readonly FinalCase[],
  outcomes: readonly CaseOutcome[],
  strata: readonly { name: string; frame_size: number }[],
): FindingStatistics {
  const def = codebook.findings.find((f) => f.code === code);
  const valueOf = (c: FinalCase): string => c.final.findings[code]?.value ?? 'cannot_assess';
  const all = counts(finals.map(valueOf));
  const srs = sample.method !== 'stratified' && all.assessed > 0;
  const wilson = srs ? interval(wilsonInterval(all.present, all.assessed)) : null;
  const cp = srs ? interval(clopperPearsonInterval(all.present, all.assessed)) : null;
  const stratified = sample.method === 'stratified' ? stratifiedEstimate(finals, valueOf, strata) : null;
  let population: FindingStatistics['population'] = null;
  if (sample.method !== 'stratified' && sample.population !== null) {
    const M = sample.population;
    const h = all.assessed > 0 ? hypergeometricInterval(all.present, all.assessed, M) : null;
    population = {
      size: M,
      estimated_count: all.proportion === null ? null : all.proportion * M,
      count_interval: h === null ? null : { method: h.method, lower: h.countLower, upper: h.countUpper },
    };
  }
  const label = def?.label ?? code;
  return {
    code,
    label,
    ...all,
    wilson,
    clopper_pearson: cp,
    population,
    stratified,
    sentence: sentence(sample, label, all.present, all.assessed, all.cannot_assess, stratified?.interval ?? wilson, stratified),
    breakdowns: {
      unit: breakdown(finals, (c) => c.unit, (c) => c.unitLabel, valueOf),
      month: breakdown(finals, (c) => c.month, () => null, valueOf),
      sex: breakdown(finals, (c) => c.final.sex, () => null, valueOf),
      age_band: breakdown(finals, (c) => c.final.age_band, () => null, valueOf),
    },
    agreement: agreement(
      ratingRows(outcomes, (a) => {
        const v = a.findings[code]?.value;
        return v === 'present' || v === 'absent' ? v : null; // cannot assess = no value
      }),
      'nominal',
    ),
  };
}

function stratifiedEstimate(finals: readonly FinalCase[], valueOf: (c: FinalCase) => string, strata: readonly { name: string; frame_size: number }[]): FindingStatistics['stratified'] {
  const rows = strata.map((s) => {
    const inStratum = finals.filter((f) => f.outcome.stratum === s.name).map(valueOf);
    const c = counts(inStratum);
    return { name: s.name, population: s.frame_size, sampled: c.assessed, present: c.present };
  });
  const usable = rows.filter((r) => r.sampled >= 2 || (r.sampled >= 1 && r.sampled === r.population));
  if (usable.length === 0) return null;
  const est = stratifiedProportion(usable.map((r) => ({ populationSize: r.population, sampled: r.sampled, positive: r.present })));
  return {
    estimate: est.proportion,
    standard_error: est.standardError,
    estimated_count: est.estimatedCount,
    interval: { method: est.wilsonEffective.method, lower: est.wilsonEffective.lower, upper: est.wilsonEffective.upper },
    covered_population: usable.reduce((n, r) => n + r.population, 0),
    frame_population: rows.reduce((n, r) => n + r.population, 0),
    strata: rows,
    excluded_strata: rows.filter((r) => !usable.includes(r)).map((r) => r.name),
  };
}

/** Every examiner who answered in the sample, in name order: the columns of the rating matrix. */
function raters(outcomes: readonly CaseOutcome[]): string[] {
  return [...new Set(outcomes.flatMap((o) => (o.answers ?? []).map((a) => a.examiner)))].sort();
}

/** One row per revealed case, one column per examiner (raters), null where there is no value. */
function ratingRows(
  outcomes: readonly CaseOutcome[],
  value: (answer: ExaminationAnswer) => string | number | null,
): (string | number | null)[][] {
  const columns = raters(outcomes);
  return outcomes.flatMap((o) => {
    if (o.answers === null) return [];
    const byExaminer = new Map(o.answers.map((a) => [a.examiner, a.answer]));
    return [columns.map((e) => {
      const answer = byExaminer.get(e);
      return answer === undefined ? null : value(answer);
    })];
  });
}

/**
 * Krippendorff's alpha over every revealed case (a missing value where an examiner could not
 * assess); Cohen's and Fleiss' kappa, which need every rater's value on every unit, over the cases
 * where every examiner gave one (their `units` says how many).
 */
function agreement(matrix: RatingMatrix, level: 'nominal' | 'ordinal'): AgreementReport | null {
  if (matrix.length === 0) return null;
  const report = tryReport(matrix, level);
  if (report === null) return null;
  const complete = matrix.filter((r) => r.every((v) => v !== null));
  if (complete.length === matrix.length || complete.length < 2) return report;
  const kappas = tryReport(complete, level, false);
  if (kappas === null) return report;
  const alpha = report.coefficients.filter((c) => c.name === 'krippendorff_alpha');
  const others = kappas.coefficients.filter((c) => c.name !== 'krippendorff_alpha');
  return {
    ...report,
    coefficients: [...alpha, ...others],
    notApplicable: kappas.notApplicable.filter((n) => !others.some((c) => c.name === n.name)),
  };
}

/** `alpha` false: the kappas only (the caller takes alpha from the report over every case). */
function tryReport(matrix: RatingMatrix, level: 'nominal' | 'ordinal', alpha = true): AgreementReport | null {
  try {
    return agreementReport(matrix, level, {}, { alpha });
  } catch (e) {
    if (e instanceof StatsError) return null; // e.g. fewer than two pairable values
    throw e;
  }
}

function interval(i: { method: string; lower: number; upper: number }): Interval95 {
  return { method: i.method, lower: i.lower, upper: i.upper };
}

const pct = (x: number): string => `${Math.round(x * 100)}`;

function sentence(
  sample: SamplesTable,
  label: string,
  k: number,
  n: number,
  unassessable: number,
  ci: Interval95 | null,
  weighted: Pick<NonNullable<FindingStatistics['stratified']>, 'estimate' | 'covered_population' | 'frame_population'> | null,
): string {
  const who = sample.unit_kind === 'subjects' ? 'examined individuals' : 'examined photographs';
  const what = label.charAt(0).toLowerCase() + label.slice(1);
  const tail = unassessable > 0 ? `; ${unassessable} could not be assessed` : '';
  if (n === 0) return `No ${who} could be assessed for ${what}${tail}.`;
  const interval = ci === null ? '' : `; 95% CI ${pct(ci.lower)}–${pct(ci.upper)}%`;
  if (weighted === null) return `${k} of ${n} ${who} (${pct(k / n)}%${interval}) showed ${what}${tail}.`;
  // The population the weighted estimate is a share of: the frame of the strata that entered it.
  const units = sample.unit_kind === 'subjects' ? 'catalogued subjects' : 'photographs in the frame';
  const left = weighted.frame_population - weighted.covered_population;
  const outside = left > 0 ? `; the other ${left} of the ${weighted.frame_population} are in strata with too few assessed cases and not covered` : '';
  return `${k} of ${n} ${who} (weighted estimate ${pct(weighted.estimate)}% of the ${weighted.covered_population} ${units} in the covered strata${interval}) showed ${what}${tail}${outside}.`;
}
