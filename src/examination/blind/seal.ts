// Sealed answers. Until every examiner of a case has submitted, an answer exists only as a
// commitment (which anyone may read) and as ciphertext (which only the archive's signer can
// open). AES-256-GCM from node:crypto; the layout is nonce (12) || ciphertext || tag (16), base64.
// The plaintext is the canonical JSON (RFC 8785) padded with spaces to the next multiple of
// SEAL_BUCKET bytes, so the ciphertext's length (public in the ledger and `log --json`) tells only
// the bucket, not the answer's length. Canonical JSON never ends in whitespace, so the padding is
// removed unambiguously; the commitment is over the unpadded answer and is not affected, and
// ciphertexts sealed before the padding open the same way.
import { aesGcmOpenPacked, aesGcmSealPacked, canonicalBytes, type JsonValue, CustodyError } from '../../core/index.js';

export type SealErrorCode = 'SEAL_KEY_MISSING' | 'SEAL_BROKEN';
export class SealError extends CustodyError<SealErrorCode> {}

const AAD = Buffer.from('custody sealed answer v1', 'utf8');
/** Sealed plaintexts are padded to a multiple of this many bytes. */
export const SEAL_BUCKET = 1024;
const SPACE = 0x20;

/** The canonical bytes followed by spaces up to the next multiple of SEAL_BUCKET (at least one bucket). */
export function padToBucket(plain: Buffer): Buffer {
  const size = Math.max(SEAL_BUCKET, Math.ceil(plain.length / SEAL_BUCKET) * SEAL_BUCKET);
  return Buffer.concat([plain, Buffer.alloc(size - plain.length, SPACE)]);
}

function unpad(padded: Buffer): Buffer {
  let end = padded.length;
  while (end > 0 && padded[end - 1] === SPACE) end--;
  return padded.subarray(0, end);
}

/** Encrypts `value` (canonical JSON) under `key`, bound to `context` (sample/case/examiner). */
export function seal(key: Buffer | null, context: string, value: JsonValue): string {
  const k = need(key);
  const aad = Buffer.concat([AAD, Buffer.from(context, 'utf8')]);
  return aesGcmSealPacked(k, aad, padToBucket(Buffer.from(canonicalBytes(value)))).toString('base64');
}

export function unseal(key: Buffer | null, context: string, sealed: string): JsonValue {
  const k = need(key);
  try {
    const plain = aesGcmOpenPacked(k, Buffer.concat([AAD, Buffer.from(context, 'utf8')]), Buffer.from(sealed, 'base64'));
    return JSON.parse(unpad(plain).toString('utf8')) as JsonValue;
  } catch (e) {
    throw new SealError('SEAL_BROKEN', `the sealed answer for ${context} cannot be opened with this archive's key`, { cause: e });
  }
}

function need(key: Buffer | null): Buffer {
  if (key === null) throw new SealError('SEAL_KEY_MISSING', 'sealing and unsealing answers needs the archive opened for writing');
  return key;
}
