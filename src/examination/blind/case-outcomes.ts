// What each case of a sample has come to, from the index rows of the plan (pure): who was
// assigned, who submitted, the revealed answers (each checked against its commitment), and the
// final answer (unanimous, or adjudicated). `custody examine status`/`stats` feed it rows read from
// the database; `verify-export` feeds it rows replayed from a bag's ledger entries.
import type {
  ExamAdjudicationsTable,
  ExamAssignmentsTable,
  ExamSubmissionsTable,
  SampleMembersTable,
  SamplesTable,
} from '../../db/index.js';
import type { Codebook, ExaminationAnswer } from '../codebook/index.js';
import { disagreements, verifyReveal, type Disagreement, type ExaminerAnswer } from '../commitment/index.js';
import { ExamError } from './examination-errors.js';

export type CaseStatus = 'unassigned' | 'awaiting_submissions' | 'awaiting_adjudication' | 'final';

export interface CaseOutcome {
  readonly case: string;
  readonly position: number;
  readonly stratum: string | null;
  readonly examiners: readonly string[];
  readonly submitted: readonly string[];
  /** Present only once revealed. */
  readonly answers: readonly ExaminerAnswer[] | null;
  readonly disagreements: readonly Disagreement[] | null;
  readonly final: ExaminationAnswer | null;
  readonly adjudicated: boolean;
  readonly status: CaseStatus;
}

/** The plan's rows, as the examination repository returns them (members by position, the rest by case then examiner). */
export interface PlanRows {
  readonly members: readonly SampleMembersTable[];
  readonly assignments: readonly ExamAssignmentsTable[];
  readonly submissions: readonly ExamSubmissionsTable[];
  readonly adjudications: readonly ExamAdjudicationsTable[];
}

/**
 * The outcome of every member of the plan, in draw order. A revealed answer that does not open its
 * commitment throws EXAMINATION_REVEAL_MISMATCH, unless `onRevealMismatch` is given (the verifier
 * reports it and goes on with the answer as revealed).
 */
export function caseOutcomesFrom(
  sample: SamplesTable,
  codebook: Codebook,
  rows: PlanRows,
  onRevealMismatch?: (submission: ExamSubmissionsTable) => void,
): CaseOutcome[] {
  const byCase = <T extends { case_id: string }>(list: readonly T[]): Map<string, T[]> => {
    const m = new Map<string, T[]>();
    for (const r of list) m.set(r.case_id, [...(m.get(r.case_id) ?? []), r]);
    return m;
  };
  const assigned = byCase(rows.assignments);
  const submitted = byCase(rows.submissions);
  const adjudicated = new Map(rows.adjudications.map((a) => [a.case_id, a]));
  return rows.members.map((m): CaseOutcome => {
    const examiners = (assigned.get(m.member_id) ?? []).map((a) => a.examiner);
    const subs = submitted.get(m.member_id) ?? [];
    const base = { case: m.member_id, position: m.position, stratum: m.stratum, examiners, submitted: subs.map((s) => s.examiner) };
    const revealed = examiners.length > 0 && subs.length === examiners.length && subs.every((s) => s.reveal_seq !== null);
    if (!revealed)
      return { ...base, answers: null, disagreements: null, final: null, adjudicated: false, status: examiners.length === 0 ? 'unassigned' : 'awaiting_submissions' };
    const answers = subs.map((s): ExaminerAnswer => {
      const answer = JSON.parse(s.answer_json ?? 'null') as ExaminationAnswer;
      if (!verifyReveal(s.commitment, answer, s.salt ?? '')) {
        if (onRevealMismatch === undefined)
          throw new ExamError('EXAMINATION_REVEAL_MISMATCH', `plan ${sample.name}, case ${m.member_id}: ${s.examiner}'s revealed answer does not match the commitment in ledger entry ${s.submit_seq}`);
        onRevealMismatch(s);
      }
      return { examiner: s.examiner, answer };
    });
    const differ = disagreements(codebook, answers);
    const adj = adjudicated.get(m.member_id);
    const final = adj !== undefined ? (JSON.parse(adj.final_json) as ExaminationAnswer) : differ.length === 0 ? withoutNotes(answers[0]?.answer) : null;
    return { ...base, answers, disagreements: differ, final, adjudicated: adj !== undefined, status: final === null ? 'awaiting_adjudication' : 'final' };
  });
}

function withoutNotes(answer: ExaminationAnswer | undefined): ExaminationAnswer | null {
  if (answer === undefined) return null;
  const rest: ExaminationAnswer = { sex: answer.sex, age_band: answer.age_band, findings: answer.findings };
  return rest;
}
