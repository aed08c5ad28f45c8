// Crypto-shredding of missing-person reports. node:crypto only: no primitive is written here.
//
// - Each report is sealed (AES-256-GCM, NIST SP 800-38D) under its own random 256-bit data key.
//   The additional data binds the ciphertext to its report id and reporting organisation, so a
//   ciphertext moved to another report does not open.
// - The ledger holds the sealed report and its digest (SHA-256 of the canonical JSON of the sealed
//   object); nothing else about the family.
// - The data key is wrapped (AES-256-GCM again) under the key-encryption key (KEK), with the report
//   id and the digest as additional data: a key file opens only for the ciphertext it was made for,
//   so a planted or swapped key file is refused, not used.
// - The wrapped key is a file of its own, keys/reports/<id>.key, outside the ledger and the index
//   (report-keys.adapter.ts says why). Destroying it erases the report: the ciphertext that stays
//   in the ledger (and in every export and backup of it) can no longer be opened by anyone.
//
// The KEK (version 2 key files): a random key of its own, keys/report-kek.key, encrypted under the
// report passphrase (CUSTODY_REPORT_PASSPHRASE), which the custodians of family data hold and the
// archive's writers need not (archive/report-kek.adapter.ts, report-kek.service.ts). Each key file names
// the KEK that wrapped it (its id, bound as additional data), so a key file wrapped under another
// KEK, or a swapped KEK file, is refused by name rather than failing obscurely.
//
// Version 1 key files (before s23) were wrapped under HKDF-SHA256 (RFC 5869) of the archive's
// sealing key, i.e. under whatever opens the signing key: any writer could unwrap every report.
// They still open (with both keys), and are rewrapped as version 2 when the report KEK is made.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { canonicalBytes, canonicalize, sha256, toHex } from '../../core/index.js';
import type { Kek } from '../../archive/index.js';
import { IdentificationError } from '../errors.js';

export interface SealedReport {
  alg: 'AES-256-GCM';
  nonce: string;
  ciphertext: string;
  tag: string;
}

export const REPORT_KEY_FORMAT = 'custody-report-key';
const NONCE = 12;
const TAG = 16;

/**
 * The keys that open report key files: the report KEK, and (write mode) the version 1 wrapping
 * key derived from the archive's sealing key, only for key files not yet rewrapped.
 */
export interface ReportKeys {
  kek: Kek;
  legacy: Buffer | null;
}

/** The version 1 wrapping key of the archive's report keys, from its sealing key (old key files only). */
export function legacyReportKek(sealingKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', sealingKey, Buffer.alloc(0), 'custody missing-person report key wrap v1', 32));
}

export function newDataKey(): Buffer {
  return randomBytes(32);
}

/**
 * The additional data of a sealed object. The report's content has none of `purpose`; a note
 * sealed later under the same data key (a reviewer's reason, a viewing's attendees) names its
 * purpose (its ledger action and what it is about), so that no sealed object opens in the place
 * of another: a reason moved onto the report, or onto another subject's decision, fails.
 */
function contentAad(reportId: string, org: string, purpose?: readonly string[]): Buffer {
  return canonicalBytes(purpose === undefined ? ['custody-missing-report', 1, reportId, org] : ['custody-missing-report', 1, reportId, org, ...purpose]);
}

/** The digest the ledger records: SHA-256 (hex) of the sealed object's canonical JSON. */
export function sealedDigest(sealed: SealedReport): string {
  return toHex(sha256(canonicalBytes(sealed)));
}

/**
 * Seals under a report's data key: the report's content, or (with `purpose`) a note about the
 * report that must be erased with it. One scheme: the same key, the same AES-256-GCM.
 */
export function sealReport(dataKey: Buffer, reportId: string, org: string, plaintext: Buffer, purpose?: readonly string[]): { sealed: SealedReport; digest: string } {
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', dataKey, nonce, { authTagLength: TAG });
  cipher.setAAD(contentAad(reportId, org, purpose));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const sealed: SealedReport = { alg: 'AES-256-GCM', nonce: nonce.toString('base64'), ciphertext: ciphertext.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
  return { sealed, digest: sealedDigest(sealed) };
}

export function openReport(dataKey: Buffer, reportId: string, org: string, sealed: SealedReport, purpose?: readonly string[]): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', dataKey, Buffer.from(sealed.nonce, 'base64'), { authTagLength: TAG });
    decipher.setAAD(contentAad(reportId, org, purpose));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
  } catch (cause) {
    throw new IdentificationError('MISSING_REPORT_KEY_INVALID', `report ${reportId} does not open with its key: the sealed report or its key was altered`, { cause });
  }
}

interface KeyFileHeaderV1 {
  format: typeof REPORT_KEY_FORMAT;
  version: 1;
  report: string;
  digest: string;
  nonce: string;
}
interface KeyFileHeaderV2 {
  format: typeof REPORT_KEY_FORMAT;
  version: 2;
  /** The id of the report KEK that wrapped it. */
  kek: string;
  report: string;
  digest: string;
  nonce: string;
}

