// The person's side of per-person signing keys (issue 12), for the browser: standard primitives
// only (@noble/ed25519, @noble/hashes, WebCrypto's AES-GCM), no node:crypto, so that the web UI
// imports this file as it is (and the server tests run it as a browser would).
//
// The key is made here and stored on the server only as the CLI's own key file, the
// `custody-signing-key` envelope of src/archive/key-envelope.ts, under the person's KEY PASSWORD
// (never the login password, which the server sees at every sign-in):
//   seed      = scrypt(key password, salt, N=2^17, r=8, p=1, 32)             RFC 7914
//   enc key   = HKDF-SHA256(seed, "", "custody signing key aes-256-gcm v1", 32) RFC 5869
//   check key = HKDF-SHA256(seed, "", "custody signing key check v1", 32)
//   passphrase_check = HMAC-SHA256(check key, "custody signing key passphrase check v1")
//   ciphertext||tag  = AES-256-GCM(enc key, nonce, PKCS#8 DER of the Ed25519 key,
//                                  AAD = RFC 8785 JSON of the envelope without check, ciphertext, tag)
// so `custody examine submit --key-password-file` opens a key made in the browser, and the reverse.
//
// What a person signs is built by the server but checked here before signing: the domain line and
// the canonical JSON of the fields (core/person-signature.ts), and for a submission the
// commitment, recomputed from the answer and salt the server returns.
import * as ed from '@noble/ed25519';
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';

ed.hashes.sha512 = sha512;

export type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/** The key file's members (src/archive/key-envelope.ts, format `custody-signing-key` version 1). */
export interface KeyEnvelope {
  format: 'custody-signing-key';
  version: 1;
  algorithm: 'Ed25519';
  public_key: string;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  cipher: { name: 'aes-256-gcm'; nonce: string };
  passphrase_check: string;
  ciphertext: string;
  tag: string;
}

/** The CLI's parameters; the server refuses fewer (N below 2^17 or r below 8). */
export const KEY_SCRYPT = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });
const PKCS8_ED25519_PREFIX = hex('302e020100300506032b657004220420');
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

export function base64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

export function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function hex(text: string): Uint8Array {
  return Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));
}

function toHex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A copy on its own ArrayBuffer (what WebCrypto's types ask for). */
function bytes(b: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(b);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** RFC 8785 canonical JSON of integers, strings, booleans, null, arrays and objects (no floats, as core/canonical-json.ts). */
export function canonicalJson(v: Json): string {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error('canonical JSON here takes integers only');
    return String(v);
  }
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k] as Json)}`)
    .join(',')}}`;
}

/** The bytes a person signs for an act (core/person-signature.ts personSignedBytes). */
export function personSignedBytes(act: 'key enrol' | 'submit' | 'adjudicate', fields: { [k: string]: Json }): Uint8Array {
  return utf8(`custody ${act} v1\n${canonicalJson(fields)}`);
}

/** A key's id: the first 16 hex digits of SHA-256 of the public key. */
export function personKeyId(publicKey: Uint8Array): string {
  return toHex(sha256(publicKey)).slice(0, 16);
}

/** The fingerprint to confirm on the signed enrolment form: SHA-256 of the public key, in groups of four. */
export function personKeyFingerprint(publicKey: Uint8Array): string {
  return (toHex(sha256(publicKey)).match(/.{4}/g) ?? []).join(' ');
}

/** A submission's commitment: SHA-256(canonical JSON of the answer || the 32 salt bytes), hex (examination/commitment). */
export function commitmentOf(answer: Json, saltHex: string): string {
  return toHex(sha256(concat(utf8(canonicalJson(answer)), hex(saltHex))));
}

async function deriveKeys(keyPassword: string, kdf: KeyEnvelope['kdf']): Promise<{ encKey: Uint8Array; check: Uint8Array }> {
  const seed = await scryptAsync(utf8(keyPassword), fromBase64(kdf.salt), { N: kdf.N, r: kdf.r, p: kdf.p, dkLen: 32 });
  const encKey = hkdf(sha256, seed, new Uint8Array(0), utf8('custody signing key aes-256-gcm v1'), 32);
  const checkKey = hkdf(sha256, seed, new Uint8Array(0), utf8('custody signing key check v1'), 32);
  seed.fill(0);
  const check = hmac(sha256, checkKey, utf8('custody signing key passphrase check v1'));
  checkKey.fill(0);
  return { encKey, check };
}

function headerOf(e: Pick<KeyEnvelope, 'format' | 'version' | 'algorithm' | 'public_key' | 'kdf' | 'cipher'>): Uint8Array {
  const { format, version, algorithm, public_key, kdf, cipher } = e;
  return utf8(canonicalJson({ format, version, algorithm, public_key, kdf: { ...kdf }, cipher: { ...cipher } }));
}

