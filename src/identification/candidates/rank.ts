// Candidate subjects for a missing person. Pure. A candidate is a subject whose catalogued facts
// do not rule the report out: it is NOT an identification, and it shows no photograph. Each
// candidate carries, factor by factor, what agreed, what disagreed and what was missing, and the
// weight each outcome adds to its score: the log of how much likelier that outcome is for the true
// subject than for another (WEIGHTS, estimated on the tuning seed of the candidates bench, never on
// the report seed). A missing factor weighs 0. Candidates are ordered by the sum, then by subject id.
//
// No factor excludes a subject. Each factor is a family's memory against a catalogue's reading of
// a photograph: a family's arrest date can be off by a year (then the death looks "before" the
// arrest), a report's sex is sometimes wrong (1% of the benchmark's reports) and a body's sex read
// from a photograph can be too. So a disagreement weighs heavily but only moves the subject down:
// it can still be found, where a hard filter would lose it for good.
import { AGE_BANDS, type AgeBand } from '../../catalogue/subjects/index.js';
import type { SubjectsTable, UnitsTable } from '../../db/index.js';
import type { IdentificationRecord, Mark } from '../codebook/record.js';
import type { ReportContent } from '../reports/report-content.js';

export type Outcome = 'agree' | 'close' | 'disagree' | 'missing';
export type Factor = 'unit' | 'date' | 'sex' | 'age' | 'marks';

/**
 * Why a factor came out as it did, as a code with its parameters (the web UI words it in English
 * and Arabic: ui/src/i18n/missing.*.ts, missingReport.candidates.why); `detail` is the same in
 * English, as `custody missing candidates` prints it.
 */
export type FactorCode =
  | 'unit_not_reported' | 'unit_not_in_registry' | 'unit_subject_none' | 'unit_same' | 'unit_part_of' | 'unit_other'
  | 'date_not_reported' | 'date_subject_none' | 'date_not_before' | 'date_before'
  | 'sex_not_reported' | 'sex_subject_undetermined' | 'sex_same' | 'sex_differs'
  | 'birth_not_reported' | 'age_subject_none' | 'age_no_date' | 'age_band' | 'age_next_band'
  | 'marks_not_reported' | 'marks_subject_none' | 'marks_matched';

export interface FactorResult {
  factor: Factor;
  outcome: Outcome;
  code: FactorCode;
  /** The values the code's sentence names: unit names (English and Arabic), dates, counts, codebook codes. */
  params: { [k: string]: string | number };
  /** marks_matched: the reported marks found on the body, by codebook kind and region. */
  marks?: { kind: string; region: string }[];
  detail: string;
}

function result(factor: Factor, outcome: Outcome, code: FactorCode, detail: string, params: FactorResult['params'] = {}): FactorResult {
  return { factor, outcome, code, params, detail };
}

export interface Candidate {
  rank: number;
  subject: string;
  number: string | null;
  /** The sum of the factors' weights: the order, not a probability and not an identification. */
  score: number;
  factors: (FactorResult & { weight: number })[];
  agreed: number;
  close: number;
  disagreed: number;
  missing: number;
}

export interface RankInput {
  report: ReportContent;
  subjects: readonly SubjectsTable[];
  pm: ReadonlyMap<string, IdentificationRecord>;
  units: readonly UnitsTable[];
}

/**
 * The weight of each outcome: ln(P(outcome | true subject) / P(outcome | another subject)), rounded
 * to hundredths, as `node dist/bench/identification-candidates.bench.js 20000 5000 seed=tune estimate`
 * printed them (8,390 true pairs, 167,752 others). The date agrees in three steps by the time from
 * the arrest to the death or photograph. Two are set, not estimated: unit_part_of never occurs in
 * the bench (its reports name branches, not directorates), so it is unit_same less ln 3 (a
 * directorate of a few branches); and no weight goes below -4 (the estimate for an age two bands
 * off was -5.69, from 8 true pairs in 8,390): an examiner's age band from a photograph is less
 * reliable than the bench's, and one factor must not weigh more than two others that agree.
 */
