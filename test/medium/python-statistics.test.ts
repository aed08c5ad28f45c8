// The statistics a bag carries, computed twice: here with Custody's TypeScript (statisticsReport,
// the pure core that `custody stats` and verify-export run), and by the bag's own standard-library Python
// (src/verify/reference/custody_verify/stats.py, an independent implementation written from the
// published definitions). Many seeded synthetic samples (simple random, systematic, stratified by
// unit and by month, strata with 0/1/2 assessed, uniform strata, cannot-assess answers, two and
// three examiners, missing answers, ordinal age bands, a census) must agree within the contract's
// tolerances (1e-9 relative; 1e-6 absolute for root-found interval bounds), and a one-cell change
// must be caught by compare(). Needs python3; without it this file skips with the reason, except
// on CI.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codebookDigest, DEFAULT_CODEBOOK, defineCodebook, type Codebook } from '../../src/examination/codebook/index.js';
import type { SamplesTable } from '../../src/db/schema.js';
import { statisticsReport, type StatisticsReport } from '../../src/examination/statistics/index.js';
import { seededPrng, type Prng } from '../../src/stats/index.js';
import { isCi } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REFERENCE = path.resolve(HERE, '../../src/verify/reference');

function pythonMissing(): string | null {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined) return `python3 not found (${probe.error.message})`;
  return probe.status === 0 ? null : `python3 --version exited with ${probe.status}`;
}
const SKIP_REASON = pythonMissing();
if (SKIP_REASON !== null) {
  if (isCi()) throw new Error(`CI=true requires python3, but: ${SKIP_REASON}`);
  console.warn(`[python-statistics] skipped: ${SKIP_REASON}`);
}

// ---------------------------------------------------------------------------------------------
// The input of custody_verify.stats.recompute (ISSUE11-CONTRACT.md §4).

type Value = 'present' | 'absent' | 'cannot_assess';
interface Answer {
  sex: string;
  age_band: string;
  findings: Record<string, { value: Value }>;
}
interface Case {
  case: string;
  stratum: string | null;
  unit: string;
  month: string;
  answers: { examiner: string; answer: Answer }[] | null;
  final: Answer | null;
  status: 'unassigned' | 'awaiting_submissions' | 'awaiting_adjudication' | 'final';
}
interface Sample {
  id: string;
  over: 'subjects' | 'items';
  method: 'simple' | 'systematic' | 'stratified';
  by: 'unit' | 'month' | null;
  population: number | null;
  strata: { name: string; frame_size: number }[];
  codebook: { version: string; digest: string; definition: Codebook };
}
interface Input {
  sample: Sample;
  cases: Case[];
  units: Record<string, string | null>;
}
/** What the index would hold for each case's subject (unit and dates): how unit and month arise. */
type Subjects = Map<string, { unit_id: string | null; date_of_death: string | null; date_of_photography: string | null }>;

// ---------------------------------------------------------------------------------------------
// Expected: Custody's pure statistics core (statisticsReport, src/examination/statistics/
// report.ts), the one `custody stats`, the export and verify-export run.

function expectedStatistics(input: Input): Pick<StatisticsReport, 'cases' | 'demographics' | 'findings' | 'age_band_agreement'> {
  const subjects = SUBJECTS.get(input);
  if (subjects === undefined) throw new Error('synthesize() records the subjects of every input');
  const { sample, cases } = input;
  const table: SamplesTable = {
    id: sample.id,
    name: 'synthetic',
    unit_kind: sample.over,
    method: sample.method,
    stratify: sample.by,
    size: cases.length,
    population: sample.population,
    frame_digest: '0'.repeat(64),
    frame_size: sample.strata.reduce((a, b) => a + b.frame_size, 0),
    strata_json: JSON.stringify(sample.strata),
    codebook_json: JSON.stringify(sample.codebook.definition),
    codebook_version: sample.codebook.version,
    codebook_digest: sample.codebook.digest,
    frame_seq: 1,
    seed: 'seed',
    seed_seq: 2,
    manifest_digest: '1'.repeat(64),
    manifest_seq: 3,
    plan_key_json: null,
    case_code_key: null,
    closed_seq: null,
    case_id_key: null,
  };
  const outcomes = cases.map((c, position) => ({
    case: c.case,
    position,
    stratum: c.stratum,
    examiners: (c.answers ?? []).map((a) => a.examiner),
    submitted: (c.answers ?? []).map((a) => a.examiner),
    answers: c.answers,
    disagreements: c.answers === null ? null : [],
    final: c.final,
    adjudicated: false,
    status: c.status,
  }));
  // The synthetic answers are the codebook's strings (the Sex and AgeBand unions, as plain strings here).
  const full = statisticsReport({
    sample: table,
    outcomes,
    subjects,
    unitLabels: new Map(Object.entries(input.units)),
    subjectOfItem: sample.over === 'items' ? new Map(cases.map((c) => [c.case, c.case])) : null,
    checkpoint: { tree_size: 4, root: '2'.repeat(64), signed: true },
    codeVersion: 'test',
  } as unknown as Parameters<typeof statisticsReport>[0]);
  return { cases: full.cases, demographics: full.demographics, findings: full.findings, age_band_agreement: full.age_band_agreement };
}