function aesKey(encKey: Uint8Array, use: 'encrypt' | 'decrypt') {
  return crypto.subtle.importKey('raw', bytes(encKey), 'AES-GCM', false, [use]);
}

/** A new Ed25519 key, made here, and its key file encrypted under `keyPassword`. */
export async function makePersonKey(
  keyPassword: string,
  params: { N: number; r: number; p: number } = KEY_SCRYPT,
): Promise<{ secretKey: Uint8Array; publicKey: Uint8Array; keyId: string; envelope: KeyEnvelope }> {
  const secretKey = ed.utils.randomSecretKey();
  const publicKey = await ed.getPublicKeyAsync(secretKey);
  const header = {
    format: 'custody-signing-key' as const,
    version: 1 as const,
    algorithm: 'Ed25519' as const,
    public_key: base64(publicKey),
    kdf: { name: 'scrypt' as const, ...params, salt: base64(crypto.getRandomValues(new Uint8Array(32))) },
    cipher: { name: 'aes-256-gcm' as const, nonce: base64(crypto.getRandomValues(new Uint8Array(12))) },
  };
  const { encKey, check } = await deriveKeys(keyPassword, header.kdf);
  const der = concat(PKCS8_ED25519_PREFIX, secretKey);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: bytes(fromBase64(header.cipher.nonce)), additionalData: bytes(headerOf(header)), tagLength: 128 },
      await aesKey(encKey, 'encrypt'),
      bytes(der),
    ),
  );
  der.fill(0);
  encKey.fill(0);
  const envelope: KeyEnvelope = {
    ...header,
    passphrase_check: base64(check),
    ciphertext: base64(sealed.subarray(0, sealed.length - 16)),
    tag: base64(sealed.subarray(sealed.length - 16)),
  };
  return { secretKey, publicKey, keyId: personKeyId(publicKey), envelope };
}

/** Opens a key file with the key password: the 32-byte Ed25519 secret key. Throws on a wrong password or an altered file. */
export async function openPersonKey(envelope: KeyEnvelope, keyPassword: string): Promise<Uint8Array> {
  const { encKey, check } = await deriveKeys(keyPassword, envelope.kdf);
  if (base64(check) !== envelope.passphrase_check) throw new Error('the key password does not open this key');
  let der: Uint8Array;
  try {
    der = new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: bytes(fromBase64(envelope.cipher.nonce)), additionalData: bytes(headerOf(envelope)), tagLength: 128 },
        await aesKey(encKey, 'decrypt'),
        bytes(concat(fromBase64(envelope.ciphertext), fromBase64(envelope.tag))),
      ),
    );
  } catch {
    throw new Error('the key file was altered: it fails authentication (AES-256-GCM)');
  } finally {
    encKey.fill(0);
  }
  if (der.length !== 48 || toHex(der.subarray(0, 16)) !== toHex(PKCS8_ED25519_PREFIX)) throw new Error('the key file does not hold an Ed25519 key');
  const secretKey = der.slice(16);
  der.fill(0);
  if (base64(await ed.getPublicKeyAsync(secretKey)) !== envelope.public_key) throw new Error('the key file was altered: its key is not its public_key');
  return secretKey;
}

/** The enrolment's self-signature: over `custody key enrol v1` {account, key_id, public_key}. */
export async function signEnrolment(secretKey: Uint8Array, account: string): Promise<{ public_key: string; signature: string }> {
  const publicKey = await ed.getPublicKeyAsync(secretKey);
  const fields = { account, key_id: personKeyId(publicKey), public_key: base64(publicKey) };
  return { public_key: fields.public_key, signature: base64(await ed.signAsync(personSignedBytes('key enrol', fields), secretKey)) };
}

/**
 * Signs what the server prepared, after checking it: the bytes are the act's domain line and the
 * canonical JSON of the fields shown, and (a submission) the commitment opens with the answer and
 * salt returned, so the person signs exactly the answer they gave.
 */
export async function signPrepared(
  secretKey: Uint8Array,
  prepared: { act: 'submit' | 'adjudicate'; fields: { [k: string]: Json }; message: string; opening?: { answer: Json; salt: string } },
): Promise<{ key_id: string; value: string }> {
  const expected = base64(personSignedBytes(prepared.act, prepared.fields));
  if (expected !== prepared.message) throw new Error('the bytes to sign are not the fields shown');
  const keyId = personKeyId(await ed.getPublicKeyAsync(secretKey));
  if (prepared.fields.key_id !== keyId) throw new Error(`the server asks for key ${JSON.stringify(prepared.fields.key_id)}, not this key (${keyId})`);
  if (prepared.act === 'submit') {
    const o = prepared.opening;
    if (o === undefined || commitmentOf(o.answer, o.salt) !== prepared.fields.commitment) throw new Error('the commitment is not of the answer given');
  }
  return { key_id: keyId, value: base64(await ed.signAsync(fromBase64(prepared.message), secretKey)) };
}
