// People's signatures in the ledger (issue 12, "Per-person signing keys"), read one way for both
// verifiers: `custody verify` over the archive (integrity/examination-checks.ts) and
// `custody verify-export` over a bag's ledger lines (verify/export/check-signatures.ts). Pure: it
// takes the entries in seq order and says, for each signed act, whether the signature holds with
// the key that was the person's valid key at the entry's seq.
//
//   account.key.enrol    self-signed over `custody key enrol v1` {account, key_id, public_key};
//                        valid for the entries after it; `replaces` ends the key it rotates out
//   account.key.revoke   ends the key at its seq
//   examination.submit   the examiner's, over `custody submit v1` {plan, case code, key_id,
//                        commitment, sealed_sha256}
//   examination.adjudicate  the entry's actor's, over `custody adjudicate v1` {plan, case code,
//                        key_id, decisions_sha256, final_sha256}
//
// A key is valid at seq s when its enrolment precedes s and no revocation or replacement comes at
// or before s (RFC 8032 Ed25519 does the rest: core/person-signature.ts).
import {
  actorKey,
  canonicalBytes,
  personKeyId,
  personSignedBytes,
  sha256,
  toHex,
  verifyPersonSignature,
  type JsonValue,
  type PersonAct,
} from '../../core/index.js';
import type { LedgerEntry } from '../../ledger/index.js';

/**
 * - `enrolment-invalid`: an enrolment whose self-signature does not verify or whose key id is not its key's;
 * - `signature-invalid`: the signature does not verify, or its key is someone else's or was not valid at the seq;
 * - `signature-missing`: unsigned, by a person who had a valid enrolled key at the seq;
 * - `key-unknown`: signed by a key whose enrolment the entries read do not contain (in an archive:
 *   never enrolled; in a partial or redacted bag: perhaps only left out, so not checkable).
 */
export type SignatureProblemKind = 'enrolment-invalid' | 'signature-invalid' | 'signature-missing' | 'key-unknown';

export interface SignatureProblem {
  kind: SignatureProblemKind;
  seq: number;
  act: PersonAct;
  /** The account the act is by (the enrolled account for an enrolment). */
  person: string;
  keyId: string | null;
  /** One line for a person, naming the entry. */
  message: string;
}

interface Key {
  account: string;
  publicKey: Buffer;
  /** Enrolment seq: valid for the entries after it. */
  from: number;
  /** Revocation or replacement seq: valid for the entries before it. */
  to: number | null;
}

const WHAT: Record<PersonAct, string> = { 'key enrol': 'a key enrolment', submit: 'a submission', adjudicate: 'an adjudication' };

/**
 * Collects entries in seq order; `report` is called once per problem, as it is found.
 *
 * @example
 *   const checks = new PersonSignatureChecks((p) => problems.push(p));
 *   for (const e of entries) checks.collect(e);
 *   checks.verified // signatures that held
 */
export class PersonSignatureChecks {
  /** Signatures that verified with a key valid at their seq (self-signed enrolments included). */
  verified = 0;
  private readonly keys = new Map<string, Key>();
  /** sample → case id → its case code (plans assigned since issue 12; older plans sign the id). */
  private readonly codes = new Map<string, Map<string, string>>();

  constructor(private readonly report: (p: SignatureProblem) => void) {}

  collect(entry: LedgerEntry): void {
    const d = entry.details as Record<string, JsonValue>;
    const t = (k: string): string => (typeof d[k] === 'string' ? d[k] : '');
    switch (t('action')) {
      case 'account.key.enrol':
        return this.enrol(entry, d);
      case 'account.key.revoke': {
        const k = this.keys.get(t('key_id'));
        if (k !== undefined && k.to === null) k.to = entry.seq;
        return;
      }
      case 'examination.assign': {
        const cases = Array.isArray(d.cases) ? (d.cases as { case?: unknown; code?: unknown }[]) : [];
        const codes = new Map<string, string>();
        for (const c of cases) if (typeof c?.case === 'string' && typeof c.code === 'string') codes.set(c.case, c.code);
        this.codes.set(t('sample'), codes);
        return;
      }
      case 'examination.submit': {
        const fields = { plan: t('sample'), case: this.codeOf(t('sample'), t('case')), commitment: t('commitment'), sealed_sha256: toHex(sha256(Buffer.from(t('sealed'), 'utf8'))) };
        return this.check(entry, t('examiner'), 'submit', fields, d.signature);
      }
      case 'examination.adjudicate': {
        const fields = {
          plan: t('sample'),
          case: this.codeOf(t('sample'), t('case')),
          decisions_sha256: toHex(sha256(canonicalBytes(d.decisions ?? null))),
          final_sha256: toHex(sha256(canonicalBytes(d.final ?? null))),
        };
        return this.check(entry, entry.actor, 'adjudicate', fields, d.signature);
      }
      default:
        return;
    }
  }

