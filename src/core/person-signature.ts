// Signatures of people (issue 12, "Per-person signing keys"): each examiner and adjudicator has an
// Ed25519 key (RFC 8032) of their own, made and used on their side (the CLI here, the browser with
// @noble/ed25519 later). What they sign is domain-separated: a fixed first line naming the act and
// its version, then the RFC 8785 canonical JSON of the act's fields, so that a signature over one
// kind of act can never be replayed as another:
//
//   custody key enrol v1\n   {"account", "key_id", "public_key"}
//   custody submit v1\n      {"plan", "case", "key_id", "commitment", "sealed_sha256"}
//   custody adjudicate v1\n  {"plan", "case", "key_id", "decisions_sha256", "final_sha256"}
//
// Anyone can check one with plain OpenSSL from the ledger entry's fields:
//   openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in message -sigfile signature
import { createHash, createPublicKey, verify } from 'node:crypto';
import { canonicalBytes, type JsonValue } from './canonical-json.js';

export type PersonAct = 'key enrol' | 'submit' | 'adjudicate';

/** The exact bytes a person signs for `act`. */
export function personSignedBytes(act: PersonAct, fields: { [k: string]: JsonValue }): Buffer {
  return Buffer.concat([Buffer.from(`custody ${act} v1\n`, 'utf8'), Buffer.from(canonicalBytes(fields))]);
}

/** A key's id: the first 16 hex digits of SHA-256 of the 32-byte public key. */
export function personKeyId(publicKey: Uint8Array): string {
  return createHash('sha256').update(publicKey).digest('hex').slice(0, 16);
}

/** The fingerprint printed for the signed enrolment form: SHA-256 of the public key, in groups of four. */
export function personKeyFingerprint(publicKey: Uint8Array): string {
  return (createHash('sha256').update(publicKey).digest('hex').match(/.{4}/g) ?? []).join(' ');
}

/** The SubjectPublicKeyInfo PEM of a raw Ed25519 public key (RFC 8410), for OpenSSL. */
export function ed25519PublicPem(publicKey: Uint8Array): string {
  return createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]), format: 'der', type: 'spki' })
    .export({ format: 'pem', type: 'spki' })
    .toString();
}

/** Ed25519 verification of `signature` over `message` by the raw 32-byte `publicKey`; false on anything malformed. */
export function verifyPersonSignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    const key = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]), format: 'der', type: 'spki' });
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
