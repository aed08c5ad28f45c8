// Batches of examination work (`examine submit --forms`, `adjudicate --batch`): every line is
// checked before anything is written, and the whole batch is written as one ledger batch (one
// archive.commit). A line that repeats what is already on the ledger is skipped and counted, so a
// corrected file can be run again; a line that contradicts it is refused as a single one would be.
import { canonicalize, type JsonValue, sameActor, CustodyError } from '../../core/index.js';
import type { SamplesTable } from '../../db/index.js';
import type { EntryDraft, ExaminationDetails } from '../../ledger/index.js';
import { ExaminationError, parseExaminationForm, type ExaminationAnswer, type ExaminationErrorCode } from '../codebook/index.js';
import { applyAdjudication, commit, verifyReveal, type AdjudicationDecision } from '../commitment/index.js';
import type { ExamErrorCode } from './examination-errors.js';
import { caseOutcomes, loadSample, sampleCodebook, type OutcomesPorts } from './outcomes.js';
import { seal, unseal } from './seal.js';
import { checkStaff } from './examiners.js';
import { caseRefs, planAnswerKey, type CaseRefs, type PlanPorts } from './plan-access.js';
import { signAct, type PersonSigner } from './person-signing.js';
import { adjudicateFields, submitFields } from './examination.service.js';
import { REVEAL_RULE, SYSTEM_ACTOR } from './reveal-rule.js';
import { requireRole, type ActingContext, type Commits, type ExaminationReads, type IndexReads } from '../ports.js';

/** What a forms file's submission reads and writes (../ports.ts); an open Archive implements it as it is. */
export type SubmitBatchPorts = ExaminationReads<'findSample' | 'members' | 'assignments' | 'submissions'> &
  IndexReads<'listAccounts' | 'listPersonKeys'> &
  Pick<PlanPorts, 'sealingKey' | 'examinationKek'> &
  Commits;

/** What an adjudication batch reads and writes. */
export type AdjudicateBatchPorts = OutcomesPorts & IndexReads<'listAccounts' | 'listPersonKeys'> & Commits;

/** One problem in a batch file: where it is (file line, case, field) and what is wrong. */
export interface BatchLineError {
  readonly line: number;
  readonly case: string | null;
  readonly field: string | null;
  readonly code: string;
  readonly message: string;
}

/**
 * A refused batch. `code` is the first problem's code (FORM_INVALID, EXAMINATION_ALREADY_SUBMITTED,
 * …, or EXAMINATION_BATCH_INVALID for a malformed line); `details.errors` lists every problem.
 */
export class ExamBatchError extends CustodyError<ExamErrorCode | ExaminationErrorCode> {}

/** A line of a forms file; `problem` when the line could not even be read as {case, form}. */
export interface SubmitLine {
  readonly line: number;
  readonly case: string | null;
  readonly form: unknown;
  readonly problem?: { field: string | null; message: string };
}

export interface AdjudicateLine {
  readonly line: number;
  readonly case: string | null;
  readonly decisions: readonly AdjudicationDecision[];
  readonly problem?: { field: string | null; message: string };
}

export interface BatchResult {
  /** Cases written by this run, in file order. */
  readonly written: readonly { line: number; case: string; commitment?: string; revealed?: boolean }[];
  /** Lines identical to what was already recorded: skipped. */
  readonly skipped: readonly { line: number; case: string }[];
}

