// Blind, independent examination of a sample's cases. The rules live here, not in the CLI, so
// every way in (the CLI and the server) obeys them:
//   - examiners see the images and the codebook, not the number, the unit or the dates;
//   - a submission is a commitment plus a sealed answer; no one reads it before the last
//     assigned examiner has submitted, when the answers and salts are revealed in one entry;
//   - only a revealed case with disagreements goes to an adjudicator, who is not one of its
//     examiners and gives a reason for each decision.
import { actorKey, canonicalBytes, personSignedBytes, sameActor, sha256, toHex, type JsonValue } from '../../core/index.js';
import type { SamplesTable } from '../../db/index.js';
import type { EntryDraft, ExaminationDetails, ExaminationRevealDetails } from '../../ledger/index.js';
import { blankForm, parseExaminationForm, type BlankForm } from '../codebook/index.js';
import { applyAdjudication, commit, verifyReveal, type AdjudicationDecision } from '../commitment/index.js';
import { ExamError } from './examination-errors.js';
import { caseOutcomes, loadSample, sampleCodebook, type CaseOutcome, type OutcomesPorts } from './outcomes.js';
import { seal, SealError, unseal } from './seal.js';
import { checkStaff } from './examiners.js';
import { caseRefs, entryCaseOf, planAnswerKey, type CaseRefs, type PlanPorts } from './plan-access.js';
import { caseCode, caseCodeKey, caseIdKey, newPlanKey, openCaseId, openPlanKey, sealCaseFacts, sealCaseId } from './plan-key.js';
import { activePersonKey, signAct, type PersonSigner } from './person-signing.js';
import { REVEAL_RULE, SYSTEM_ACTOR } from './reveal-rule.js';
import { requireRole, type ActingContext, type Commits, type ExaminationReads, type IndexReads } from '../ports.js';

// The ports each operation takes (../ports.ts): an open Archive, or the server's archive for a
// request, implements them all as it is. The context says who acts and, on the server, as what role.

/** The plan's answer key: the archive's derived sealing key, or the examination KEK that wraps the plan's. */
type AnswerKeys = Pick<PlanPorts, 'sealingKey' | 'examinationKek'>;
/** What resolving a case reference and checking its assignment read. */
type CaseReads = ExaminationReads<'findSample' | 'members' | 'assignments'> & IndexReads<'listAccounts'>;
/** What a case's photographs read: its items (a subject's links), by id. */
export type CaseImageReads = IndexReads<'subjectItems' | 'getItem'>;
/** Who may read the other examiners' answers: the accounts, the plan's assignments and submissions. */
export type AnswerReadPorts = IndexReads<'listAccounts'> & ExaminationReads<'assignments' | 'submissions'>;
/** A reveal: the case's sealed answers, opened with the plan's key, appended as one entry. */
export type RevealPorts = ExaminationReads<'submissions' | 'assignments'> & AnswerKeys & Commits;
export type AssignPorts = ExaminationReads<'findSample' | 'assignments' | 'members'> & IndexReads<'listAccounts'> & Pick<AnswerKeys, 'examinationKek'> & Commits;
export type CaseFormPorts = CaseReads & CaseImageReads;
export type PreparePorts = CaseReads & ExaminationReads<'submissions'> & IndexReads<'listPersonKeys'> & AnswerKeys;
export type CommitSubmissionPorts = ExaminationReads<'findSample' | 'members' | 'assignments' | 'submissions'> & IndexReads<'listPersonKeys'> & RevealPorts & {
  /** The crash hook of the tests' kill points (src/app.ts CrashPoint). */
  crash(point: 'examination-submitted'): void;
};
export type SubmitPorts = PreparePorts & CommitSubmissionPorts;
/** A case's outcome, and who may read it. */
export type OutcomeReads = OutcomesPorts & CaseReads & AnswerReadPorts;
export type PrepareAdjudicationPorts = OutcomesPorts & CaseReads & IndexReads<'listPersonKeys'>;
export type CommitAdjudicationPorts = OutcomesPorts & IndexReads<'listPersonKeys'> & Commits;
export type ClosePorts = OutcomesPorts & Pick<AnswerKeys, 'examinationKek'> & Commits;
/** The context of an operation that only checks the role (the actor of its entries is a named person). */
type Acting = Pick<ActingContext, 'role'>;

