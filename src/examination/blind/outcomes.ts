// What each case of a sample has come to, read from the index: who was assigned, who submitted,
// the revealed answers (each checked against its commitment), and the final answer (unanimous,
// or adjudicated). Blindness holds here: unrevealed answers are never read, only counted.
import type { Archive } from '../../app.js';
import type { SamplesTable } from '../../db/schema.js';
import { codebookDigest, defineCodebook, type Codebook, type ExaminationAnswer } from '../codebook/index.js';
import { disagreements, verifyReveal, type Disagreement, type ExaminerAnswer } from '../commitment/index.js';
import { PlanError } from '../sampling/plan.service.js';
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

export async function loadSample(archive: Archive, ref: string): Promise<SamplesTable> {
  const s = await archive.examinations.findSample(ref);
  if (s === undefined) throw new PlanError('SAMPLE_NOT_FOUND', `no sampling plan ${ref} (see \`custody sample list\`)`);
  return s;
}

/** The codebook recorded with the plan, checked against the digest recorded beside it. */
export function sampleCodebook(sample: SamplesTable): Codebook {
  const codebook = defineCodebook(JSON.parse(sample.codebook_json));
  if (codebookDigest(codebook) !== sample.codebook_digest)
    throw new ExamError('EXAMINATION_CODEBOOK_MISMATCH', `plan ${sample.name}: the recorded codebook does not match its digest`);
  return codebook;
}

export async function caseOutcomes(archive: Archive, sample: SamplesTable): Promise<CaseOutcome[]> {
  const codebook = sampleCodebook(sample);
  const members = await archive.examinations.members(sample.id);
  const byCase = <T extends { case_id: string }>(rows: T[]): Map<string, T[]> => {
    const m = new Map<string, T[]>();
    for (const r of rows) m.set(r.case_id, [...(m.get(r.case_id) ?? []), r]);
    return m;
  };
  const assigned = byCase(await archive.examinations.assignments(sample.id));
  const submitted = byCase(await archive.examinations.submissions(sample.id));
  const adjudicated = new Map((await archive.examinations.adjudications(sample.id)).map((a) => [a.case_id, a]));
  return members.map((m): CaseOutcome => {
    const examiners = (assigned.get(m.member_id) ?? []).map((a) => a.examiner);
    const subs = submitted.get(m.member_id) ?? [];
    const base = { case: m.member_id, position: m.position, stratum: m.stratum, examiners, submitted: subs.map((s) => s.examiner) };
    const revealed = examiners.length > 0 && subs.length === examiners.length && subs.every((s) => s.reveal_seq !== null);
    if (!revealed)
      return { ...base, answers: null, disagreements: null, final: null, adjudicated: false, status: examiners.length === 0 ? 'unassigned' : 'awaiting_submissions' };
    const answers = subs.map((s): ExaminerAnswer => {
      const answer = JSON.parse(s.answer_json ?? 'null') as ExaminationAnswer;
      if (!verifyReveal(s.commitment, answer, s.salt ?? ''))
        throw new ExamError('EXAMINATION_REVEAL_MISMATCH', `plan ${sample.name}, case ${m.member_id}: ${s.examiner}'s revealed answer does not match the commitment in ledger entry ${s.submit_seq}`);
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
