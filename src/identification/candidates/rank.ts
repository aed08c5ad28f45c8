// Candidate subjects for a missing person. Pure. A candidate is a subject whose catalogued facts
// do not rule the report out: it is NOT an identification, and it shows no photograph. Each
// candidate carries, factor by factor, what agreed, what disagreed and what was missing; the order
// follows from those counts alone (fewest disagreements, then most agreements, then most near
// agreements), never from a single opaque score. No factor excludes a subject: a wrong branch or a
// date off by a year in a family's report only moves the true subject down, never out.
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
  factors: FactorResult[];
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

export function rankCandidates(input: RankInput): Candidate[] {
  const parents = new Map(input.units.map((u) => [u.id, u.parent_id]));
  const names = new Map(input.units.map((u) => [u.id, u.name_en]));
  const namesAr = new Map(input.units.map((u) => [u.id, u.name_ar]));
  const scored = input.subjects
    .filter((s) => s.status !== 'merged')
    .map((s) => {
      const factors: FactorResult[] = [
        unitFactor(input.report, s, parents, names, namesAr),
        dateFactor(input.report, s),
        sexFactor(input.report, s),
        ageFactor(input.report, s),
        marksFactor(input.report, input.pm.get(s.id)),
      ];
      const count = (o: Outcome): number => factors.filter((f) => f.outcome === o).length;
      return { rank: 0, subject: s.id, number: s.number_raw, factors, agreed: count('agree'), close: count('close'), disagreed: count('disagree'), missing: count('missing') };
    });
  scored.sort((a, b) => a.disagreed - b.disagreed || b.agreed - a.agreed || b.close - a.close || (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
  return scored.map((c, i) => ({ ...c, rank: i + 1 }));
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
  const loose = (r: string): boolean => r === 'unspecified' || r === 'whole_body';
  const matched = am.filter((m) => seen.some((p) => p.kind === m.kind && (p.region === m.region || loose(p.region) || loose(m.region))));
  const detail = `${matched.length} of ${am.length} reported mark(s) recorded on the body${matched.length > 0 ? `: ${matched.map((m) => `${m.kind} (${m.region})`).join(', ')}` : ''}`;
  const outcome: Outcome = matched.length === 0 ? 'disagree' : matched.length === am.length ? 'agree' : 'close';
  return { ...result('marks', outcome, 'marks_matched', detail, { matched: matched.length, total: am.length }), marks: matched.map((m) => ({ kind: m.kind, region: m.region })) };
}