/**
 * Assigns every case to `perCase` of `examiners`, rotating through them in the order given. The
 * plan gets its own random answer key, wrapped by the archive's examination KEK, and each case an
 * opaque code (plan-key.ts); in an archive with accounts, examiners are examiner accounts
 * (examiners.ts: an administrator is refused).
 *
 * The entry (version 2) names no case: each carries its code, its examiners and its id sealed
 * under the plan's case-id key, and the cases are listed, and the examiners rotated, in code
 * order, not in the manifest's draw order (which would link each code to a member by position).
 * Until the close, only the examination KEK links a code to its case (the repository's opener).
 */
export async function assignExaminers(archive: AssignPorts, ctx: ActingContext, ref: string, examiners: readonly string[], perCase?: number): Promise<{ cases: number; perCase: number }> {
  requireRole(ctx, 'sample.manage');
  const sample = await loadSample(archive, ref);
  if (sample.manifest_seq === null) throw new ExamError('EXAMINATION_ASSIGN_INVALID', `plan ${sample.name} has no drawn members yet`);
  if ((await archive.examinations.assignments(sample.id)).length > 0)
    throw new ExamError('EXAMINATION_ASSIGN_INVALID', `plan ${sample.name} is already assigned`);
  // Each examiner once, compared case-folded: 'dr-a' and ' DR-A' would be one person twice.
  const accounts = await archive.index.listAccounts();
  const names = examiners.map((e) => checkStaff(accounts, e, 'examiner'));
  const k = perCase ?? names.length;
  if (new Set(names.map(actorKey)).size !== names.length) throw new ExamError('EXAMINATION_ASSIGN_INVALID', 'examiners must be named, each once');
  if (k < 2 || k > names.length)
    throw new ExamError('EXAMINATION_ASSIGN_INVALID', `each case needs two or more independent examiners, and at most the ${names.length} named (got ${k} per case)`);
  const kek = await archive.examinationKek();
  if (kek === null) throw new SealError('SEAL_KEY_MISSING', 'assigning a plan makes its sealing key: this needs the archive opened for writing');
  const planKey = newPlanKey(kek, sample.id);
  const codeKey = caseCodeKey(planKey.key);
  const idKey = caseIdKey(planKey.key);
  const coded = (await archive.examinations.members(sample.id))
    .map((m) => ({ code: caseCode(codeKey, m.member_id), member: m.member_id }))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  // 48 bits per code: a collision within one plan is astronomically unlikely, and never let pass.
  if (new Set(coded.map((c) => c.code)).size !== coded.length) throw new Error('two cases of the plan drew the same case code; assign again');
  const cases = coded.map((c, p) => ({
    code: c.code,
    sealed_case: sealCaseId(idKey, sample.id, c.code, c.member),
    examiners: Array.from({ length: k }, (_, j) => names[(p + j) % names.length] as string).sort(),
  }));
  await archive.commit([draft(ctx.actor, { action: 'examination.assign', version: 2, sample: sample.id, per_case: k, plan_key: { ...planKey.record }, cases })]);
  return { cases: cases.length, perCase: k };
}

export interface CaseForm {
  sample: string;
  case: string;
  codebook: { version: string; digest: string };
  /** What the examiner looks at: the photographs, by item id and SHA-256 only (names can carry the number). */
  images: { item: string; sha256: string; media_type: string }[];
  form: BlankForm;
}

/** The blank form for an assigned examiner, without the number, the unit or the dates. */
export async function caseForm(archive: CaseFormPorts, ctx: Acting, ref: string, caseRef: string, examiner: string): Promise<CaseForm> {
  requireRole(ctx, 'examination.submit');
  const sample = await loadSample(archive, ref);
  const refs = await caseRefs(archive, sample);
  const caseId = resolveCase(refs, sample, caseRef);
  await requireAssigned(archive, sample, caseId, examiner, caseRef);
  const images = await caseImages(archive, sample, caseId);
  const codebook = sampleCodebook(sample);
  return { sample: sample.name, case: refs.shown(caseId), codebook: { version: codebook.version, digest: sample.codebook_digest }, images, form: blankForm(codebook) };
}