export const WEIGHTS = {
  unit_same: 1.84,
  unit_part_of: 0.74,
  unit_other: -2.11,
  date_within_1y: 0.78,
  date_within_3y: 0.59,
  date_later: -3.81,
  date_before: -3.38,
  sex_same: 0.28,
  sex_differs: -3.22,
  age_band: 1.48,
  age_next_band: -1.26,
  age_other_band: -4,
  marks_all: 4.9,
  marks_some: 3.61,
  marks_none: -1.59,
} as const;
export type WeightKey = keyof typeof WEIGHTS;

/** Months from the event to the subject's date, at the coarser of the two precisions. */
export function monthsAfter(event: string, date: string): number {
  const years = (Number(date.slice(0, 4)) - Number(event.slice(0, 4))) * 12;
  return event.length >= 7 && date.length >= 7 ? years + Number(date.slice(5, 7)) - Number(event.slice(5, 7)) : years;
}

function dateKey(months: number): WeightKey {
  return months <= 12 ? 'date_within_1y' : months <= 36 ? 'date_within_3y' : 'date_later';
}

/** Which weight a factor's outcome takes; null when it weighs nothing (missing). */
export function weightKey(f: FactorResult): WeightKey | null {
  if (f.outcome === 'missing') return null;
  switch (f.factor) {
    case 'unit':
      return f.code === 'unit_same' ? 'unit_same' : f.code === 'unit_part_of' ? 'unit_part_of' : 'unit_other';
    case 'date':
      return f.outcome === 'disagree' ? 'date_before' : dateKey(monthsAfter(String(f.params.event_date), String(f.params.date)));
    case 'sex':
      return f.outcome === 'agree' ? 'sex_same' : 'sex_differs';
    case 'age':
      return f.outcome === 'agree' ? 'age_band' : f.outcome === 'close' ? 'age_next_band' : 'age_other_band';
    case 'marks':
      return f.outcome === 'agree' ? 'marks_all' : f.outcome === 'close' ? 'marks_some' : 'marks_none';
  }
}

export const weightOf = (f: FactorResult): number => {
  const k = weightKey(f);
  return k === null ? 0 : WEIGHTS[k];
};

/** What scoring reads of a subject, computed once for every report. Sorted by id (the tie order). */
export interface PreparedSubject {
  readonly row: SubjectsTable;
  readonly pm: IdentificationRecord | undefined;
  /** The subject's unit and the units above it; null when it has none. */
  readonly chain: readonly string[] | null;
  readonly date: string | null;
  /** The date as year, month and day numbers (0 where not given); null when not YYYY[-MM[-DD]]. */
  readonly dateParts: DateParts | null;
  readonly sex: string | null;
  readonly band: number;
  readonly ageYear: number | null;
  readonly marks: readonly Mark[] | undefined;
}

export interface PreparedSubjects {
  readonly subjects: readonly PreparedSubject[];
  readonly parents: ReadonlyMap<string, string | null>;
  readonly names: ReadonlyMap<string, string>;
  readonly namesAr: ReadonlyMap<string, string | null>;
}

export function prepareSubjects(subjects: readonly SubjectsTable[], pm: ReadonlyMap<string, IdentificationRecord>, units: readonly UnitsTable[]): PreparedSubjects {
  const parents = new Map(units.map((u) => [u.id, u.parent_id]));
  const prepared = subjects
    .filter((s) => s.status !== 'merged')
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((s): PreparedSubject => {
      let chain: string[] | null = null;
      if (s.unit_id !== null) {
        chain = [];
        for (let u: string | null | undefined = s.unit_id; u != null && !chain.includes(u); u = parents.get(u)) chain.push(u);
      }
      const band = s.age_band === null || s.age_band === 'undetermined' ? -1 : AGE_BANDS.indexOf(s.age_band as AgeBand);
      const dated = s.date_of_death ?? s.date_of_photography;
      const p = pm.get(s.id);
      return {
        row: s, pm: p, chain, date: dated, dateParts: dated === null ? null : partsOf(dated), sex: s.sex === 'undetermined' ? null : s.sex, band,
        ageYear: dated === null ? null : Number(dated.slice(0, 4)), marks: p?.marks as unknown as Mark[] | undefined,
      };
    });
  return { subjects: prepared, parents, names: new Map(units.map((u) => [u.id, u.name_en])), namesAr: new Map(units.map((u) => [u.id, u.name_ar])) };
}