const SEXES = ['male', 'female', 'undetermined'];
const AGE_BANDS = ['<18', '18-29', '30-39', '40-49', '50-59', '60+', 'undetermined'];

// ---------------------------------------------------------------------------------------------
// Synthetic samples, seeded.

interface Scenario {
  name: string;
  method: Sample['method'];
  by: Sample['by'];
  over?: Sample['over'];
  /** frame size per stratum (one entry when unstratified) */
  frames: number[];
  /** sampled per stratum */
  sizes: number[];
  population?: number | null;
  examiners: string[];
  /** examiners per case (rotating among `examiners`) */
  perCase: number;
  findings: number;
  /** chance that a case is not yet revealed / awaits adjudication / has a missing finding */
  unrevealed?: number;
  pending?: number;
  missing?: number;
  cannotAssess?: number;
  /** per stratum: force every final answer of finding 0 to this value */
  uniform?: (Value | null)[];
  /** per stratum: cases whose final is cannot_assess for every finding */
  unassessable?: number[];
  disagree?: number;
}

const pick = <T>(prng: Prng, xs: readonly T[]): T => xs[prng.nextInt(xs.length)] as T;
const chance = (prng: Prng, p: number): boolean => prng.nextUint32() / 2 ** 32 < p;

const UNITS = ['01UNIT0000000000000000000A', '01UNIT0000000000000000000B', '01UNIT0000000000000000000C', 'unattributed', '01UNIT0000000000000000000D'];
const UNIT_LABELS: Record<string, string | null> = {
  '01UNIT0000000000000000000A': 'Branch 215 (Raids)',
  '01UNIT0000000000000000000B': 'فرع فلسطين ٢٣٥',
  '01UNIT0000000000000000000C': null,
  '01UNIT0000000000000000000D': 'Branch 248',
};
const MONTHS = ['2012-11', '2013-01', '2013-02', '2013-03', 'undated', '2014-12'];