/** A submission sealed and ready to sign: what the person's side signs, and what is appended. */
export interface PreparedSubmission {
  readonly sample: string;
  /** The case (subject or item id): never shown to the examiner. */
  readonly caseId: string;
  /** The case as the examiner knows it (its code). */
  readonly shown: string;
  /** The case as the plan's ledger entries name it (CaseRefs.entry: its code once ids are sealed). */
  readonly entryCase: string;
  readonly examiner: string;
  readonly answer: JsonValue;
  readonly salt: string;
  readonly commitment: string;
  readonly sealed: string;
  /** The signed fields without the key id (signAct adds the key valid at commit). */
  readonly fields: { [k: string]: JsonValue };
  /** The examiner's enrolled key now, or null (then nothing is signed). */
  readonly keyId: string | null;
  /** The exact bytes to sign with `keyId` (core/person-signature.ts, `custody submit v1`), or null. */
  readonly message: Buffer | null;
}

/**
 * Checks, seals and commits to `examiner`'s answer without appending anything: the first half of a
 * submission, so that the person's side (a browser) can sign the exact bytes before the commit.
 */
export async function prepareSubmission(archive: PreparePorts, ctx: Acting, ref: string, caseRef: string, actor: string, form: unknown): Promise<PreparedSubmission> {
  requireRole(ctx, 'examination.submit');
  const sample = await loadSample(archive, ref);
  const refs = await caseRefs(archive, sample);
  const caseId = resolveCase(refs, sample, caseRef);
  const assigned = await requireAssigned(archive, sample, caseId, actor, caseRef);
  const key = await planAnswerKey(archive, sample);
  // Recorded under the name as assigned, whatever the case or spacing the examiner typed.
  const examiner = assigned.find((a) => sameActor(a, actor)) ?? actor;
  const existing = await archive.examinations.submissions(sample.id, caseId);
  if (existing.some((s) => sameActor(s.examiner, examiner)))
    throw new ExamError('EXAMINATION_ALREADY_SUBMITTED', `${examiner} already submitted for case ${caseRef}; a sealed answer cannot be changed`);
  // Every answer already in must open with this key, or the reveal never could (a changed signing
  // key): refused here, before anything is appended.
  // Bound to the case as the entry names it (its code once ids are sealed), so the ledger alone gives the context.
  const entryCase = refs.entry(caseId);
  for (const s of existing) unseal(key, `${sample.id}/${entryCase}/${s.examiner}`, s.sealed);
  const answer = parseExaminationForm(sampleCodebook(sample), form);
  const { commitment, salt } = commit(answer);
  const sealed = seal(key, `${sample.id}/${entryCase}/${examiner}`, { answer: answer as unknown as JsonValue, salt });
  const fields = submitFields(sample, refs.code(caseId), commitment, sealed);
  const keyId = activePersonKey(await archive.index.listPersonKeys(), examiner)?.key_id ?? null;
  return {
    sample: sample.id,
    caseId,
    shown: refs.shown(caseId),
    entryCase,
    examiner,
    answer: answer as unknown as JsonValue,
    salt,
    commitment,
    sealed,
    fields,
    keyId,
    message: keyId === null ? null : personSignedBytes('submit', { ...fields, key_id: keyId }),
  };
}

/**
 * Appends a prepared submission, signed through `signer` when the examiner has an enrolled key,
 * after checking again what may have changed since it was prepared; when this was the last
 * assigned examiner of the case, reveals every answer and salt in the next entry. `record` adds
 * facts of the examination (the form's language, the photographs opened unblurred) to the entry.
 */