  /** The key an id names, if its enrolment was read (for callers that explain a `key-unknown`). */
  knows(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  private codeOf(sample: string, caseId: string): string {
    return this.codes.get(sample)?.get(caseId) ?? caseId;
  }

  /** A self-signed enrolment (`custody key enrol v1`); a rotation ends the key it replaces. */
  private enrol(entry: LedgerEntry, d: Record<string, JsonValue>): void {
    const s = (k: string): string => (typeof d[k] === 'string' ? d[k] : '');
    const publicKey = Buffer.from(s('public_key'), 'base64');
    const fields = { account: s('account'), key_id: s('key_id'), public_key: s('public_key') };
    const ok = personKeyId(publicKey) === fields.key_id && verifyPersonSignature(publicKey, personSignedBytes('key enrol', fields), Buffer.from(s('signature'), 'base64'));
    if (!ok) {
      this.report({
        kind: 'enrolment-invalid',
        seq: entry.seq,
        act: 'key enrol',
        person: fields.account,
        keyId: fields.key_id,
        message: `entry ${entry.seq} enrols key ${fields.key_id} for ${fields.account} without a valid self-signature by that key`,
      });
      return; // never a valid key for what follows
    }
    this.verified++;
    const replaced = typeof d.replaces === 'string' ? this.keys.get(d.replaces) : undefined;
    if (replaced !== undefined && replaced.to === null) replaced.to = entry.seq;
    this.keys.set(fields.key_id, { account: fields.account, publicKey, from: entry.seq, to: null });
  }

  /** A signed act: by the person's key valid at its seq, over `custody <act> v1` and its fields. */
  private check(entry: LedgerEntry, person: string, act: PersonAct, fields: { [k: string]: JsonValue }, signature: JsonValue | undefined): void {
    const validAt = (k: Key): boolean => k.from < entry.seq && (k.to === null || entry.seq < k.to);
    const problem = (kind: SignatureProblemKind, keyId: string | null, why: string): void =>
      this.report({ kind, seq: entry.seq, act, person, keyId, message: `entry ${entry.seq}, ${WHAT[act]} by ${person}: ${why}` });
    const sig = typeof signature === 'object' && signature !== null && !Array.isArray(signature) ? signature : null;
    if (sig === null) {
      const had = [...this.keys.entries()].find(([, k]) => actorKey(k.account) === actorKey(person) && validAt(k));
      if (had !== undefined) problem('signature-missing', had[0], `${person} had an enrolled signing key (${had[0]}) but it is not signed`);
      return;
    }
    const keyId = typeof sig.key_id === 'string' ? sig.key_id : '';
    const key = this.keys.get(keyId);
    if (key === undefined) return problem('key-unknown', keyId, `it is signed by key ${keyId}, whose enrolment is not in the ledger read`);
    if (actorKey(key.account) !== actorKey(person)) return problem('signature-invalid', keyId, `key ${keyId} is ${key.account}'s, not ${person}'s`);
    if (!validAt(key)) return problem('signature-invalid', keyId, `key ${keyId} was not valid at entry ${entry.seq} (enrolled at ${key.from}${key.to === null ? '' : `, ended at ${key.to}`})`);
    const value = Buffer.from(typeof sig.value === 'string' ? sig.value : '', 'base64');
    if (!verifyPersonSignature(key.publicKey, personSignedBytes(act, { ...fields, key_id: keyId }), value)) return problem('signature-invalid', keyId, 'the signature does not verify');
    this.verified++;
  }
}
