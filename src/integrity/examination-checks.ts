// What `custody verify` checks in the examination entries, beyond their shape: that each sample's
// members are what the documented draw gives from its frame and seed (PROCEDURE.md), and that
// every revealed answer and salt open the commitment made earlier by the same examiner, and that no
// case has all its answers in but unrevealed (EXAMINATION_UNREVEALED: the next open for writing
// reveals it; until then the examiners' work is stuck behind the seal). A seed fixed in a later
// step names the published checkpoint it waited for: that checkpoint must cover the frame entry,
// precede the seed entry, and (where the replay knows the root at its size) carry the ledger's root.
import { actorKey, sameActor, type JsonValue } from '../core/index.js';
import { verifyReveal } from '../examination/commitment/index.js';
import { caseCode, openCaseId, PersonSignatureChecks, revealProblem, type SignatureProblem } from '../examination/blind/index.js';
import type { ExaminationAnswer } from '../examination/codebook/index.js';
import { drawSimpleRandom, drawStratified, drawSystematic } from '../examination/sampling/index.js';
import type { LedgerEntry } from '../ledger/index.js';
import type { Finding } from './findings.js';

interface Frame {
  method: string;
  size: number;
  frame?: string[];
  strata?: { name: string; units: string[] }[];
  seed?: string;
  seq: number;
}

export class ExaminationChecks {
  private readonly frames = new Map<string, Frame>();
  private readonly commitments = new Map<string, { commitment: string; seq: number }>();
  /** sample/case → assigned examiners (comparison keys) and those who have submitted. */
  private readonly cases = new Map<string, { assigned: Set<string>; submitted: Set<string>; names: string[] }>();
  /** Complete cases not yet revealed, by sample/case: withdrawn from the findings once revealed. */
  private readonly unrevealed = new Map<string, Finding>();
  /**
   * sample → the case codes its assignment recorded (plans assigned since issue 12): beside each
   * case id (version 1), or with the id sealed (version 2: `case` is null until the close opens it).
   */
  private readonly codes = new Map<string, { case: string | null; code: string | null; sealed: string | null }[]>();
  /** sample → its drawn members (the manifest): what a close's opened case ids must be. */
  private readonly members = new Map<string, string[]>();
  /** People's signatures (examination/blind/signed-acts.ts, the same reading as verify-export's). */
  private readonly signatures = new PersonSignatureChecks((p) => this.findings.push(signatureFinding(p)));

  constructor(
    private readonly findings: Finding[],
    /** Roots at the sizes the replay was asked for (the signed checkpoints), filled as it goes. */
    private readonly roots: ReadonlyMap<number, Buffer> = new Map(),
  ) {}

  collect(entry: LedgerEntry): void {
    this.signatures.collect(entry);
    const d = entry.details as Record<string, JsonValue>;
    const action = d.action;
    // The projection has already checked these fields are strings.
    const t = (k: string): string => (typeof d[k] === 'string' ? d[k] : '');
    if (action === 'sample.frame') {
      const s = d.sample as { id: string; method: string; size: number };
      this.frames.set(s.id, { method: s.method, size: s.size, frame: d.frame as string[] | undefined, strata: d.strata as Frame['strata'], seq: entry.seq });
    } else if (action === 'sample.seed') {
      const f = this.frames.get(t('sample'));
      if (f !== undefined) f.seed = t('seed');
      if (d.checkpoint !== undefined) this.checkSeedCheckpoint(entry, d.checkpoint, f);
    } else if (action === 'sample.manifest') {
      this.checkDraw(entry, d);
      if (Array.isArray(d.members)) this.members.set(t('sample'), d.members.filter((m) => typeof m === 'string'));
    } else if (action === 'examination.assign') {
      // Version 2 names each case by its code (its id sealed), and so does every later entry of the plan.
      const sealedIds = d.version === 2;
      const cases = Array.isArray(d.cases) ? (d.cases as { case?: string; code?: string; sealed_case?: string; examiners: string[] }[]) : [];
      for (const c of cases)
        this.cases.set(`${t('sample')}/${(sealedIds ? c.code : c.case) ?? ''}`, { assigned: new Set(c.examiners.map(actorKey)), submitted: new Set(), names: [...c.examiners] });
      this.codes.set(
        t('sample'),
        cases.map((c) => ({ case: sealedIds ? null : (c.case ?? ''), code: typeof c.code === 'string' ? c.code : null, sealed: sealedIds && typeof c.sealed_case === 'string' ? c.sealed_case : null })),
      );
    } else if (action === 'examination.close') {
      if (d.case_id_key !== undefined || (this.codes.get(t('sample')) ?? []).some((c) => c.case === null)) this.checkSealedIds(entry, t('sample'), d);
      this.checkCaseCodes(entry, t('sample'), t('case_code_key'));
    } else if (action === 'examination.submit') {
      this.commitments.set(`${t('sample')}/${t('case')}/${t('examiner')}`, { commitment: t('commitment'), seq: entry.seq });
      this.noteSubmission(entry, t('sample'), t('case'), t('examiner'));
    } else if (action === 'examination.reveal') {
      const pending = this.unrevealed.get(`${t('sample')}/${t('case')}`);
      if (pending !== undefined) this.findings.splice(this.findings.indexOf(pending), 1);
      this.unrevealed.delete(`${t('sample')}/${t('case')}`);
      const before = this.findings.length;
      for (const a of d.answers as { examiner: string; answer: JsonValue; salt: string }[]) {
        const c = this.commitments.get(`${t('sample')}/${t('case')}/${a.examiner}`);
        if (c === undefined || !verifyReveal(c.commitment, a.answer as unknown as ExaminationAnswer, a.salt))
          this.findings.push({
            code: 'EXAMINATION_REVEAL_MISMATCH',
            severity: 'error',
            subject: `entry ${entry.seq}`,
            message: `entry ${entry.seq} reveals an answer by ${a.examiner} for case ${t('case')} that ${c === undefined ? 'was never committed to' : `does not open the commitment in entry ${c.seq}`}`,
          });
      }
      this.checkRevealRule(entry, t('sample'), t('case'), d.answers as { examiner: string; commitment?: string }[], this.findings.length > before);
    }
  }