export async function commitSubmission(archive: CommitSubmissionPorts, ctx: Acting, p: PreparedSubmission, signer?: PersonSigner, record?: { [k: string]: JsonValue }): Promise<{ case: string; commitment: string; submitted: number; assigned: number; revealed: boolean }> {
  requireRole(ctx, 'examination.submit');
  const sample = await loadSample(archive, p.sample);
  const assigned = await requireAssigned(archive, sample, p.caseId, p.examiner, p.shown);
  const existing = await archive.examinations.submissions(sample.id, p.caseId);
  if (existing.some((s) => sameActor(s.examiner, p.examiner)))
    throw new ExamError('EXAMINATION_ALREADY_SUBMITTED', `${p.examiner} already submitted for case ${p.shown}; a sealed answer cannot be changed`);
  // Signed on the examiner's side when they have an enrolled key: plan, case code, commitment and the sealed answer's digest.
  const signature = await signAct(await archive.index.listPersonKeys(), p.examiner, 'submit', p.fields, signer);
  const examinedWith = record === undefined ? undefined : await examinedWithFacts(archive, sample, p, record);
  await archive.commit([
    draft(p.examiner, { action: 'examination.submit', sample: sample.id, case: p.entryCase, examiner: p.examiner, commitment: p.commitment, sealed: p.sealed, ...(signature === null ? {} : { signature: { ...signature } }), ...(examinedWith === undefined ? {} : { examined_with: examinedWith }) }),
  ]);
  archive.crash('examination-submitted');
  const submitted = existing.length + 1;
  const revealed = submitted === assigned.length;
  if (revealed) await revealCase(archive, ctx, sample, p.caseId);
  return { case: p.shown, commitment: p.commitment, submitted, assigned: assigned.length, revealed };
}

/**
 * What a submission records of how the case was examined. For a plan whose case ids are sealed,
 * every fact but the form's language (the number of photographs and the item ids opened
 * unblurred, which the catalogue's link entries tie to one subject) is sealed under the plan's
 * case-id key, opened by anyone once the plan closes.
 */
async function examinedWithFacts(archive: Pick<AnswerKeys, 'examinationKek'>, sample: SamplesTable, p: PreparedSubmission, record: { [k: string]: JsonValue }): Promise<{ [k: string]: JsonValue }> {
  if (p.entryCase === p.caseId || sample.plan_key_json === null) return record;
  const { language, ...facts } = record;
  const idKey = caseIdKey(openPlanKey(await archive.examinationKek(), sample.id, sample.plan_key_json));
  return { ...(language === undefined ? {} : { language }), sealed: sealCaseFacts(idKey, sample.id, p.entryCase, p.examiner, facts) };
}

/** The photographs of a case (an item, or a subject's items), in a stable order: their case-scoped ordinals. */
export async function caseImages(archive: CaseImageReads, sample: SamplesTable, caseId: string): Promise<CaseForm['images']> {
  const itemIds = sample.unit_kind === 'items' ? [caseId] : (await archive.index.subjectItems(caseId)).map((l) => l.item_id);
  const images: CaseForm['images'] = [];
  for (const id of itemIds) {
    const item = await archive.index.getItem(id);
    if (item !== undefined) images.push({ item: item.id, sha256: item.sha256, media_type: item.media_type });
  }
  return images;
}

/**
 * Records `examiner`'s answer as a commitment and a sealed copy; when this was the last assigned
 * examiner of the case, reveals every answer and salt in the next entry.
 */
export async function submitAnswer(archive: SubmitPorts, ctx: Acting, ref: string, caseRef: string, actor: string, form: unknown, signer?: PersonSigner): Promise<{ case: string; commitment: string; submitted: number; assigned: number; revealed: boolean }> {
  return commitSubmission(archive, ctx, await prepareSubmission(archive, ctx, ref, caseRef, actor, form), signer);
}

/**
 * Opens every sealed answer of the case, checks each against its commitment, and records them all
 * in one reveal entry, a system act (reveal-rule.ts). `system` is the catch-up
 * (reveal-catch-up.ts): its actor and reason.
 */
export async function revealCase(archive: RevealPorts, ctx: Acting, sample: SamplesTable, caseId: string, system?: { actor: string; reason: string }): Promise<void> {
  // The reveal follows an examiner's last submission (the system catch-up runs at the CLI, unchecked).
  if (system === undefined) requireRole(ctx, 'examination.submit');
  const key = await planAnswerKey(archive, sample);
  const entryCase = entryCaseOf(await archive.examinations.assignments(sample.id, caseId), caseId);
  const answers = (await archive.examinations.submissions(sample.id, caseId)).map((s) => {
    const opened = unseal(key, `${sample.id}/${entryCase}/${s.examiner}`, s.sealed) as { answer: JsonValue; salt: string };
    if (!verifyReveal(s.commitment, opened.answer as never, opened.salt))
      throw new ExamError('EXAMINATION_REVEAL_MISMATCH', `case ${caseId}: ${s.examiner}'s sealed answer does not match the commitment`);
    return { examiner: s.examiner, commitment: s.commitment, answer: opened.answer, salt: opened.salt };
  });
  // A system act (reveal-rule.ts): under the system actor, with the rule as its reason.
  const details: ExaminationRevealDetails = { action: 'examination.reveal', sample: sample.id, case: entryCase, answers, reason: system?.reason ?? REVEAL_RULE };
  await archive.commit([draft(system?.actor ?? SYSTEM_ACTOR, details)]);
}