interface DateParts {
  readonly y: number;
  readonly m: number;
  readonly d: number;
  readonly len: number;
}

function partsOf(date: string): DateParts | null {
  if (!/^\d{4}(-\d{2}(-\d{2})?)?$/.test(date)) return null;
  return { y: Number(date.slice(0, 4)), m: date.length >= 7 ? Number(date.slice(5, 7)) : 0, d: date.length >= 10 ? Number(date.slice(8, 10)) : 0, len: date.length };
}

/** The date factor's weight from the parts: the same as comparing the strings at the coarser precision. */
function dateWeight(e: DateParts, s: DateParts): number {
  const n = Math.min(e.len, s.len);
  const cmp = s.y - e.y || (n >= 7 ? s.m - e.m : 0) || (n >= 10 ? s.d - e.d : 0);
  if (cmp < 0) return WEIGHTS.date_before;
  const months = (s.y - e.y) * 12 + (n >= 7 ? s.m - e.m : 0);
  return WEIGHTS[dateKey(months)];
}

const loose = (r: string): boolean => r === 'unspecified' || r === 'whole_body';

/**
 * Every prepared subject's score for one report, in the prepared order: the same sums as the
 * factors' weights (rank.test.ts checks it), without building a factor or a sentence.
 */
export function scoreSubjects(report: ReportContent, prepared: PreparedSubjects): Float64Array {
  const subjects = prepared.subjects;
  const out = new Float64Array(subjects.length);
  const wanted = report.unit?.id ?? null;
  const event = report.event_date;
  const sex = report.sex === 'undetermined' ? null : report.sex;
  const born = report.birth === null ? null : Number(report.birth.slice(0, 4));
  const eventYear = event === null ? null : Number(event.slice(0, 4));
  const eventParts = event === null ? null : partsOf(event);
  const am = (report.am.marks ?? []) as unknown as Mark[];
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[i] as PreparedSubject;
    let score = 0;
    if (wanted !== null && s.chain !== null) {
      const at = s.chain.indexOf(wanted);
      score += at === 0 ? WEIGHTS.unit_same : at > 0 ? WEIGHTS.unit_part_of : WEIGHTS.unit_other;
    }
    if (eventParts !== null && s.dateParts !== null) score += dateWeight(eventParts, s.dateParts);
    else if (event !== null && s.date !== null) {
      const n = Math.min(event.length, s.date.length);
      score += s.date.slice(0, n) >= event.slice(0, n) ? WEIGHTS[dateKey(monthsAfter(event, s.date))] : WEIGHTS.date_before;
    }
    if (sex !== null && s.sex !== null) score += sex === s.sex ? WEIGHTS.sex_same : WEIGHTS.sex_differs;
    if (born !== null && s.band >= 0) {
      const at = s.ageYear ?? eventYear;
      if (at !== null) {
        const r0 = at - born - 1 >= 0 ? bandRank(at - born - 1) : -9;
        const r1 = at - born >= 0 ? bandRank(at - born) : -9;
        score +=
          r0 === s.band || r1 === s.band ? WEIGHTS.age_band
          : (r0 >= 0 && Math.abs(r0 - s.band) === 1) || (r1 >= 0 && Math.abs(r1 - s.band) === 1) ? WEIGHTS.age_next_band
          : WEIGHTS.age_other_band;
      }
    }
    if (am.length > 0 && s.marks !== undefined) {
      const seen = s.marks;
      let matched = 0;
      for (const m of am) if (seen.some((p) => p.kind === m.kind && (p.region === m.region || loose(p.region) || loose(m.region)))) matched++;
      score += matched === 0 ? WEIGHTS.marks_none : matched === am.length ? WEIGHTS.marks_all : WEIGHTS.marks_some;
    }
    out[i] = score;
  }
  return out;
}