function gcmWrap(key: Buffer, header: KeyFileHeaderV1 | KeyFileHeaderV2, dataKey: Buffer): string {
  const cipher = createCipheriv('aes-256-gcm', key, Buffer.from(header.nonce, 'base64'), { authTagLength: TAG });
  cipher.setAAD(canonicalBytes(header));
  const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return `${canonicalize({ ...header, wrapped: wrapped.toString('base64'), tag: cipher.getAuthTag().toString('base64') })}\n`;
}

/** The text of a report's key file (version 2): its data key wrapped under the report KEK, bound to the KEK, report and digest. */
export function wrapDataKey(kek: Kek, reportId: string, digest: string, dataKey: Buffer): string {
  return gcmWrap(kek.key, { format: REPORT_KEY_FORMAT, version: 2, kek: kek.id, report: reportId, digest, nonce: randomBytes(NONCE).toString('base64') }, dataKey);
}

/** A version 1 key file, wrapped under the key derived from the sealing key (how archives before s23 wrote them; tests build old archives with it). */
export function wrapDataKeyV1(legacy: Buffer, reportId: string, digest: string, dataKey: Buffer): string {
  return gcmWrap(legacy, { format: REPORT_KEY_FORMAT, version: 1, report: reportId, digest, nonce: randomBytes(NONCE).toString('base64') }, dataKey);
}

/** The version and (version 2) KEK id of a key file, without opening it; null when it is not one. */
export function keyFileVersion(text: string): { version: 1 } | { version: 2; kek: string } | null {
  try {
    const o = JSON.parse(text) as { format?: unknown; version?: unknown; kek?: unknown };
    if (o.format !== REPORT_KEY_FORMAT) return null;
    if (o.version === 1) return { version: 1 };
    if (o.version === 2 && typeof o.kek === 'string') return { version: 2, kek: o.kek };
    return null;
  } catch {
    return null;
  }
}

const V1_MEMBERS = 'digest,format,nonce,report,tag,version,wrapped';
const V2_MEMBERS = 'digest,format,kek,nonce,report,tag,version,wrapped';

/**
 * Opens a key file for this report and digest. The file is untrusted (anyone with the folder can
 * write it): parsed strictly, and refused (MISSING_REPORT_KEY_INVALID) unless it authenticates
 * under the report KEK (version 2, naming this KEK) or the old derived key (version 1, write mode)
 * for exactly this report and ciphertext.
 */
export function unwrapDataKey(keys: ReportKeys, reportId: string, digest: string, text: string): Buffer {
  const invalid = (why: string, cause?: unknown): IdentificationError =>
    new IdentificationError('MISSING_REPORT_KEY_INVALID', `the key file of report ${reportId} is not valid: ${why}`, { cause });
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw invalid('it is not JSON', e);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw invalid('it is not a JSON object');
  const o = v as Record<string, unknown>;
  const members = Object.keys(o).sort().join(',');
  if (o.format !== REPORT_KEY_FORMAT || (o.version !== 1 && o.version !== 2)) throw invalid(`not a ${REPORT_KEY_FORMAT} version 1 or 2 file`);
  if (members !== (o.version === 1 ? V1_MEMBERS : V2_MEMBERS)) throw invalid('unexpected members');
  if (o.report !== reportId || o.digest !== digest) throw invalid('it was made for another report or another ciphertext');
  const b64 = (x: unknown, n: number): Buffer => {
    const b = typeof x === 'string' ? Buffer.from(x, 'base64') : Buffer.alloc(0);
    if (b.length !== n || b.toString('base64') !== x) throw invalid('a member is not base64 of the expected length');
    return b;
  };
  const nonce = b64(o.nonce, NONCE);
  const wrapped = b64(o.wrapped, 32);
  const tag = b64(o.tag, TAG);
  let key: Buffer;
  let header: KeyFileHeaderV1 | KeyFileHeaderV2;
  if (o.version === 2) {
    if (o.kek !== keys.kek.id) throw invalid(`it was wrapped under report KEK ${String(o.kek)}, not this archive's (${keys.kek.id}): the KEK file or the key file was swapped`);
    key = keys.kek.key;
    header = { format: REPORT_KEY_FORMAT, version: 2, kek: keys.kek.id, report: reportId, digest, nonce: o.nonce as string };
  } else {
    if (keys.legacy === null) throw invalid('it is in the old format (version 1), which opens only in write mode');
    key = keys.legacy;
    header = { format: REPORT_KEY_FORMAT, version: 1, report: reportId, digest, nonce: o.nonce as string };
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG });
    decipher.setAAD(canonicalBytes(header));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(wrapped), decipher.final()]);
  } catch (e) {
    throw invalid('it fails authentication under the report key (altered, or from another archive)', e);
  }
}

/** Parses a sealed object from the index (untrusted: its digest is checked against the key file's). */
export function parseSealed(json: string): SealedReport {
  const o = JSON.parse(json) as Partial<SealedReport>;
  if (o.alg !== 'AES-256-GCM' || typeof o.nonce !== 'string' || typeof o.ciphertext !== 'string' || typeof o.tag !== 'string')
    throw new IdentificationError('MISSING_REPORT_KEY_INVALID', 'the sealed report is malformed');
  return { alg: o.alg, nonce: o.nonce, ciphertext: o.ciphertext, tag: o.tag };
}