/** One case's outcome; refuses (EXAMINATION_SEALED) while answers are still sealed. */
export async function revealedCase(archive: OutcomeReads, ctx: Acting, ref: string, caseRef: string, actor?: string): Promise<CaseOutcome> {
  requireRole(ctx, 'evidence.read');
  const sample = await loadSample(archive, ref);
  const refs = await caseRefs(archive, sample);
  const caseId = resolveCase(refs, sample, caseRef);
  const outcome = (await caseOutcomes(archive, sample)).find((c) => c.case === caseId);
  if (outcome === undefined) throw new ExamError('EXAMINATION_CASE_NOT_FOUND', `plan ${sample.name} has no case ${caseRef}`);
  if (outcome.answers === null) throw sealedError({ ...outcome, case: refs.shown(outcome.case) });
  if (actor !== undefined) await assertMayReadAnswers(archive, sample, actor);
  return outcome;
}

/** An adjudication checked and ready to sign (as PreparedSubmission). */
export interface PreparedAdjudication {
  readonly sample: string;
  readonly caseId: string;
  readonly shown: string;
  readonly entryCase: string;
  readonly adjudicator: string;
  readonly decisions: { field: string; value: string; reason: string }[];
  readonly final: JsonValue;
  readonly outcome: CaseOutcome;
  readonly fields: { [k: string]: JsonValue };
  readonly keyId: string | null;
  readonly message: Buffer | null;
}

/** Checks an adjudication and computes its final answer, appending nothing. */
export async function prepareAdjudication(archive: PrepareAdjudicationPorts, ctx: Acting, ref: string, caseRef: string, decisions: readonly AdjudicationDecision[], actor: string): Promise<PreparedAdjudication> {
  requireRole(ctx, 'examination.adjudicate');
  const sample = await loadSample(archive, ref);
  const accounts = await archive.index.listAccounts();
  const adjudicator = accounts.length === 0 ? actor : checkStaff(accounts, actor, 'adjudicator');
  const refs = await caseRefs(archive, sample);
  const caseId = resolveCase(refs, sample, caseRef);
  const outcome = await adjudicableOutcome(archive, sample, caseId, adjudicator, refs.shown(caseId));
  const final = applyAdjudication(sampleCodebook(sample), outcome.answers ?? [], decisions) as unknown as JsonValue;
  const recorded = decisions.map((d) => ({ field: d.field, value: d.value, reason: d.reason }));
  const fields = adjudicateFields(sample, refs.code(caseId), recorded, final);
  const keyId = activePersonKey(await archive.index.listPersonKeys(), adjudicator)?.key_id ?? null;
  return {
    sample: sample.id,
    caseId,
    shown: refs.shown(caseId),
    entryCase: refs.entry(caseId),
    adjudicator,
    decisions: recorded,
    final,
    outcome,
    fields,
    keyId,
    message: keyId === null ? null : personSignedBytes('adjudicate', { ...fields, key_id: keyId }),
  };
}

/** Appends a prepared adjudication (signed through `signer` when the adjudicator has an enrolled key), checking again first. */
export async function commitAdjudication(archive: CommitAdjudicationPorts, ctx: Acting, p: PreparedAdjudication, signer?: PersonSigner): Promise<CaseOutcome> {
  requireRole(ctx, 'examination.adjudicate');
  const sample = await loadSample(archive, p.sample);
  const outcome = await adjudicableOutcome(archive, sample, p.caseId, p.adjudicator, p.shown);
  const signature = await signAct(await archive.index.listPersonKeys(), p.adjudicator, 'adjudicate', p.fields, signer);
  await archive.commit([
    draft(p.adjudicator, { action: 'examination.adjudicate', sample: sample.id, case: p.entryCase, decisions: p.decisions, final: p.final, ...(signature === null ? {} : { signature: { ...signature } }) }),
  ]);
  return { ...outcome, final: p.final as never, adjudicated: true, status: 'final' };
}