  /**
   * A reveal is a system act (examination/blind/reveal-rule.ts): every assigned examiner had
   * submitted before it (else EXAMINATION_REVEAL_EARLY), and it opens exactly the case's
   * submissions with their own commitments (else EXAMINATION_REVEAL_MISMATCH, once per entry).
   */
  private checkRevealRule(entry: LedgerEntry, sample: string, caseId: string, answers: { examiner: string; commitment?: string }[], mismatchFound: boolean): void {
    const submissions = [...this.commitments.entries()]
      .filter(([k]) => k.startsWith(`${sample}/${caseId}/`))
      .map(([k, c]) => ({ examiner: k.slice(sample.length + caseId.length + 2), seq: c.seq, commitment: c.commitment }));
    const problem = revealProblem({ seq: entry.seq, answers }, this.cases.get(`${sample}/${caseId}`)?.names ?? [], submissions, sameActor);
    if (problem === null || (problem.kind === 'commitments' && mismatchFound)) return;
    this.findings.push({ code: problem.kind === 'early' ? 'EXAMINATION_REVEAL_EARLY' : 'EXAMINATION_REVEAL_MISMATCH', severity: 'error', subject: `entry ${entry.seq}`, message: `case ${caseId} of sample ${sample}: ${problem.message}` });
  }

  /**
   * A version-2 assignment's sealed ids, at the close: each must open with the published case-id
   * key (bound to its plan and code: a sealed id altered, or moved to another code, does not), the
   * ids opened must be the plan's drawn members, each once, and the links the close lists must be
   * the ones opened (EXAMINATION_CASE_ID_MISMATCH). Opened ids then stand in for the recorded
   * ids, so checkCaseCodes checks each code against its id.
   */
  private checkSealedIds(entry: LedgerEntry, sample: string, d: Record<string, JsonValue>): void {
    const cases = this.codes.get(sample) ?? [];
    const keyHex = typeof d.case_id_key === 'string' ? d.case_id_key : '';
    const key = /^[0-9a-f]{64}$/.test(keyHex) ? Buffer.from(keyHex, 'hex') : null;
    const problems: string[] = [];
    for (const c of cases) {
      if (c.case !== null) continue;
      c.case = key === null || c.code === null || c.sealed === null ? null : openCaseId(key, sample, c.code, c.sealed);
      if (c.case === null) problems.push(`the sealed id of case ${c.code ?? '?'} does not open with the published case-id key`);
    }
    const opened = cases.flatMap((c) => (c.case === null ? [] : [c.case]));
    const members = this.members.get(sample);
    if (members !== undefined && (opened.length !== members.length || [...opened].sort().join('\n') !== [...members].sort().join('\n')))
      problems.push(`the ids opened are not the plan's ${members.length} drawn members, each once`);
    const listed = Array.isArray(d.cases) ? (d.cases as { code?: unknown; case?: unknown }[]) : [];
    const byCode = new Map(cases.map((c) => [c.code, c.case]));
    const wrongLinks = listed.filter((l) => typeof l.code !== 'string' || byCode.get(l.code) !== l.case).length;
    if (wrongLinks > 0 || listed.length !== cases.length) problems.push(`${wrongLinks || 'some'} of the links it lists are not the ones the sealed ids open to`);
    if (problems.length === 0) return;
    this.findings.push({ code: 'EXAMINATION_CASE_ID_MISMATCH', severity: 'error', subject: `entry ${entry.seq}`, message: `entry ${entry.seq} closes plan ${sample}: ${problems.join('; ')}` });
  }