/** Indices of the prepared subjects, best first: highest score, then subject id. */
export function orderByScore(scores: Float64Array): number[] {
  const idx = Array.from(scores, (_, i) => i);
  return idx.sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
}

/** One subject's factors, each with its weight, as a candidate shows them. */
export function explain(report: ReportContent, s: PreparedSubject, prepared: PreparedSubjects): Candidate {
  const factors = [
    unitFactor(report, s.row, prepared.parents, prepared.names, prepared.namesAr),
    dateFactor(report, s.row),
    sexFactor(report, s.row),
    ageFactor(report, s.row),
    marksFactor(report, s.pm),
  ].map((f) => ({ ...f, weight: weightOf(f) }));
  const count = (o: Outcome): number => factors.filter((f) => f.outcome === o).length;
  const score = Math.round(factors.reduce((a, f) => a + f.weight, 0) * 100) / 100;
  return { rank: 0, subject: s.row.id, number: s.row.number_raw, score, factors, agreed: count('agree'), close: count('close'), disagreed: count('disagree'), missing: count('missing') };
}

/** The best `limit` candidates (all by default), with their factors; merged subjects are not candidates. */
export function rankCandidates(input: RankInput, limit = Infinity): Candidate[] {
  const prepared = prepareSubjects(input.subjects, input.pm, input.units);
  return rankPrepared(input.report, prepared, limit);
}

export function rankPrepared(report: ReportContent, prepared: PreparedSubjects, limit = Infinity): Candidate[] {
  const order = orderByScore(scoreSubjects(report, prepared));
  return order.slice(0, Math.min(limit, order.length)).map((i, k) => ({ ...explain(report, prepared.subjects[i] as PreparedSubject, prepared), rank: k + 1 }));
}

/** The unit of arrest against the subject's unit and the units above it. */
export function unitFactor(
  report: ReportContent,
  s: SubjectsTable,
  parents: ReadonlyMap<string, string | null>,
  names: ReadonlyMap<string, string>,
  namesAr: ReadonlyMap<string, string | null> = new Map(),
): FactorResult {
  const wanted = report.unit?.id ?? null;
  if (report.unit === null) return result('unit', 'missing', 'unit_not_reported', 'the report names no arresting body');
  if (wanted === null) return result('unit', 'missing', 'unit_not_in_registry', `the report's "${report.unit.as_reported}" is not in the unit registry`, { as_reported: report.unit.as_reported });
  if (s.unit_id === null) return result('unit', 'missing', 'unit_subject_none', 'the subject has no unit');
  const chain: string[] = [];
  for (let u: string | null | undefined = s.unit_id; u != null && !chain.includes(u); u = parents.get(u)) chain.push(u);
  const at = chain.indexOf(wanted);
  const name = (id: string): string => names.get(id) ?? id;
  const params = { unit: name(wanted), unit_ar: namesAr.get(wanted) ?? name(wanted), subject_unit: name(s.unit_id), subject_unit_ar: namesAr.get(s.unit_id) ?? name(s.unit_id) };
  if (at === 0) return result('unit', 'agree', 'unit_same', `same unit (${name(wanted)})`, params);
  if (at > 0) return result('unit', 'agree', 'unit_part_of', `the subject's unit ${name(s.unit_id)} is part of ${name(wanted)}`, params);
  return result('unit', 'disagree', 'unit_other', `the subject's unit ${name(s.unit_id)} is not ${name(wanted)} nor part of it`, params);
}

/** Death (or, failing it, photograph) date on or after the arrest or last sighting, at the report's precision. */
export function dateFactor(report: ReportContent, s: SubjectsTable): FactorResult {
  const event = report.event_date;
  const [date, which] = s.date_of_death !== null ? [s.date_of_death, 'death'] : s.date_of_photography !== null ? [s.date_of_photography, 'photograph'] : [null, ''];
  if (event === null) return result('date', 'missing', 'date_not_reported', 'the report gives no date of arrest or last sighting');
  if (date === null) return result('date', 'missing', 'date_subject_none', 'the subject has no date of death or photograph');
  // At the coarser of the two precisions: a month of death and a day of arrest compare as months.
  const n = Math.min(event.length, date.length);
  const kind = report.event === 'last_seen' ? 'last_seen' : 'arrest';
  const params = { which, date, event: kind, event_date: event };
  const what = kind === 'last_seen' ? 'the last sighting' : 'the arrest';
  if (date.slice(0, n) >= event.slice(0, n)) return result('date', 'agree', 'date_not_before', `${which} ${date} is not before ${what} (${event})`, params);
  return result('date', 'disagree', 'date_before', `${which} ${date} is before ${what} (${event})`, params);
}

