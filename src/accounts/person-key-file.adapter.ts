// Where a person's signing key is kept: keys/people/<account>.<key id>.key in the archive, in the
// same encrypted envelope as the archive's own key (scrypt, AES-256-GCM; archive/key-envelope.ts)
// but under the person's KEY PASSWORD, which is neither the login password nor the archive's
// passphrase: whoever runs the server (or holds the archive's passphrase) holds only ciphertext
// and cannot sign as an examiner. The key is made on the person's side and never leaves it in clear.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { envelopePublicKey, openSigningKey, rawPublicKey, sealSigningKey } from '../archive/index.js';
import { AccountError } from './errors.js';
import { personKeyId, personSignedBytes, type JsonValue, type PersonAct } from '../core/index.js';

export function personKeyPath(archiveDir: string, account: string, keyId: string): string {
  return join(archiveDir, 'keys', 'people', `${account}.${keyId}.key`);
}

/** A new Ed25519 key, written encrypted under `keyPassword`; returns it for the enrolment's self-signature. */
export async function createPersonKey(archiveDir: string, account: string, keyPassword: string): Promise<{ privateKey: KeyObject; publicKey: Buffer; keyId: string; path: string }> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const publicKey = rawPublicKey(privateKey);
  const keyId = personKeyId(publicKey);
  const path = personKeyPath(archiveDir, account, keyId);
  await mkdir(join(archiveDir, 'keys', 'people'), { recursive: true, mode: 0o700 });
  const fh = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await fh.writeFile(await sealSigningKey(privateKey, keyPassword));
    await fh.sync();
  } finally {
    await fh.close();
  }
  return { privateKey, publicKey, keyId, path };
}

/**
 * Stores a key file made on the person's side (the browser: the same `custody-signing-key`
 * envelope, made with scrypt, HKDF, HMAC and AES-256-GCM there). The server never sees the key
 * password; it checks only that the text is a well-formed envelope (bounded scrypt parameters) of
 * `publicKey`. Written once (O_EXCL), like the CLI's.
 */
export async function storePersonKeyFile(archiveDir: string, account: string, keyId: string, publicKey: Uint8Array, text: string): Promise<string> {
  // Untrusted input: envelopePublicKey parses it member by member (KEY_FILE_INVALID otherwise).
  if (!envelopePublicKey(text).equals(Buffer.from(publicKey))) throw new AccountError('PERSON_KEY_INVALID', 'the encrypted key is not the key being enrolled');
  const path = personKeyPath(archiveDir, account, keyId);
  await mkdir(join(archiveDir, 'keys', 'people'), { recursive: true, mode: 0o700 });
  const fh = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  return path;
}

/** The key file's text as stored (ciphertext: useless without the key password), or undefined. */
export async function readPersonKeyFile(archiveDir: string, account: string, keyId: string): Promise<string | undefined> {
  try {
    return await readFile(personKeyPath(archiveDir, account, keyId), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Opens a person's key with their key password (KEY_PASSPHRASE_WRONG / KEY_FILE_TAMPERED otherwise). */
export async function openPersonKey(archiveDir: string, account: string, keyId: string, keyPassword: string): Promise<KeyObject> {
  return openSigningKey(await readFile(personKeyPath(archiveDir, account, keyId), 'utf8'), keyPassword);
}

/** Signs the domain-separated bytes of `act` over `fields`. */
export function signPersonAct(privateKey: KeyObject, act: PersonAct, fields: { [k: string]: JsonValue }): Buffer {
  return sign(null, personSignedBytes(act, fields), privateKey);
}

/** Signs exactly `message` (the service built it). */
export function signBytes(privateKey: KeyObject, message: Buffer): Buffer {
  return sign(null, message, privateKey);
}
