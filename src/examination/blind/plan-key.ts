// Each sampling plan's answer key (issue 12, "Sealing"): 32 random bytes made when the plan is
// assigned, wrapped (AES-256-GCM) by the archive's examination KEK and recorded, wrapped, in the
// assignment entry. From it, under separate HKDF-SHA256 labels:
//   - the sealing key of the plan's answers (seal.ts), never published;
//   - the case-code key: code = HMAC-SHA256(case-code key, subject or item id), shown to
//     examiners instead of the id, and published in the plan's close entry so anyone can link
//     the codes to the cases afterwards (`custody verify` recomputes every code).
// Neither is derivable from the archive's signing key. A plan assigned before plan keys has no
// record and keeps the old sealing (HKDF of the signing key: Archive.sealingKey).
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { JsonValue } from '../../core/index.js';
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
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek.key, nonce);
  cipher.setAAD(aad(sampleId));
  const body = Buffer.concat([cipher.update(key), cipher.final()]);
  return { key, record: { format: PLAN_KEY_FORMAT, version: 1, kek: kek.id, wrapped: Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64') } };
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
    const decipher = createDecipheriv('aes-256-gcm', kek.key, raw.subarray(0, 12));
    decipher.setAAD(aad(sampleId));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const key = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
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

/** A case's opaque code: "k-" and the first 12 hex digits of HMAC-SHA256(case-code key, id). */
export function caseCode(codeKey: Buffer, caseId: string): string {
  return `k-${createHmac('sha256', codeKey).update(caseId, 'utf8').digest('hex').slice(0, 12)}`;
}

export function planKeyRecordJson(record: PlanKeyRecord): { [k: string]: JsonValue } {
  return { ...record };
}
