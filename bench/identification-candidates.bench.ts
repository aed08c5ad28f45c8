// Candidate subjects for missing-person reports (issue 15): 20,000 reports (the linkage corpus,
// bench/identification-linkage-corpus.ts) against 5,000 subjects, each subject one of the reported
// people, with its unit, date of death or photograph, sex, age band and marks as a catalogue and an
// examiner would record them. Every report is ranked against every subject by rankCandidates (the
// service's ranking, unchanged); for the reports of people who are subjects, the rank of the true
// subject: recall at 1, 5, 20, 50 and the median, as listed (ties in id order) and at the worst
// place of its tie. No factor excludes a subject (rank.ts), so none is ever filtered out.
//   npm run build && node dist/bench/identification-candidates.bench.js [reports] [subjects] [seed=tune|report|…]
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { seededPrng, type Prng } from '../src/stats/index.js';
import { rankCandidates, type Candidate } from '../src/identification/candidates/rank.js';
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

/** 1-based place of the true subject: as listed, and at the end of its tie (the worst a reviewer meets). */
function placeOf(ranked: readonly Candidate[], subject: string): { listed: number; worst: number } {
  const at = ranked.findIndex((c) => c.subject === subject);
  const c = ranked[at] as Candidate;
  let worst = at;
  while (worst + 1 < ranked.length) {
    const d = ranked[worst + 1] as Candidate;
    if (d.disagreed !== c.disagreed || d.agreed !== c.agreed || d.close !== c.close) break;
    worst++;
  }
  return { listed: at + 1, worst: worst + 1 };
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

  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t0 = performance.now();
  const listed: number[] = [];
  const worst: number[] = [];
  const wrongUnit: number[] = [];
  const yearOff: number[] = [];
  let excluded = 0;
  corpus.records.forEach((r, i) => {
    const ranked = rankCandidates({
      report: contents[i] as ReportContent,
      subjects: rows,
      pm,
      units,
    });
    const pid = corpus.truth.get(r.id) ?? '';
    const subject = subjectOfPerson.get(pid);
    if (subject === undefined) return;
    if (!ranked.some((c) => c.subject === subject)) {
      excluded++;
      return;
    }
    const place = placeOf(ranked, subject);
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
    `  rankCandidates for every report: ${seconds.toFixed(1)} s wall, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB`,
    `  true subject excluded by a filter: ${excluded} of ${listed.length + excluded} (no factor excludes)`,
    recallLine('as listed (ties in id order)', listed),
    recallLine('at the end of its tie', worst),
    recallLine('reports naming a wrong branch, as listed', wrongUnit),
    recallLine('reports with the arrest year off, as listed', yearOff),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const positional = args.filter((a) => !a.includes('='));
  const named = Object.fromEntries(
    args.filter((a) => a.includes('=')).map((a) => a.split('=', 2) as [string, string]),
  );
  const seed =
    named.seed === 'tune' ? TUNING_SEED : named.seed === 'report' ? REPORT_SEED : named.seed;
  for (const line of benchIdentificationCandidates(
    Number(positional[0] ?? 20_000),
    Number(positional[1] ?? 5_000),
    seed,
  ))
    console.log(line);
}