/** Submits every line of a forms file as `examiner`, or nothing. */
export async function submitAnswers(archive: SubmitBatchPorts, ctx: Pick<ActingContext, 'role'>, ref: string, actor: string, lines: readonly SubmitLine[], signer?: PersonSigner): Promise<BatchResult & { revealed: number }> {
  requireRole(ctx, 'examination.submit');
  const sample = await loadSample(archive, ref);
  const codebook = sampleCodebook(sample);
  const key = await planAnswerKey(archive, sample);
  const refs = await caseRefs(archive, sample);
  const members = new Set((await archive.examinations.members(sample.id)).map((m) => m.member_id));
  const assigned = group(await archive.examinations.assignments(sample.id));
  // The examiner as assigned ('dr-a' for ' DR-A'): actor names compare case-folded (12b).
  const examiner = [...assigned.values()].flat().find((a) => sameActor(a.examiner, actor))?.examiner ?? actor;
  const submitted = group(await archive.examinations.submissions(sample.id));
  const errors: BatchLineError[] = [];
  const accepted: { line: number; case: string; answer: ExaminationAnswer }[] = [];
  const skipped: { line: number; case: string }[] = [];
  eachCase(lines, errors, (l, caseRef, err) => {
    const caseId = refs.resolve(caseRef);
    if (caseId === undefined || !members.has(caseId)) {
      err('EXAMINATION_CASE_NOT_FOUND', 'case', `plan ${sample.name} has no case ${caseRef}`);
      return;
    }
    if (!(assigned.get(caseId) ?? []).some((a) => sameActor(a.examiner, examiner))) {
      err('EXAMINATION_NOT_ASSIGNED', 'case', `${examiner} is not assigned to case ${caseRef}`);
      return;
    }
    let answer: ExaminationAnswer;
    try {
      answer = parseExaminationForm(codebook, l.form);
    } catch (e) {
      if (!(e instanceof ExaminationError)) throw e;
      const issues = Array.isArray(e.details.errors) ? (e.details.errors as { path: string; message: string }[]) : [{ path: '(root)', message: e.message }];
      for (const i of issues) err(e.code, i.path, i.message);
      return;
    }
    const own = (submitted.get(caseId) ?? []).find((s) => sameActor(s.examiner, examiner));
    if (own === undefined) accepted.push({ line: l.line, case: caseId, answer });
    else if (sameAsCommitted(key, sample, refs, own, answer)) skipped.push({ line: l.line, case: refs.shown(caseId) });
    // Never say how they differ: the sealed answer stays sealed.
    else err('EXAMINATION_ALREADY_SUBMITTED', null, `${examiner} already submitted a different answer for case ${caseRef}; a sealed answer cannot be changed`);
  });
  refuseIfAny(errors, lines.length);
  const drafts: EntryDraft[] = [];
  const keys = await archive.index.listPersonKeys();
  const written: { line: number; case: string; commitment: string; revealed: boolean }[] = [];
  for (const a of accepted) {
    const { commitment, salt } = commit(a.answer);
    const context = `${sample.id}/${refs.entry(a.case)}/${examiner}`;
    const sealed = seal(key, context, { answer: a.answer as unknown as JsonValue, salt });
    const signature = await signAct(keys, examiner, 'submit', submitFields(sample, refs.code(a.case), commitment, sealed), signer);
    // Named in the entry as the plan's entries name it: by its code once case ids are sealed.
    drafts.push(draft(examiner, { action: 'examination.submit', sample: sample.id, case: refs.entry(a.case), examiner, commitment, sealed, ...(signature === null ? {} : { signature: { ...signature } }) }));
    const others = submitted.get(a.case) ?? [];
    const revealed = others.length + 1 === (assigned.get(a.case) ?? []).length;
    if (revealed) {
      const answers = others.map((s) => ({ examiner: s.examiner, commitment: s.commitment, ...openSealed(key, sample, refs, s) }));
      answers.push({ examiner, commitment, answer: a.answer as unknown as JsonValue, salt });
      answers.sort((x, y) => (x.examiner < y.examiner ? -1 : x.examiner > y.examiner ? 1 : 0));
      drafts.push(draft(SYSTEM_ACTOR, { action: 'examination.reveal', sample: sample.id, case: refs.entry(a.case), answers, reason: REVEAL_RULE }));
    }
    written.push({ line: a.line, case: refs.shown(a.case), commitment, revealed });
  }
  if (drafts.length > 0) await archive.commit(drafts);
  return { written, skipped, revealed: written.filter((w) => w.revealed).length };
}

/** Adjudicates every line of a batch file as `adjudicator`, or nothing. */
export async function adjudicateCases(archive: AdjudicateBatchPorts, ctx: Pick<ActingContext, 'role'>, ref: string, actor: string, lines: readonly AdjudicateLine[], signer?: PersonSigner): Promise<BatchResult> {
  requireRole(ctx, 'examination.adjudicate');
  const sample = await loadSample(archive, ref);
  const accounts = await archive.index.listAccounts();
  const adjudicator = accounts.length === 0 ? actor : checkStaff(accounts, actor, 'adjudicator');
  const refs = await caseRefs(archive, sample);
  const codebook = sampleCodebook(sample);
  const outcomes = new Map((await caseOutcomes(archive, sample)).map((c) => [c.case, c]));
  const previous = new Map((await archive.examinations.adjudications(sample.id)).map((a) => [a.case_id, a]));
  const errors: BatchLineError[] = [];
  const drafts: EntryDraft[] = [];
  const toSign: { caseId: string; decisions: JsonValue; final: JsonValue }[] = [];
  const written: { line: number; case: string }[] = [];
  const skipped: { line: number; case: string }[] = [];
  eachCase(lines, errors, (l, caseRef, err) => {
    const caseId = refs.resolve(caseRef) ?? '';
    const outcome = outcomes.get(caseId);
    // The adjudicator is told of cases as they named them (codes), never by subject id.
    const shown = refs.shown(caseId);
    if (outcome === undefined) {
      err('EXAMINATION_CASE_NOT_FOUND', 'case', `plan ${sample.name} has no case ${caseRef}`);
      return;
    }
    if (outcome.answers === null) {
      err('EXAMINATION_CASE_UNFINISHED', 'case', `case ${shown} is unfinished: ${outcome.submitted.length} of ${outcome.examiners.length} assigned examiners have submitted`);
      return;
    }
    if (outcome.examiners.some((e) => sameActor(e, adjudicator))) {
      err('EXAMINATION_ADJUDICATOR_IS_EXAMINER', 'case', `${adjudicator} examined case ${shown} and cannot adjudicate it`);
      return;
    }
    const decisions = l.decisions.map((d) => ({ field: d.field, value: d.value, reason: d.reason }));
    const before = previous.get(caseId);
    if (before !== undefined) {
      if (sameActor(before.actor, adjudicator) && before.decisions_json === canonicalOrNull(decisions)) skipped.push({ line: l.line, case: shown });
      else err('EXAMINATION_ALREADY_ADJUDICATED', null, `case ${shown} is already adjudicated, with other decisions`);
      return;
    }
    if ((outcome.disagreements ?? []).length === 0) {
      err('EXAMINATION_NOTHING_TO_ADJUDICATE', null, `the examiners of case ${shown} agree on every field`);
      return;
    }
    try {
      const final = applyAdjudication(codebook, outcome.answers, l.decisions);
      toSign.push({ caseId, decisions, final: final as unknown as JsonValue });
      written.push({ line: l.line, case: shown });
    } catch (e) {
      if (!(e instanceof ExaminationError)) throw e;
      for (const f of fieldsOf(e)) err(e.code, f.field, f.message);
    }
  });
  refuseIfAny(errors, lines.length);
  const keys = await archive.index.listPersonKeys();
  for (const t of toSign) {
    const signature = await signAct(keys, adjudicator, 'adjudicate', adjudicateFields(sample, refs.code(t.caseId), t.decisions, t.final), signer);
    drafts.push(draft(adjudicator, { action: 'examination.adjudicate', sample: sample.id, case: refs.entry(t.caseId), decisions: t.decisions, final: t.final, ...(signature === null ? {} : { signature: { ...signature } }) }));
  }
  if (drafts.length > 0) await archive.commit(drafts);
  return { written, skipped };
}