function synthesize(seed: string, s: Scenario): Input {
  const prng = seededPrng(seed);
  // The default's findings cut to the scenario's number; its translations (which name every
  // finding) are left out, as a translation must cover exactly the codebook's terms.
  const english = { ...DEFAULT_CODEBOOK };
  delete english.translations;
  const codebook = defineCodebook({ ...english, version: 'synthetic-v1', findings: DEFAULT_CODEBOOK.findings.slice(0, s.findings) });
  const findings = codebook.findings;
  const subjects: Subjects = new Map();
  const stratified = s.method === 'stratified';
  const strata = stratified
    ? s.frames.map((frame_size, h) => ({ name: s.by === 'month' ? (MONTHS[h] ?? `20${10 + h}-01`) : (UNITS[h] ?? `U${h}`), frame_size }))
    : [];
  const cases: Case[] = [];
  let counter = 0;
  s.sizes.forEach((size, h) => {
    const rate = 0.1 + 0.8 * (prng.nextUint32() / 2 ** 32); // the stratum's true prevalence
    for (let i = 0; i < size; i++) {
      const id = `case-${String(counter++).padStart(4, '0')}`;
      const stratum = stratified ? (strata[h]?.name ?? null) : null;
      const unit = stratified && s.by === 'unit' ? (stratum ?? 'unattributed') : pick(prng, UNITS);
      const month = stratified && s.by === 'month' ? (stratum ?? 'undated') : pick(prng, MONTHS);
      const date = month === 'undated' ? null : `${month}-${String(1 + prng.nextInt(28)).padStart(2, '0')}`;
      const photographed = chance(prng, 0.2); // only the photograph's date is known
      subjects.set(id, { unit_id: unit === 'unattributed' ? null : unit, date_of_death: photographed ? null : date, date_of_photography: photographed ? date : null });
      const truth: Answer = {
        sex: pick(prng, SEXES),
        age_band: pick(prng, AGE_BANDS),
        findings: {},
      };
      const allUnassessable = i < (s.unassessable?.[h] ?? 0);
      for (const [j, f] of findings.entries()) {
        const forced = j === 0 ? (s.uniform?.[h] ?? null) : null;
        const v: Value = allUnassessable
          ? 'cannot_assess'
          : forced ?? (chance(prng, s.cannotAssess ?? 0.08) ? 'cannot_assess' : chance(prng, rate) ? 'present' : 'absent');
        truth.findings[f.code] = { value: v };
      }
      const start = prng.nextInt(s.examiners.length);
      const assigned = Array.from({ length: s.perCase }, (_, k) => s.examiners[(start + k) % s.examiners.length] ?? 'x');
      if (chance(prng, s.unrevealed ?? 0)) {
        const unassigned = chance(prng, 0.3);
        cases.push({ case: id, stratum, unit, month, answers: null, final: null, status: unassigned ? 'unassigned' : 'awaiting_submissions' });
        continue;
      }
      const answers = assigned.map((examiner) => {
        const answer: Answer = JSON.parse(JSON.stringify(truth)) as Answer;
        for (const f of findings) {
          if (chance(prng, s.disagree ?? 0.12)) answer.findings[f.code] = { value: pick(prng, (s.cannotAssess === 0 ? ['present', 'absent'] : ['present', 'absent', 'cannot_assess']) as Value[]) };
          if (chance(prng, s.missing ?? 0)) delete answer.findings[f.code];
        }
        if (chance(prng, 0.15)) answer.age_band = pick(prng, AGE_BANDS);
        return { examiner, answer };
      });
      const pending = chance(prng, s.pending ?? 0);
      cases.push({ case: id, stratum, unit, month, answers, final: pending ? null : truth, status: pending ? 'awaiting_adjudication' : 'final' });
    }
  });
  const frameTotal = s.frames.reduce((a, b) => a + b, 0);
  const input: Input = {
    sample: {
      id: `sample-${seed}`,
      over: s.over ?? 'subjects',
      method: s.method,
      by: s.by,
      population: s.population === undefined ? frameTotal : s.population,
      strata,
      codebook: { version: codebook.version, digest: codebookDigest(codebook), definition: codebook },
    },
    cases,
    units: UNIT_LABELS,
  };
  SUBJECTS.set(input, subjects);
  return input;
}

const SUBJECTS = new WeakMap<Input, Subjects>();

const TWO = ['examiner-a', 'examiner-b'];
const THREE = ['examiner-a', 'examiner-b', 'examiner-c'];

