/**
 * data/tables/examinations: every revealed answer and each case's final answer (unanimous or
 * adjudicated), as the `examination.*` entries make them; and every reveal opened against the
 * commitment of its submission (SHA-256 of the answer's canonical JSON and the salt). Pure.
 */
import { formatCsv } from '../../../core/index.js';
import type { ExamSubmissionsTable, SamplesTable } from '../../../db/index.js';
import {
  caseOutcomesFrom,
  type CaseOutcome,
  sampleCodebook,
} from '../../../examination/blind/index.js';
import type { ExaminationAnswer } from '../../../examination/codebook/index.js';
import { verifyReveal } from '../../../examination/commitment/index.js';
import type { Row } from './derive-items.js';
import { planRows, type ReplayedIndex } from './replay.js';

export const EXAMINATION_HEADER = ['sample', 'case', 'examiner', 'commitment', 'submit_seq', 'reveal_seq', 'sex', 'age_band'] as const;

/** A revealed answer that does not open the commitment of its submission. */
export interface CommitmentMismatch {
  sample: string;
  case: string;
  examiner: string;
  reveal_seq: number;
  submit_seq: number;
}

/** Every revealed submission in the ledger, opened against its commitment. */
export function checkCommitments(index: ReplayedIndex): CommitmentMismatch[] {
  return index.submissions
    .filter((s) => s.reveal_seq !== null)
    .filter((s) => !opens(s))
    .map((s) => ({ sample: s.sample_id, case: s.case_id, examiner: s.examiner, reveal_seq: s.reveal_seq ?? -1, submit_seq: s.submit_seq }));
}

function opens(s: ExamSubmissionsTable): boolean {
  try {
    return verifyReveal(s.commitment, JSON.parse(s.answer_json ?? 'null') as ExaminationAnswer, s.salt ?? '');
  } catch {
    return false;
  }
}

/** The cases of a plan as its entries make them (a reveal that does not open is reported apart, by checkCommitments). */
export function deriveOutcomes(index: ReplayedIndex, sample: SamplesTable): CaseOutcome[] {
  return caseOutcomesFrom(sample, sampleCodebook(sample), planRows(index, sample.id), () => undefined);
}

/** The rows of examinations.json over the given plans, and the columns (the first plan's finding codes). */
export function deriveExaminations(
  index: ReplayedIndex,
  samples: readonly { sample: SamplesTable; outcomes: readonly CaseOutcome[] }[],
): { columns: string[]; rows: Row[] } {
  let codes: string[] | null = null;
  const rows: (string | number | null)[][] = [];
  for (const { sample, outcomes } of samples) {
    const findings = sampleCodebook(sample).findings.map((f) => f.code);
    codes ??= findings;
    const submissions = planRows(index, sample.id).submissions;
    for (const c of outcomes) {
      for (const s of submissions.filter((x) => x.case_id === c.case)) {
        const answer = c.answers?.find((a) => a.examiner === s.examiner)?.answer ?? null;
        rows.push([sample.id, c.case, s.examiner, s.commitment, s.submit_seq, s.reveal_seq, ...answerCells(answer, findings)]);
      }
      if (c.final !== null) rows.push([sample.id, c.case, c.adjudicated ? '(adjudicated)' : '(unanimous)', null, null, null, ...answerCells(c.final, findings)]);
    }
  }
  const columns = [...EXAMINATION_HEADER, ...(codes ?? [])];
  return { columns, rows: rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null]))) };
}

export function examinationsCsv(columns: readonly string[], rows: readonly Row[]): string {
  return formatCsv([columns, ...rows.map((r) => columns.map((c) => r[c] as string | number | null))]);
}

/** The key of an examinations row: sample/case/examiner. */
export const examinationKey = (r: Row): string => `${String(r.sample)}/${String(r.case)}/${String(r.examiner)}`;

function answerCells(answer: ExaminationAnswer | null, codes: readonly string[]): (string | null)[] {
  if (answer === null) return [null, null, ...codes.map(() => null)];
  return [answer.sex, answer.age_band, ...codes.map((c) => answer.findings[c]?.value ?? null)];
}
