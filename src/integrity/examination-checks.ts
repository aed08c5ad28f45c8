// What `custody verify` checks in the examination entries, beyond their shape: that each sample's
// members are what the documented draw gives from its frame and seed (PROCEDURE.md), and that
// every revealed answer and salt open the commitment made earlier by the same examiner, and that no
// case has all its answers in but unrevealed (EXAMINATION_UNREVEALED: the next open for writing
// reveals it; until then the examiners' work is stuck behind the seal). A seed fixed in a later
// step names the published checkpoint it waited for: that checkpoint must cover the frame entry,
// precede the seed entry, and (where the replay knows the root at its size) carry the ledger's root.
import { actorKey, canonicalBytes, personKeyId, personSignedBytes, sha256, toHex, verifyPersonSignature, type JsonValue, type PersonAct } from '../core/index.js';
import { verifyReveal } from '../examination/commitment/index.js';
import { caseCode } from '../examination/blind/index.js';
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
  private readonly cases = new Map<string, { assigned: Set<string>; submitted: Set<string> }>();
  /** Complete cases not yet revealed, by sample/case: withdrawn from the findings once revealed. */
  private readonly unrevealed = new Map<string, Finding>();
  /** sample → the case codes its assignment recorded (plans assigned since issue 12). */
  private readonly codes = new Map<string, { case: string; code: string | null }[]>();
  /** People's signing keys by key id: whose, the public key, valid from (after) `from` until `to`. */
  private readonly keys = new Map<string, { account: string; publicKey: Buffer; from: number; to: number | null }>();

  constructor(
    private readonly findings: Finding[],
    /** Roots at the sizes the replay was asked for (the signed checkpoints), filled as it goes. */
    private readonly roots: ReadonlyMap<number, Buffer> = new Map(),
  ) {}

  collect(entry: LedgerEntry): void {
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
    } else if (action === 'examination.assign') {
      const cases = Array.isArray(d.cases) ? (d.cases as { case: string; code?: string; examiners: string[] }[]) : [];
      for (const c of cases) this.cases.set(`${t('sample')}/${c.case}`, { assigned: new Set(c.examiners.map(actorKey)), submitted: new Set() });
      this.codes.set(t('sample'), cases.map((c) => ({ case: c.case, code: typeof c.code === 'string' ? c.code : null })));
    } else if (action === 'examination.close') {
      this.checkCaseCodes(entry, t('sample'), t('case_code_key'));
    } else if (action === 'account.key.enrol') {
      this.enrolKey(entry, d);
    } else if (action === 'account.key.revoke') {
      const k = this.keys.get(t('key_id'));
      if (k !== undefined && k.to === null) k.to = entry.seq;
    } else if (action === 'examination.adjudicate') {
      const fields = { plan: t('sample'), case: this.codeOf(t('sample'), t('case')), decisions_sha256: toHex(sha256(canonicalBytes(d.decisions ?? null))), final_sha256: toHex(sha256(canonicalBytes(d.final ?? null))) };
      this.checkActSignature(entry, entry.actor, 'adjudicate', fields, d.signature);
    } else if (action === 'examination.submit') {
      const fields = { plan: t('sample'), case: this.codeOf(t('sample'), t('case')), commitment: t('commitment'), sealed_sha256: toHex(sha256(Buffer.from(t('sealed'), 'utf8'))) };
      this.checkActSignature(entry, t('examiner'), 'submit', fields, d.signature);
      this.commitments.set(`${t('sample')}/${t('case')}/${t('examiner')}`, { commitment: t('commitment'), seq: entry.seq });
      this.noteSubmission(entry, t('sample'), t('case'), t('examiner'));
    } else if (action === 'examination.reveal') {
      const pending = this.unrevealed.get(`${t('sample')}/${t('case')}`);
      if (pending !== undefined) this.findings.splice(this.findings.indexOf(pending), 1);
      this.unrevealed.delete(`${t('sample')}/${t('case')}`);
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
    }
  }

  /** A self-signed enrolment (`custody key enrol v1`); a rotation ends the key it replaces. */
  private enrolKey(entry: LedgerEntry, d: Record<string, JsonValue>): void {
    const s = (k: string): string => (typeof d[k] === 'string' ? d[k] : '');
    const publicKey = Buffer.from(s('public_key'), 'base64');
    const fields = { account: s('account'), key_id: s('key_id'), public_key: s('public_key') };
    const ok = personKeyId(publicKey) === fields.key_id && verifyPersonSignature(publicKey, personSignedBytes('key enrol', fields), Buffer.from(s('signature'), 'base64'));
    if (!ok) {
      this.findings.push({ code: 'PERSON_KEY_ENROLMENT_INVALID', severity: 'error', subject: `entry ${entry.seq}`, message: `entry ${entry.seq} enrols key ${fields.key_id} for ${fields.account} without a valid self-signature by that key` });
      return; // never a valid key for what follows
    }
    const replaced = typeof d.replaces === 'string' ? this.keys.get(d.replaces) : undefined;
    if (replaced !== undefined && replaced.to === null) replaced.to = entry.seq;
    this.keys.set(fields.key_id, { account: fields.account, publicKey, from: entry.seq, to: null });
  }

  private codeOf(sample: string, caseId: string): string {
    return this.codes.get(sample)?.find((c) => c.case === caseId)?.code ?? caseId;
  }

  /** A signed act: by the person's key valid at its seq, over `custody <act> v1` and its fields. */
  private checkActSignature(entry: LedgerEntry, person: string, act: PersonAct, fields: { [k: string]: JsonValue }, signature: JsonValue | undefined): void {
    const validAt = (k: { from: number; to: number | null }): boolean => k.from < entry.seq && (k.to === null || entry.seq < k.to);
    const what = act === 'submit' ? 'a submission' : 'an adjudication';
    const sig = (signature ?? null) as { key_id?: unknown; value?: unknown } | null;
    if (sig === null || typeof sig !== 'object') {
      const had = [...this.keys.values()].some((k) => actorKey(k.account) === actorKey(person) && validAt(k));
      if (had)
        this.findings.push({ code: 'EXAMINATION_SIGNATURE_MISSING', severity: 'error', subject: `entry ${entry.seq}`, message: `entry ${entry.seq}: ${person} had an enrolled signing key but ${what} is not signed` });
      return;
    }
    const keyId = typeof sig.key_id === 'string' ? sig.key_id : '';
    const key = this.keys.get(keyId);
    const problem =
      key === undefined
        ? `key ${keyId} was never enrolled`
        : actorKey(key.account) !== actorKey(person)
          ? `key ${keyId} is ${key.account}'s, not ${person}'s`
          : !validAt(key)
            ? `key ${keyId} was not valid at entry ${entry.seq} (enrolled at ${key.from}${key.to === null ? '' : `, ended at ${key.to}`})`
            : !verifyPersonSignature(key.publicKey, personSignedBytes(act, { ...fields, key_id: keyId }), Buffer.from(typeof sig.value === 'string' ? sig.value : '', 'base64'))
              ? 'the signature does not verify'
              : null;
    if (problem !== null)
      this.findings.push({ code: 'EXAMINATION_SIGNATURE_INVALID', severity: 'error', subject: `entry ${entry.seq}`, message: `entry ${entry.seq}, ${what} by ${person}: ${problem}` });
  }

  /** The published key must give every recorded code: they were HMACs of the ids, not chosen. */
  private checkCaseCodes(entry: LedgerEntry, sample: string, keyHex: string): void {
    const cases = this.codes.get(sample) ?? [];
    const key = /^[0-9a-f]{64}$/.test(keyHex) ? Buffer.from(keyHex, 'hex') : null;
    const wrong = key === null ? cases.length || 1 : cases.filter((c) => c.code !== caseCode(key, c.case)).length;
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