export function sexFactor(report: ReportContent, s: SubjectsTable): FactorResult {
  const a = report.sex === 'undetermined' ? null : report.sex;
  const b = s.sex === 'undetermined' ? null : s.sex;
  if (a === null) return result('sex', 'missing', 'sex_not_reported', 'the report gives no sex');
  if (b === null) return result('sex', 'missing', 'sex_subject_undetermined', "the subject's sex is not determined");
  return a === b ? result('sex', 'agree', 'sex_same', a, { sex: a }) : result('sex', 'disagree', 'sex_differs', `report ${a}, subject ${b}`, { report: a, subject: b });
}

/** The age band the subject was given against the age the report's birth year implies at the subject's date. */
export function ageFactor(report: ReportContent, s: SubjectsTable): FactorResult {
  const band = s.age_band === null || s.age_band === 'undetermined' ? null : (s.age_band as AgeBand);
  const atText = s.date_of_death ?? s.date_of_photography ?? report.event_date;
  if (report.birth === null) return result('age', 'missing', 'birth_not_reported', 'the report gives no birth year');
  if (band === null) return result('age', 'missing', 'age_subject_none', 'the subject has no age band');
  if (atText === null) return result('age', 'missing', 'age_no_date', 'no date to reckon an age at');
  const born = Number(report.birth.slice(0, 4));
  const at = Number(atText.slice(0, 4));
  // A year of birth and a year of death leave the age uncertain by one year.
  const ages = [at - born - 1, at - born].filter((x) => x >= 0);
  const ranks = ages.map(bandRank);
  const want = AGE_BANDS.indexOf(band);
  const detail = `about ${at - born} at ${atText.slice(0, 4)}; subject ${band}`;
  const params = { age: at - born, year: atText.slice(0, 4), band };
  if (ranks.includes(want)) return result('age', 'agree', 'age_band', detail, params);
  if (ranks.some((r) => Math.abs(r - want) === 1)) return result('age', 'close', 'age_next_band', `${detail} (the next band)`, params);
  return result('age', 'disagree', 'age_band', detail, params);
}

function bandRank(age: number): number {
  if (age < 18) return 0;
  if (age < 30) return 1;
  if (age >= 60) return 5;
  return Math.floor(age / 10) - 1; // 30-39 → 2, 40-49 → 3, 50-59 → 4
}

/** The family's marks (AM) against those recorded of the body (PM): same kind in the same region. */
export function marksFactor(report: ReportContent, pm: IdentificationRecord | undefined): FactorResult {
  const am = (report.am.marks ?? []) as unknown as Mark[];
  if (am.length === 0) return result('marks', 'missing', 'marks_not_reported', 'the report lists no marks');
  if (pm?.marks === undefined) return result('marks', 'missing', 'marks_subject_none', 'no PM marks recorded for the subject');
  const seen = pm.marks as unknown as Mark[];
  const matched = am.filter((m) => seen.some((p) => p.kind === m.kind && (p.region === m.region || loose(p.region) || loose(m.region))));
  const detail = `${matched.length} of ${am.length} reported mark(s) recorded on the body${matched.length > 0 ? `: ${matched.map((m) => `${m.kind} (${m.region})`).join(', ')}` : ''}`;
  const outcome: Outcome = matched.length === 0 ? 'disagree' : matched.length === am.length ? 'agree' : 'close';
  return { ...result('marks', outcome, 'marks_matched', detail, { matched: matched.length, total: am.length }), marks: matched.map((m) => ({ kind: m.kind, region: m.region })) };
}