const SCENARIOS: Scenario[] = [
  { name: 'simple random, two examiners', method: 'simple', by: null, frames: [400], sizes: [60], examiners: TWO, perCase: 2, findings: 4 },
  { name: 'simple random, missing answers and pending cases', method: 'simple', by: null, frames: [300], sizes: [45], examiners: TWO, perCase: 2, findings: 3, missing: 0.1, unrevealed: 0.1, pending: 0.1 },
  { name: 'simple random, large population', method: 'simple', by: null, frames: [150], sizes: [150], population: 2_000_000, examiners: TWO, perCase: 2, findings: 2 },
  { name: 'systematic over items, no population', method: 'systematic', by: null, over: 'items', frames: [500], sizes: [40], population: null, examiners: TWO, perCase: 2, findings: 3 },
  { name: 'simple random, three examiners on every case', method: 'simple', by: null, frames: [200], sizes: [30], examiners: THREE, perCase: 3, findings: 3 },
  { name: 'simple random, three examiners rotating two per case', method: 'simple', by: null, frames: [200], sizes: [36], examiners: THREE, perCase: 2, findings: 3, cannotAssess: 0 },
  { name: 'three examiners, some cases with missing answers', method: 'simple', by: null, frames: [90], sizes: [27], examiners: THREE, perCase: 3, findings: 2, missing: 0.15 },
  { name: 'census (sample = frame = population)', method: 'simple', by: null, frames: [25], sizes: [25], examiners: TWO, perCase: 2, findings: 3 },
  { name: 'simple random, everything cannot be assessed', method: 'simple', by: null, frames: [50], sizes: [6], examiners: TWO, perCase: 2, findings: 2, cannotAssess: 1 },
  {
    name: 'stratified by unit, strata with 0, 1 and 2 assessed',
    method: 'stratified', by: 'unit', frames: [40, 30, 20, 12, 8], sizes: [12, 1, 2, 0, 5], examiners: TWO, perCase: 2, findings: 3,
  },
  {
    name: 'stratified by unit, all-present and all-absent strata (3/3 and 0/4)',
    method: 'stratified', by: 'unit', frames: [10, 10], sizes: [3, 4], uniform: ['present', 'absent'], examiners: TWO, perCase: 2, findings: 2, cannotAssess: 0,
  },
  {
    name: 'stratified by unit, a stratum examined in full and one unassessable',
    method: 'stratified', by: 'unit', frames: [1, 6, 30, 9], sizes: [1, 6, 10, 4], unassessable: [0, 0, 0, 4], examiners: TWO, perCase: 2, findings: 3,
  },
  {
    name: 'stratified census: every stratum examined in full',
    method: 'stratified', by: 'unit', frames: [5, 7, 4], sizes: [5, 7, 4], examiners: TWO, perCase: 2, findings: 2, cannotAssess: 0,
  },
  {
    name: 'stratified by month, three examiners',
    method: 'stratified', by: 'month', frames: [30, 25, 40, 10, 3], sizes: [8, 7, 10, 3, 1], examiners: THREE, perCase: 3, findings: 3, missing: 0.05,
  },
  {
    name: 'stratified by month, pending and unrevealed cases',
    method: 'stratified', by: 'month', frames: [50, 50, 50], sizes: [15, 15, 15], examiners: TWO, perCase: 2, findings: 2, unrevealed: 0.1, pending: 0.1,
  },
];

// ---------------------------------------------------------------------------------------------
// Running the Python.

const RUNNER = `
import json, sys
sys.path.insert(0, sys.argv[1])
from custody_verify.stats import recompute, compare
jobs = json.load(open(sys.argv[2], encoding="utf-8"))
out = []
for job in jobs:
    derived = recompute(job["input"]["sample"], job["input"]["cases"], job["input"]["units"])
    out.append({"derived": derived, "diffs": [[p, repr(b), repr(d)] for p, b, d in compare(job["expected"], derived, "")]})
json.dump(out, sys.stdout)
`;

interface PythonResult {
  derived: unknown;
  diffs: [string, string, string][];
}