export async function adjudicateCase(archive: PrepareAdjudicationPorts & CommitAdjudicationPorts, ctx: Acting, ref: string, caseRef: string, decisions: readonly AdjudicationDecision[], actor: string, signer?: PersonSigner): Promise<CaseOutcome> {
  requireRole(ctx, 'examination.adjudicate');
  return commitAdjudication(archive, ctx, await prepareAdjudication(archive, ctx, ref, caseRef, decisions, actor), signer);
}

/** The case's outcome when `adjudicator` may adjudicate it now; the refusal otherwise. */
async function adjudicableOutcome(archive: OutcomesPorts, sample: SamplesTable, caseId: string, adjudicator: string, shown: string): Promise<CaseOutcome> {
  const outcome = (await caseOutcomes(archive, sample)).find((c) => c.case === caseId);
  if (outcome === undefined) throw new ExamError('EXAMINATION_CASE_NOT_FOUND', `plan ${sample.name} has no case ${shown}`);
  if (outcome.answers === null)
    throw new ExamError('EXAMINATION_CASE_UNFINISHED', `case ${shown} is unfinished: ${outcome.submitted.length} of ${outcome.examiners.length} assigned examiners have submitted; adjudication comes after every answer is in and revealed`);
  if (outcome.examiners.some((e) => sameActor(e, adjudicator)))
    throw new ExamError('EXAMINATION_ADJUDICATOR_IS_EXAMINER', `${adjudicator} examined case ${shown} and cannot adjudicate it`);
  if (outcome.adjudicated) throw new ExamError('EXAMINATION_ALREADY_ADJUDICATED', `case ${shown} is already adjudicated`);
  if ((outcome.disagreements ?? []).length === 0)
    throw new ExamError('EXAMINATION_NOTHING_TO_ADJUDICATE', `the examiners of case ${shown} agree on every field`);
  return outcome;
}

export function sealedError(outcome: CaseOutcome): ExamError {
  return new ExamError(
    'EXAMINATION_SEALED',
    `case ${outcome.case}: answers stay sealed until all ${outcome.examiners.length} assigned examiners have submitted (${outcome.submitted.length} so far)`,
    { details: { case: outcome.case, submitted: outcome.submitted.length, assigned: outcome.examiners.length } },
  );
}

/** What a submission's signature covers (core/person-signature.ts, `custody submit v1`). */
export function submitFields(sample: SamplesTable, caseCodeOrId: string, commitment: string, sealed: string): { [k: string]: JsonValue } {
  return { plan: sample.id, case: caseCodeOrId, commitment, sealed_sha256: toHex(sha256(Buffer.from(sealed, 'utf8'))) };
}

/** What an adjudication's signature covers (`custody adjudicate v1`). */
export function adjudicateFields(sample: SamplesTable, caseCodeOrId: string, decisions: JsonValue, final: JsonValue): { [k: string]: JsonValue } {
  return { plan: sample.id, case: caseCodeOrId, decisions_sha256: toHex(sha256(canonicalBytes(decisions))), final_sha256: toHex(sha256(canonicalBytes(final))) };
}

function resolveCase(refs: CaseRefs, sample: SamplesTable, caseRef: string): string {
  const caseId = refs.resolve(caseRef);
  if (caseId === undefined) throw new ExamError('EXAMINATION_CASE_NOT_FOUND', `plan ${sample.name} has no case ${caseRef}`);
  return caseId;
}

async function requireAssigned(archive: ExaminationReads<'members' | 'assignments'>, sample: SamplesTable, caseId: string, examiner: string, caseRef = caseId): Promise<string[]> {
  const members = await archive.examinations.members(sample.id);
  if (!members.some((m) => m.member_id === caseId)) throw new ExamError('EXAMINATION_CASE_NOT_FOUND', `plan ${sample.name} has no case ${caseRef}`);
  const assigned = (await archive.examinations.assignments(sample.id, caseId)).map((a) => a.examiner);
  if (!assigned.some((a) => sameActor(a, examiner))) throw new ExamError('EXAMINATION_NOT_ASSIGNED', `${examiner} is not assigned to case ${caseRef} of plan ${sample.name}`);
  return assigned;
}

