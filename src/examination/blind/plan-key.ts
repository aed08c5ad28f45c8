// Each sampling plan's answer key (issue 12, "Sealing"): 32 random bytes made when the plan is
// assigned, wrapped (AES-256-GCM) by the archive's examination KEK and recorded, wrapped, in the
// assignment entry. From it, under separate HKDF-SHA256 labels:
//   - the sealing key of the plan's answers (seal.ts), never published;
//   - the case-code key: code = HMAC-SHA256(case-code key, subject or item id), shown to
//     examiners instead of the id, and published in the plan's close entry so anyone can link
//     the codes to the cases afterwards (`custody verify` recomputes every code);
//   - the case-id key (since assignment entries of version 2): each case's subject or item id is
//     sealed under it in the assignment entry (AES-256-GCM, the plan and the code as AAD), so the
//     ledger names cases by code only until the close entry publishes this key. It opens the
//     ids and nothing else: the answers' key stays unpublished.
// Neither is derivable from the archive's signing key. A plan assigned before plan keys has no
// record and keeps the old sealing (HKDF of the signing key: Archive.sealingKey).
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { aesGcmOpenPacked, aesGcmSealPacked, canonicalBytes, type JsonValue } from '../../core/index.js';
import { SealError } from './seal.js';

export const PLAN_KEY_FORMAT = 'custody-plan-key';

export interface PlanKeyRecord {
  format: typeof PLAN_KEY_FORMAT;
  version: 1;
  /** Which KEK wrapped it (examination-kek.adapter.ts). */
  kek: string;
  /** base64: nonce (12) || ciphertext (32) || tag (16). */
  wrapped: string;
}

export interface Kek {
  readonly id: string;
  readonly key: Buffer;
}

function aad(sampleId: string): Buffer {
  return Buffer.from(`custody plan key v1\n${sampleId}`, 'utf8');
}

/** A fresh plan key and its wrapped record. */
export function newPlanKey(kek: Kek, sampleId: string): { key: Buffer; record: PlanKeyRecord } {
  const key = randomBytes(32);
  return { key, record: { format: PLAN_KEY_FORMAT, version: 1, kek: kek.id, wrapped: aesGcmSealPacked(kek.key, aad(sampleId), key).toString('base64') } };
}

/** Unwraps a plan's key (the record is read from the index: untrusted, checked by the GCM tag). */
export function openPlanKey(kek: Kek | null, sampleId: string, recordJson: string): Buffer {
  if (kek === null) throw new SealError('SEAL_KEY_MISSING', 'sealing and unsealing answers needs the archive opened for writing');
  let record: Partial<PlanKeyRecord>;
  try {
    record = JSON.parse(recordJson) as Partial<PlanKeyRecord>;
  } catch (e) {
    throw new SealError('SEAL_BROKEN', `plan ${sampleId}: the recorded plan key is not JSON`, { cause: e });
  }
  if (record.format !== PLAN_KEY_FORMAT || record.version !== 1 || typeof record.wrapped !== 'string')
    throw new SealError('SEAL_BROKEN', `plan ${sampleId}: the recorded plan key is not a ${PLAN_KEY_FORMAT} record`);
  if (record.kek !== kek.id) throw new SealError('SEAL_BROKEN', `plan ${sampleId}: its key was wrapped by examination KEK ${String(record.kek)}, not by this archive's (${kek.id})`);
  const raw = Buffer.from(record.wrapped, 'base64');
  try {
    const key = aesGcmOpenPacked(kek.key, aad(sampleId), raw);
    if (key.length !== 32) throw new Error('not 32 bytes');
    return key;
  } catch (e) {
    throw new SealError('SEAL_BROKEN', `plan ${sampleId}: the plan key does not open with this archive's examination KEK`, { cause: e });
  }
}

/** The key that seals the plan's answers. */
export function planSealingKey(planKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', planKey, Buffer.alloc(0), 'custody sealed answers v2', 32));
}

/** The key of the plan's case codes (published when the plan closes). */
export function caseCodeKey(planKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', planKey, Buffer.alloc(0), 'custody case codes v1', 32));
}

/** The key that seals each case's id in the assignment entry (published when the plan closes). */
export function caseIdKey(planKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', planKey, Buffer.alloc(0), 'custody case ids v1', 32));
}

function caseIdAad(sampleId: string, code: string): Buffer {
  return Buffer.from(`custody case id v1\n${sampleId}\n${code}`, 'utf8');
}

function caseFactsAad(sampleId: string, code: string, examiner: string): Buffer {
  return Buffer.from(`custody case facts v1\n${sampleId}\n${code}\n${examiner}`, 'utf8');
}

/** AES-256-GCM under `key`: base64 of nonce (12) || ciphertext || tag (16); the bytes padded with one to 64 NULs to a multiple of 64, so the length does not tell values apart. */
function sealPadded(key: Buffer, aad: Buffer, bytes: Buffer): string {
  return aesGcmSealPacked(key, aad, Buffer.concat([bytes, Buffer.alloc(64 - (bytes.length % 64))])).toString('base64');
}

/** Opens what sealPadded sealed (from a ledger entry: untrusted); null when it does not open. */
function openPadded(key: Buffer, aad: Buffer, sealed: string): Buffer | null {
  const raw = Buffer.from(sealed, 'base64');
  if (raw.length < 12 + 16 + 1 || key.length !== 32) return null;
  try {
    const padded = aesGcmOpenPacked(key, aad, raw);
    const end = padded.indexOf(0);
    return end === -1 ? padded : padded.subarray(0, end);
  } catch {
    return null;
  }
}

/**
 * A case's subject or item id sealed under the case-id key, bound to the plan and the case's code
 * (a sealed id moved to another code does not open).
 *
 * @example sealCaseId(caseIdKey(planKey), 'S1', 'k-0123456789ab', 'subj-7')
 */
export function sealCaseId(idKey: Buffer, sampleId: string, code: string, caseId: string): string {
  return sealPadded(idKey, caseIdAad(sampleId, code), Buffer.from(caseId, 'utf8'));
}

/** Opens a sealed case id; null when it does not open (another key, plan or code, or altered). */
export function openCaseId(idKey: Buffer, sampleId: string, code: string, sealed: string): string | null {
  const id = openPadded(idKey, caseIdAad(sampleId, code), sealed)?.toString('utf8') ?? '';
  return id === '' ? null : id;
}

/**
 * What a submission records about how the case was examined that could name its subject (the
 * number of photographs, the item ids opened unblurred), sealed under the case-id key with the
 * plan, the code and the examiner as AAD: opened by anyone once the plan closes.
 */
export function sealCaseFacts(idKey: Buffer, sampleId: string, code: string, examiner: string, facts: JsonValue): string {
  return sealPadded(idKey, caseFactsAad(sampleId, code, examiner), canonicalBytes(facts));
}

export function openCaseFacts(idKey: Buffer, sampleId: string, code: string, examiner: string, sealed: string): JsonValue | null {
  const bytes = openPadded(idKey, caseFactsAad(sampleId, code, examiner), sealed);
  if (bytes === null) return null;
  try {
    return JSON.parse(bytes.toString('utf8')) as JsonValue;
  } catch {
    return null;
  }
}

/** A case's opaque code: "k-" and the first 12 hex digits of HMAC-SHA256(case-code key, id). */
export function caseCode(codeKey: Buffer, caseId: string): string {
  return `k-${createHmac('sha256', codeKey).update(caseId, 'utf8').digest('hex').slice(0, 12)}`;
}

export function planKeyRecordJson(record: PlanKeyRecord): { [k: string]: JsonValue } {
  return { ...record };
}