async function runPython(jobs: { input: Input; expected: unknown }[]): Promise<PythonResult[]> {
  const dir = await makeTempDir('python-statistics');
  const file = path.join(dir, 'jobs.json');
  await writeFile(file, JSON.stringify(jobs));
  const r = spawnSync('python3', ['-B', '-c', RUNNER, REFERENCE, file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`python3 failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as PythonResult[];
}

function python(args: string[], input?: string) {
  return spawnSync('python3', ['-B', ...args], { encoding: 'utf8', cwd: REFERENCE, input, maxBuffer: 1 << 30 });
}

describe.skipIf(SKIP_REASON !== null)('custody_verify.stats agrees with the TypeScript statistics', () => {
  const SEEDS = ['s1', 's2', 's3'];
  it.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const jobs = SEEDS.map((seed) => {
      const input = synthesize(`${scenario.name}/${seed}`, scenario);
      return { input, expected: expectedStatistics(input) };
    });
    const results = await runPython(jobs);
    results.forEach((r, i) => expect({ seed: SEEDS[i], diffs: r.diffs }).toEqual({ seed: SEEDS[i], diffs: [] }));
    // The scenario does what it says (so that a generator change cannot quietly empty it).
    expect(jobs.some((j) => j.input.cases.some((c) => c.final !== null))).toBe(true);
  }, 120_000);

  it('covers the cases the scenarios name: excluded, uniform and census strata; kappas over complete cases', () => {
    const strata = expectedStatistics(synthesize('cover', SCENARIOS[9] as Scenario)).findings[0]?.stratified;
    expect(strata?.excluded_strata.length).toBeGreaterThan(0);
    expect(strata?.covered_population).toBeLessThan(strata?.frame_population ?? 0);
    const uniform = expectedStatistics(synthesize('cover', SCENARIOS[10] as Scenario)).findings[0]?.stratified;
    expect(uniform?.standard_error).toBe(0);
    expect((uniform?.interval.upper ?? 0) - (uniform?.interval.lower ?? 0)).toBeGreaterThan(0.1);
    const census = expectedStatistics(synthesize('cover', SCENARIOS[12] as Scenario)).findings[0]?.stratified;
    expect(census?.interval.lower).toBe(census?.estimate);
    const rotating = expectedStatistics(synthesize('cover', SCENARIOS[5] as Scenario)).findings[0]?.agreement;
    expect(rotating?.coefficients.map((c) => c.name)).toEqual(['krippendorff_alpha', 'fleiss_kappa']);
    const missing = expectedStatistics(synthesize('cover', SCENARIOS[6] as Scenario)).findings.map((f) => f.agreement?.coefficients.find((c) => c.name === 'fleiss_kappa')?.units);
    expect(missing.some((u) => u !== undefined && u < 27)).toBe(true);
  });

  it('compare() catches a one-cell change, and reports a clean document as agreeing', async () => {
    const input = synthesize('tamper', SCENARIOS[0] as Scenario);
    const expected = expectedStatistics(input);
    const tampered = JSON.parse(JSON.stringify(expected)) as typeof expected;
    const finding = tampered.findings[1];
    if (finding === undefined || finding.proportion === null) throw new Error('scenario has no second finding');
    (finding as { proportion: number }).proportion += 1e-6; // a change far below what a report prints
    const [clean, forged] = await runPython([
      { input, expected },
      { input, expected: tampered },
    ]);
    expect(clean?.diffs).toEqual([]);
    expect(forged?.diffs.map((d) => d[0])).toEqual(['/findings/1/proportion']);
  }, 60_000);

  it('compare() names a changed count, a changed method name and a missing row', async () => {
    const input = synthesize('tamper-2', SCENARIOS[9] as Scenario);
    const expected = expectedStatistics(input);
    const t = JSON.parse(JSON.stringify(expected)) as typeof expected;
    const f = t.findings[0];
    if (f?.stratified === null || f?.stratified === undefined) throw new Error('no stratified estimate');
    (f.stratified as { covered_population: number }).covered_population += 1;
    (t.cases as { final: number }).final -= 1;
    (f.breakdowns.month as unknown[]).pop();
    (f.stratified.interval as { method: string }).method = 'normal approximation';
    const last = (expected.findings[0]?.breakdowns.month.length ?? 0) - 1;
    const [r] = await runPython([{ input, expected: t }]);
    expect(r?.diffs.map((d) => d[0]).sort()).toEqual(
      ['/cases/final', '/findings/0/stratified/covered_population', '/findings/0/stratified/interval/method', `/findings/0/breakdowns/month/${last}`].sort(),
    );
    expect(r?.diffs.find((d) => d[0].includes('/month/'))?.[1]).toBe('(absent)');
  }, 60_000);

  it('the command line prints the recomputed JSON for one input', async () => {
    const input = synthesize('cli', SCENARIOS[13] as Scenario);
    const dir = await makeTempDir('python-statistics');
    const file = path.join(dir, 'input.json');
    await writeFile(file, JSON.stringify(input));
    const r = python(['-m', 'custody_verify.stats', file]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const derived = JSON.parse(r.stdout) as { findings: { code: string; stratified: { covered_population: number } }[] };
    expect(derived.findings.map((f) => f.code)).toEqual(input.sample.codebook.definition.findings.map((f) => f.code));
    expect(derived.findings[0]?.stratified.covered_population).toBe(expectedStatistics(input).findings[0]?.stratified?.covered_population);
    expect(python(['-m', 'custody_verify.stats', '--help']).status).toBe(0);
    expect(python(['-m', 'custody_verify.stats']).status).toBe(2);
  }, 60_000);

  it('known values: Wilson, Clopper–Pearson, hypergeometric, Krippendorff 2011 example C, Cohen and Fleiss', () => {
    const r = python([path.resolve(HERE, '../python/test_custody_verify_stats.py')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Ran \d+ tests/);
  });
});

if (SKIP_REASON !== null) it.skip(`custody_verify.stats cross-check (${SKIP_REASON})`, () => undefined);
