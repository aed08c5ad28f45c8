// Candidate subjects for missing-person reports (issue 15): 20,000 reports (the linkage corpus,
// bench/identification-linkage-corpus.ts) against 5,000 subjects, each subject one of the reported
// people, with its unit, date of death or photograph, sex, age band and marks as a catalogue and an
// examiner would record them. Subject features are prepared once (rank.ts prepareSubjects) and
// every report is scored against every subject by scoreSubjects, the service's score, without
// building factors; for the reports of people who are subjects, the rank of the true subject:
// recall at 1, 5, 20, 50 and the median, as listed (ties in id order) and at the worst place of
// its tie. No factor excludes a subject (rank.ts), so none is ever filtered out. With `estimate`,
// the weights instead (ln of P(outcome | true) / P(outcome | other)): run it on seed=tune only.
//   npm run build && node dist/bench/identification-candidates.bench.js [reports] [subjects] [seed=tune|report|…] [estimate]
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { seededPrng, type Prng } from '../src/stats/index.js';
import {
  WEIGHTS,
  explain,
  prepareSubjects,
  scoreSubjects,
  weightKey,
  type PreparedSubject,
  type WeightKey,
} from '../src/identification/candidates/rank.js';
import type { IdentificationRecord } from '../src/identification/codebook/record.js';
import type { ReportContent } from '../src/identification/reports/report-content.js';
import type { SubjectsTable, UnitsTable } from '../src/db/index.js';
import type { LinkRecord } from '../src/identification/linkage/index.js';
import { UNITS, syntheticReports, type Person } from './identification-linkage-corpus.js';
import { REPORT_SEED, TUNING_SEED } from './identification-linkage.bench.js';

const chance = (rng: Prng, p: number): boolean => rng.nextUint32() / 2 ** 32 < p;
const MARK_KINDS = ['scar', 'tattoo', 'birthmark', 'amputation', 'deformity', 'burn'];
const MARK_REGIONS = [
  'head',
  'face',
  'neck',
  'chest',
  'abdomen',
  'back',
  'upper_limb',
  'lower_limb',
  'hand',
  'foot',
];
const AGE_BANDS = ['<18', '18-29', '30-39', '40-49', '50-59', '60+'] as const;

/** Branches under one directorate: a report naming the directorate agrees with each branch. */
function unitsTable(): UnitsTable[] {
  const row = (id: string, parent: string | null): UnitsTable => ({
    id,
    code: null,
    code_text: null,
    name_en: id,
    name_ar: null,
    aliases_json: '[]',
    parent_id: parent,
    created_seq: 0,
    updated_seq: 0,
    retired_seq: null,
  });
  return [
    row('military-intelligence', null),
    ...UNITS.map((u) => row(u, u.startsWith('branch-') ? 'military-intelligence' : null)),
  ];
}

const iso = (d: Date): string => d.toISOString().slice(0, 10);

function bandOf(age: number): (typeof AGE_BANDS)[number] {
  if (age < 18) return '<18';
  if (age < 30) return '18-29';
  if (age >= 60) return '60+';
  return AGE_BANDS[Math.floor(age / 10) - 1] ?? '60+';
}

interface Marks {
  readonly marks: { region: string; kind: string; description: null }[];
}

/** A person's lasting marks: none for most, one or two for some. */
function marksOf(rng: Prng): Marks {
  const count = chance(rng, 0.6) ? 0 : chance(rng, 0.7) ? 1 : 2;
  return {
    marks: Array.from({ length: count }, () => ({
      region: MARK_REGIONS[rng.nextInt(MARK_REGIONS.length)] ?? 'face',
      kind: MARK_KINDS[rng.nextInt(MARK_KINDS.length)] ?? 'scar',
      description: null,
    })),
  };
}