function refuseIfAny(errors: readonly BatchLineError[], total: number): void {
  const first = errors[0];
  if (first === undefined) return;
  const bad = new Set(errors.map((e) => e.line)).size;
  throw new ExamBatchError(first.code as ExamErrorCode, `${bad} of ${total} line(s) refused, ${errors.length} problem(s); nothing was written`, { details: { errors: [...errors] } });
}

/** An ExaminationError's problems by field (adjudication errors name one field, or several). */
function fieldsOf(e: ExaminationError): { field: string | null; message: string }[] {
  if (Array.isArray(e.details.errors)) return (e.details.errors as { path: string; message: string }[]).map((i) => ({ field: i.path, message: i.message }));
  if (Array.isArray(e.details.fields)) return (e.details.fields as string[]).map((f) => ({ field: f, message: e.message }));
  return [{ field: typeof e.details.field === 'string' ? e.details.field : null, message: e.message }];
}

/** Compares through the commitment, with the salt opened from our own sealed copy. */
function sameAsCommitted(key: Buffer | null, sample: SamplesTable, refs: CaseRefs, s: { examiner: string; case_id: string; commitment: string; sealed: string; salt: string | null }, answer: ExaminationAnswer): boolean {
  const salt = s.salt ?? openSealed(key, sample, refs, s).salt;
  return verifyReveal(s.commitment, answer, salt);
}

/** Sealed under the case as the entries name it (CaseRefs.entry): its code once ids are sealed. */
function openSealed(key: Buffer | null, sample: SamplesTable, refs: CaseRefs, s: { examiner: string; case_id: string; sealed: string }): { answer: JsonValue; salt: string } {
  const opened = unseal(key, `${sample.id}/${refs.entry(s.case_id)}/${s.examiner}`, s.sealed) as { answer: JsonValue; salt: string };
  return { answer: opened.answer, salt: opened.salt };
}

function canonicalOrNull(value: unknown): string | null {
  try {
    return canonicalize(value);
  } catch {
    return null;
  }
}

function group<T extends { case_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) m.set(r.case_id, [...(m.get(r.case_id) ?? []), r]);
  return m;
}

function draft(actor: string, details: ExaminationDetails): EntryDraft {
  return { actor, type: 'examination', items: [], objects: [], details };
}

type LineErrorReporter = (code: string, field: string | null, message: string) => void;

/**
 * The first checks of every batch line: a line that did not parse, or a case given twice, is an
 * error; every other line reaches `check` with its case and a reporter for its own errors.
 */
function eachCase<L extends { readonly line: number; readonly case: string | null; readonly problem?: { field: string | null; message: string } }>(
  lines: readonly L[],
  errors: BatchLineError[],
  check: (l: L, caseId: string, err: LineErrorReporter) => void,
): void {
  const seen = new Map<string, number>();
  for (const l of lines) {
    const err: LineErrorReporter = (code, field, message) => void errors.push({ line: l.line, case: l.case, field, code, message });
    if (l.problem !== undefined || l.case === null) {
      err('EXAMINATION_BATCH_INVALID', l.problem?.field ?? 'case', l.problem?.message ?? 'no case named');
      continue;
    }
    const earlier = seen.get(l.case);
    if (earlier !== undefined) {
      err('EXAMINATION_BATCH_INVALID', 'case', `case ${l.case} is also on line ${earlier}; give each case once`);
      continue;
    }
    seen.set(l.case, l.line);
    check(l, l.case, err);
  }
}
