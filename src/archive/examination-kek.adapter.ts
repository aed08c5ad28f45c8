// The archive's examination key-encryption key (KEK): a random key, NOT derived from the signing
// key, in keys/examination-kek.key, encrypted under the archive's key passphrase in the same
// `custody-signing-key` envelope as the signing key (scrypt, AES-256-GCM, key-envelope.ts): the
// envelope holds a fresh Ed25519 key, and the KEK is HKDF-SHA256 of its 32-byte seed. Each
// sampling plan's answer key is random and wrapped by this KEK (examination/blind/plan-key.ts),
// so whoever holds the signing key alone (a copy of checkpoint-signing.pem) cannot unseal answers,
// and the KEK opens only with the passphrase. Made on first use (the first assignment).
import { createHash, hkdfSync, type KeyObject } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { rawPublicKey } from './key-envelope.js';
import { createSigningKey, loadSigningKey, openSigningKeyFile, replaceSigningKey } from './signing-key.adapter.js';

export interface ExaminationKek {
  /** First 16 hex digits of SHA-256 of the envelope's public key: which KEK wrapped a plan key. */
  readonly id: string;
  readonly key: Buffer;
}

export function examinationKekPath(archiveDir: string): string {
  return join(archiveDir, 'keys', 'examination-kek.key');
}

function kekFrom(privateKey: KeyObject, archiveId: string): ExaminationKek {
  const { d } = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(d ?? '', 'base64url');
  const key = Buffer.from(hkdfSync('sha256', seed, Buffer.from(archiveId, 'utf8'), 'custody examination key-encryption key v1', 32));
  seed.fill(0);
  return { id: kekId(privateKey), key };
}

function kekId(privateKey: KeyObject): string {
  return createHash('sha256').update(rawPublicKey(privateKey)).digest('hex').slice(0, 16);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The KEK, opened with the passphrase (null: an archive made without one keeps its KEK
 * unencrypted too, like its signing key). `create` makes it when absent (write mode only).
 */
export async function openExaminationKek(archiveDir: string, archiveId: string, passphrase: string | null, create: boolean): Promise<ExaminationKek | null> {
  const path = examinationKekPath(archiveDir);
  if (!(await exists(path))) {
    if (!create) return null;
    await createSigningKey(path, passphrase);
  }
  return kekFrom(await loadSigningKey(path, passphrase), archiveId);
}

/** `key rewrap` with a new passphrase re-encrypts the KEK too (when there is one). */
export async function rewrapExaminationKek(archiveDir: string, passphrase: string | null, newPassphrase: string): Promise<boolean> {
  const path = examinationKekPath(archiveDir);
  if (!(await exists(path))) return false;
  const { privateKey } = await openSigningKeyFile(path, passphrase);
  await replaceSigningKey(path, privateKey, newPassphrase);
  return true;
}