/** The subject a catalogue holds of a person: facts as recorded, some missing, some a band off. */
function subjectOf(rng: Prng, p: Person, id: string): SubjectsTable {
  const arrest = Date.UTC(p.arrest.y, p.arrest.m - 1, p.arrest.d);
  const death = new Date(arrest + (20 + rng.nextInt(900)) * 86_400_000);
  const age = death.getUTCFullYear() - p.birthYear;
  const bandIndex = AGE_BANDS.indexOf(bandOf(age));
  const off = chance(rng, 0.1) ? (chance(rng, 0.5) ? 1 : -1) : 0;
  const band = AGE_BANDS[Math.min(AGE_BANDS.length - 1, Math.max(0, bandIndex + off))];
  return {
    id,
    number_raw: null,
    scheme_id: null,
    number_normalised: null,
    fields_json: '{}',
    unit_id: chance(rng, 0.9) ? p.unit : null,
    sex: chance(rng, 0.95) ? p.sex : 'undetermined',
    age_band: chance(rng, 0.85) ? (band ?? null) : 'undetermined',
    date_of_death: chance(rng, 0.6) ? iso(death) : null,
    date_of_photography: iso(new Date(death.getTime() + rng.nextInt(5) * 86_400_000)),
    notes: null,
    status: 'active',
    merged_into: null,
    created_seq: 0,
    updated_seq: 0,
  };
}

/** What the ranking reads of a report: its sex, birth year, arrest date, unit and marks. */
function contentOf(rng: Prng, r: LinkRecord, marks: Marks): ReportContent {
  const told = marks.marks.filter(() => chance(rng, 0.5));
  return {
    reference: null,
    name_ar: r.name_ar ?? null,
    name_latin: r.name_latin ?? null,
    father_name: null,
    grandfather_name: null,
    family_name: null,
    mother_name: null,
    sex: r.sex ?? null,
    birth: r.birth_year === undefined ? null : String(r.birth_year),
    origin: null,
    event: 'arrest',
    event_date: r.arrest_date ?? null,
    event_place: null,
    unit: r.unit === undefined ? null : { as_reported: r.unit, id: r.unit },
    am: told.length === 0 ? {} : { marks: told },
    contact: null,
    consent: { orgs: [], photographs: 'no', liaison: null },
  };
}

/** 1-based place of the true subject: as listed (ties in id order), and at the end of its tie. */
function placeOf(scores: Float64Array, at: number): { listed: number; worst: number } {
  const mine = scores[at] as number;
  let above = 0;
  let tiedBefore = 0;
  let tied = 0;
  for (let i = 0; i < scores.length; i++) {
    const x = scores[i] as number;
    if (x > mine) above++;
    else if (x === mine) {
      tied++;
      if (i < at) tiedBefore++;
    }
  }
  return { listed: above + tiedBefore + 1, worst: above + tied };
}

/**
 * The weights: for each outcome, ln(P(outcome | true subject) / P(outcome | another subject)), over
 * the true pairs and 20 other subjects drawn per report. Run on the tuning seed only.
 */
function estimateWeights(
  records: readonly LinkRecord[],
  contents: readonly ReportContent[],
  rows: SubjectsTable[],
  pm: ReadonlyMap<string, IdentificationRecord>,
  units: UnitsTable[],
  truthOf: (r: LinkRecord) => string | undefined,
  rng: Prng,
): string[] {
  const prepared = prepareSubjects(rows, pm, units);
  const byId = new Map(prepared.subjects.map((s) => [s.row.id, s]));
  const m = new Map<string, number>();
  const u = new Map<string, number>();
  let nm = 0;
  let nu = 0;
  const count = (into: Map<string, number>, c: ReportContent, s: PreparedSubject): void => {
    for (const f of explain(c, s, prepared).factors) {
      const k = weightKey(f) ?? `${f.factor}:missing`;
      into.set(k, (into.get(k) ?? 0) + 1);
    }
  };
  records.forEach((r, i) => {
    const truth = truthOf(r);
    if (truth === undefined) return;
    const c = contents[i] as ReportContent;
    count(m, c, byId.get(truth) as PreparedSubject);
    nm++;
    for (let k = 0; k < 20; k++) {
      const s = prepared.subjects[rng.nextInt(prepared.subjects.length)] as PreparedSubject;
      if (s.row.id === truth) continue;
      count(u, c, s);
      nu++;
    }
  });
  const lines = [`weights (true pairs ${nm}, other pairs ${nu}): key  P(|true)  P(|other)  ln ratio  [in rank.ts]`];
  for (const k of [...new Set([...m.keys(), ...u.keys()])].sort()) {
    const pm1 = (m.get(k) ?? 0) / nm;
    const pu = (u.get(k) ?? 0) / nu;
    const w = Math.log((pm1 || 0.5 / nm) / (pu || 0.5 / nu));
    lines.push(`  ${k.padEnd(16)} ${pm1.toFixed(4)}  ${pu.toFixed(4)}  ${w.toFixed(2)}  [${k in WEIGHTS ? WEIGHTS[k as WeightKey] : '0'}]`);
  }
  return lines;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
};

