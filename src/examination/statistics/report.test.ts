import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../core/index.js';
import type { SamplesTable } from '../../db/index.js';
import type { CaseOutcome } from '../blind/case-outcomes.js';
import { codebookDigest, DEFAULT_CODEBOOK, type ExaminationAnswer } from '../codebook/index.js';
import { statisticsReport } from './report.js';

const answer = (emaciation: 'present' | 'absent'): ExaminationAnswer =>
  ({ sex: 'male', age_band: '30-44', findings: { emaciation: { value: emaciation } } }) as unknown as ExaminationAnswer;

function plan(strata: { name: string; frame_size: number }[]): SamplesTable {
  return {
    id: 'S1',
    name: 'main',
    unit_kind: 'subjects',
    method: 'stratified',
    stratify: 'unit',
    size: 5,
    population: 15,
    frame_digest: 'f'.repeat(64),
    frame_size: strata.reduce((n, s) => n + s.frame_size, 0),
    strata_json: JSON.stringify(strata.map((s) => ({ ...s, frame_digest: 'e'.repeat(64) }))),
    codebook_json: canonicalize(DEFAULT_CODEBOOK),
    codebook_version: DEFAULT_CODEBOOK.version,
    codebook_digest: codebookDigest(DEFAULT_CODEBOOK),
    frame_seq: 1,
    seed: 'seed',
    seed_seq: 2,
    manifest_digest: 'd'.repeat(64),
    manifest_seq: 3,
    plan_key_json: null,
    case_code_key: null,
    closed_seq: null,
    case_id_key: null,
  };
}

const final = (id: string, position: number, stratum: string, value: 'present' | 'absent'): CaseOutcome => ({
  case: id,
  position,
  stratum,
  examiners: [],
  submitted: [],
  answers: null,
  disagreements: null,
  final: answer(value),
  adjudicated: false,
  status: 'final',
});

const input = (strata: { name: string; frame_size: number }[], outcomes: CaseOutcome[]) => ({
  sample: plan(strata),
  outcomes,
  subjects: new Map(outcomes.map((o) => [o.case, { unit_id: o.stratum, date_of_death: null, date_of_photography: null }])),
  unitLabels: new Map([['A', 'Branch A']]),
  subjectOfItem: null,
  checkpoint: { tree_size: 10, root: '0'.repeat(64), signed: true },
  codeVersion: 'custody test',
});

describe('statisticsReport (the pure core of custody stats)', () => {
  it('names the population a stratified estimate covers: excluded strata shrink covered_population, not frame_population', () => {
    const report = statisticsReport(
      input(
        [
          { name: 'A', frame_size: 10 },
          { name: 'B', frame_size: 5 },
        ],
        [final('a1', 0, 'A', 'present'), final('a2', 1, 'A', 'present'), final('a3', 2, 'A', 'absent'), final('b1', 3, 'B', 'present')],
      ),
    );
    const f = report.findings.find((x) => x.code === 'emaciation');
    expect(f?.stratified).toMatchObject({ covered_population: 10, frame_population: 15, excluded_strata: ['B'] });
    expect(f?.stratified?.estimated_count).toBeCloseTo((2 / 3) * 10, 12);
    expect(f?.sentence).toBe(
      '3 of 4 examined individuals (weighted estimate 67% of the 10 catalogued subjects in the covered strata; 95% CI ' +
        `${Math.round((f?.stratified?.interval.lower ?? 0) * 100)}–${Math.round((f?.stratified?.interval.upper ?? 0) * 100)}%) showed emaciation; ` +
        'the other 5 of the 15 are in strata with too few assessed cases and not covered.',
    );
  });

  it('gives the same figures for the same rows (the verifier relies on it), and the unit label beside its id', () => {
    const rows = [final('a1', 0, 'A', 'present'), final('a2', 1, 'A', 'absent')];
    const a = statisticsReport(input([{ name: 'A', frame_size: 10 }], rows));
    const b = statisticsReport(input([{ name: 'A', frame_size: 10 }], rows));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const f = a.findings.find((x) => x.code === 'emaciation');
    expect(f?.stratified).toMatchObject({ covered_population: 10, frame_population: 10, excluded_strata: [] });
    expect(f?.breakdowns.unit).toEqual([expect.objectContaining({ key: 'A', label: 'Branch A', present: 1, absent: 1 })]);
  });
});