/**
 * When answers are revealed (issue 12): an examiner of the plan sees any other examiner's answer
 * only once all of their own cases in it are submitted, so that a colleague's thresholds, learnt
 * from an early reveal, cannot shape later answers. Agreement uses the sealed first answers anyway.
 */
export async function assertMayReadAnswers(archive: AnswerReadPorts, sample: SamplesTable, actor: string): Promise<void> {
  if ((await archive.index.listAccounts()).length === 0) return; // free-text actors: no identity to hold to it
  const mine = (await archive.examinations.assignments(sample.id)).filter((a) => sameActor(a.examiner, actor));
  if (mine.length === 0) return;
  const done = new Set((await archive.examinations.submissions(sample.id)).filter((s) => sameActor(s.examiner, actor)).map((s) => s.case_id));
  const left = mine.filter((a) => !done.has(a.case_id)).length;
  if (left > 0)
    throw new ExamError('EXAMINATION_REVEAL_WITHHELD', `${actor} has ${left} case(s) of plan ${sample.name} still to submit; the other examiners' answers are shown after the last`, {
      details: { plan: sample.name, cases_left: left },
    });
}

/**
 * Closes a plan whose every case is final: publishes its case-code key, so that anyone can link
 * each code to its subject or item (and `custody verify` recomputes every code from it). For a
 * plan assigned with sealed case ids, also the case-id key, which opens every sealed id of the
 * assignment entry (the answers' sealing key stays unpublished), and the links it opens to.
 */
export async function closePlan(archive: ClosePorts, ctx: ActingContext, ref: string): Promise<{ plan: string; cases: number; seq: number }> {
  requireRole(ctx, 'sample.manage');
  const sample = await loadSample(archive, ref);
  if (sample.closed_seq !== null) throw new ExamError('EXAMINATION_CLOSE_REFUSED', `plan ${sample.name} is already closed (entry ${sample.closed_seq})`);
  if (sample.plan_key_json === null) throw new ExamError('EXAMINATION_CLOSE_REFUSED', `plan ${sample.name} has no plan key (assigned before plan keys, or not assigned): there is no case-code key to publish`);
  const outcomes = await caseOutcomes(archive, sample);
  const open = outcomes.filter((c) => c.status !== 'final').length;
  if (open > 0) throw new ExamError('EXAMINATION_CLOSE_REFUSED', `plan ${sample.name} has ${open} case(s) not final yet`, { details: { cases_open: open } });
  const planKey = openPlanKey(await archive.examinationKek(), sample.id, sample.plan_key_json);
  const codeKey = caseCodeKey(planKey);
  const sealed = await sealedLinks(archive, sample, caseIdKey(planKey));
  const ids = sealed === null ? {} : { case_id_key: caseIdKey(planKey).toString('hex'), cases: sealed };
  const [stored] = await archive.commit([draft(ctx.actor, { action: 'examination.close', sample: sample.id, case_code_key: codeKey.toString('hex'), ...ids })]);
  return { plan: sample.name, cases: outcomes.length, seq: stored?.entry.seq ?? 0 };
}

/**
 * The links a close publishes, each opened from the assignment's sealed id (null: a plan assigned
 * before sealed ids). A sealed id that does not open to its case refuses the close: the published
 * key would not give the links, and `verify` would report the plan.
 */
async function sealedLinks(archive: OutcomesPorts, sample: SamplesTable, idKey: Buffer): Promise<{ code: string; case: string }[] | null> {
  const links = new Map<string, string>();
  for (const a of await archive.examinations.assignments(sample.id)) {
    if (a.sealed_case === null || a.code === null) return null;
    if (openCaseId(idKey, sample.id, a.code, a.sealed_case) !== a.case_id)
      throw new ExamError('EXAMINATION_CLOSE_REFUSED', `plan ${sample.name}: the sealed id of case ${a.code} does not open to its case with the plan's key`);
    links.set(a.code, a.case_id);
  }
  return [...links].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, kase]) => ({ code, case: kase }));
}

function draft(actor: string, details: ExaminationDetails): EntryDraft {
  return { actor, type: 'examination', items: [], objects: [], details };
}