function recallLine(label: string, ranks: number[]): string {
  const at = (k: number): string =>
    (ranks.filter((r) => r <= k).length / Math.max(ranks.length, 1)).toFixed(4);
  return `  ${label} (${ranks.length} reports): recall@1 ${at(1)}, @5 ${at(5)}, @20 ${at(20)}, @50 ${at(50)}, median rank ${median(ranks)}`;
}

export function benchIdentificationCandidates(
  reports: number,
  subjects: number,
  seed?: string,
  estimate = false,
): string[] {
  const corpus = syntheticReports(12_000, reports, seed);
  const rng = seededPrng(`identification-candidates-v1/${seed ?? ''}`);
  const marks = new Map(corpus.people.map((p) => [p.id, marksOf(rng)]));
  // `subjects` of the reported people, drawn without replacement.
  const order = corpus.people.map((p) => p.id);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  const person = new Map(corpus.people.map((p) => [p.id, p]));
  const subjectOfPerson = new Map<string, string>();
  const rows: SubjectsTable[] = order.slice(0, subjects).map((pid, i) => {
    const id = `s${String(i).padStart(5, '0')}`;
    subjectOfPerson.set(pid, id);
    return subjectOf(rng, person.get(pid) as Person, id);
  });
  const pm = new Map<string, IdentificationRecord>(
    rows.map((s, i): [string, IdentificationRecord] => {
      const seen = (marks.get(order[i] as string)?.marks ?? []).filter(() => chance(rng, 0.7));
      return [s.id, seen.length === 0 ? {} : { marks: seen }];
    }),
  );
  const units = unitsTable();
  const contents = corpus.records.map((r) =>
    contentOf(rng, r, marks.get(corpus.truth.get(r.id) ?? '') as Marks),
  );

  if (estimate) return estimateWeights(corpus.records, contents, rows, pm, units, (r) => subjectOfPerson.get(corpus.truth.get(r.id) ?? ''), rng);

  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t0 = performance.now();
  // Subject features once, then one score per pair, without a factor or a sentence (rank.ts);
  // the service builds the factors of the few candidates it returns.
  const prepared = prepareSubjects(rows, pm, units);
  const indexOf = new Map(prepared.subjects.map((s, i) => [s.row.id, i]));
  const listed: number[] = [];
  const worst: number[] = [];
  const wrongUnit: number[] = [];
  const yearOff: number[] = [];
  const excluded = 0; // no factor excludes a subject
  corpus.records.forEach((r, i) => {
    const scores = scoreSubjects(contents[i] as ReportContent, prepared);
    const pid = corpus.truth.get(r.id) ?? '';
    const subject = subjectOfPerson.get(pid);
    if (subject === undefined) return;
    const place = placeOf(scores, indexOf.get(subject) as number);
    listed.push(place.listed);
    worst.push(place.worst);
    const p = person.get(pid) as Person;
    if (r.unit !== undefined && r.unit !== p.unit) wrongUnit.push(place.listed);
    if (r.arrest_date !== undefined && Number(r.arrest_date.slice(0, 4)) !== p.arrest.y)
      yearOff.push(place.listed);
  });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return [
    `identification candidates: ${reports} reports x ${subjects} subjects (seed ${seed ?? 'identification-linkage-v1'})`,
    `  every report scored against every subject (scoreSubjects): ${seconds.toFixed(1)} s wall, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB`,
    `  true subject excluded by a filter: ${excluded} of ${listed.length + excluded} (no factor excludes)`,
    recallLine('as listed (ties in id order)', listed),
    recallLine('at the end of its tie', worst),
    recallLine('reports naming a wrong branch, as listed', wrongUnit),
    recallLine('reports with the arrest year off, as listed', yearOff),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const positional = args.filter((a) => !a.includes('=') && a !== 'estimate');
  const named = Object.fromEntries(
    args.filter((a) => a.includes('=')).map((a) => a.split('=', 2) as [string, string]),
  );
  const seed =
    named.seed === 'tune' ? TUNING_SEED : named.seed === 'report' ? REPORT_SEED : named.seed;
  for (const line of benchIdentificationCandidates(
    Number(positional[0] ?? 20_000),
    Number(positional[1] ?? 5_000),
    seed,
    args.includes('estimate'),
  ))
    console.log(line);
}