  /** The published key must give every recorded code: they were HMACs of the ids, not chosen. */
  private checkCaseCodes(entry: LedgerEntry, sample: string, keyHex: string): void {
    const cases = this.codes.get(sample) ?? [];
    const key = /^[0-9a-f]{64}$/.test(keyHex) ? Buffer.from(keyHex, 'hex') : null;
    // A sealed id that did not open is already a finding (checkSealedIds): its code is not checked twice.
    const wrong = key === null ? cases.length || 1 : cases.filter((c) => c.case !== null && c.code !== caseCode(key, c.case)).length;
    if (cases.length > 0 && wrong === 0) return;
    this.findings.push({
      code: 'EXAMINATION_CASE_CODE_MISMATCH',
      severity: 'error',
      subject: `entry ${entry.seq}`,
      message: `entry ${entry.seq} closes plan ${sample} with a case-code key that does not give ${cases.length === 0 ? 'any recorded case code' : `${wrong} of its ${cases.length} recorded case codes`}`,
    });
  }

  private noteSubmission(entry: LedgerEntry, sample: string, caseId: string, examiner: string): void {
    const c = this.cases.get(`${sample}/${caseId}`);
    if (c === undefined) return;
    c.submitted.add(actorKey(examiner));
    if (![...c.assigned].every((a) => c.submitted.has(a)) || this.unrevealed.has(`${sample}/${caseId}`)) return;
    const finding: Finding = {
      code: 'EXAMINATION_UNREVEALED',
      severity: 'error',
      subject: `${sample}/${caseId}`,
      message: `case ${caseId} of sample ${sample}: every assigned examiner has submitted (last in entry ${entry.seq}) but no reveal entry follows; the next command that opens the archive for writing reveals it`,
    };
    this.findings.push(finding);
    this.unrevealed.set(`${sample}/${caseId}`, finding);
  }

  private checkSeedCheckpoint(entry: LedgerEntry, named: JsonValue, f: Frame | undefined): void {
    const c = named as { size?: unknown; root?: unknown } | null;
    const size = typeof c?.size === 'number' ? c.size : -1;
    const known = this.roots.get(size);
    let problem: string | null = null;
    if (f === undefined) problem = 'a plan with no frame entry before it';
    else if (size < f.seq + 1 || size > entry.seq) problem = `checkpoint ${size}, which does not lie between the frame entry ${f.seq} and the seed`;
    else if (known !== undefined && known.toString('hex') !== c?.root) problem = `checkpoint ${size} with a root that is not the ledger's root at that size`;
    if (problem !== null)
      this.findings.push({
        code: 'SAMPLE_SEED_CHECKPOINT_INVALID',
        severity: 'error',
        subject: `entry ${entry.seq}`,
        message: `entry ${entry.seq} fixes a sample's seed after ${problem}`,
      });
  }

  private checkDraw(entry: LedgerEntry, d: Record<string, JsonValue>): void {
    const f = this.frames.get(typeof d.sample === 'string' ? d.sample : '');
    const recorded = JSON.stringify(d.members);
    let redrawn: string | null = null;
    try {
      if (f?.seed !== undefined) {
        if (f.strata !== undefined) redrawn = JSON.stringify(drawStratified(Object.fromEntries(f.strata.map((s) => [s.name, s.units])), { total: f.size }, f.seed).members);
        else if (f.frame !== undefined)
          redrawn = JSON.stringify((f.method === 'systematic' ? drawSystematic : drawSimpleRandom)(f.frame, f.size, f.seed).members);
      }
    } catch {
      redrawn = null;
    }
    if (redrawn !== recorded)
      this.findings.push({
        code: 'SAMPLE_DRAW_MISMATCH',
        severity: 'error',
        subject: `entry ${entry.seq}`,
        message: `entry ${entry.seq}: the sample's members are not what the documented draw gives from its frame and seed`,
      });
  }
}

/** A problem with a person's signature, as `custody verify` reports it (an unknown key: never enrolled). */
function signatureFinding(p: SignatureProblem): Finding {
  const code = p.kind === 'enrolment-invalid' ? 'PERSON_KEY_ENROLMENT_INVALID' : p.kind === 'signature-missing' ? 'EXAMINATION_SIGNATURE_MISSING' : 'EXAMINATION_SIGNATURE_INVALID';
  const message = p.kind === 'key-unknown' ? `entry ${p.seq}: signed by key ${p.keyId ?? ''}, which was never enrolled` : p.message;
  return { code, severity: 'error', subject: `entry ${p.seq}`, message };
}
