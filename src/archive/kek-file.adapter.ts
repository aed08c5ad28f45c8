// A key-encryption key (KEK) in a file of the keys folder: a random key, NOT derived from the
// signing key, encrypted under a passphrase in the same `custody-signing-key` envelope as the
// signing key (scrypt, AES-256-GCM, key-envelope.ts). The envelope holds a fresh Ed25519 key; the
// KEK is HKDF-SHA256 (RFC 5869) of its 32-byte seed, salted with the archive id, under a label of
// its own per use; its id is the first 16 hex digits of SHA-256 of the envelope's public key, so
// that whatever a KEK wrapped can name it and a swapped file is recognised.
//
// Two KEKs use it: the examination KEK (under the archive's key passphrase: examination-kek.adapter.ts)
// and the report KEK (under the report custodian's passphrase: report-kek.adapter.ts).
import { createHash, hkdfSync, type KeyObject } from 'node:crypto';
import { access } from 'node:fs/promises';
import { rawPublicKey } from './key-envelope.js';
import { createSigningKey, loadSigningKey, openSigningKeyFile, replaceSigningKey } from './signing-key.adapter.js';

export interface Kek {
  /** First 16 hex digits of SHA-256 of the envelope's public key: which KEK wrapped a key. */
  readonly id: string;
  readonly key: Buffer;
}

export interface KekFile {
  path: string;
  archiveId: string;
  /** The HKDF info label of this use (one per KEK, so that one file never serves two). */
  label: string;
}

function kekFrom(privateKey: KeyObject, file: KekFile): Kek {
  const { d } = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(d ?? '', 'base64url');
  const key = Buffer.from(hkdfSync('sha256', seed, Buffer.from(file.archiveId, 'utf8'), file.label, 32));
  seed.fill(0);
  return { id: createHash('sha256').update(rawPublicKey(privateKey)).digest('hex').slice(0, 16), key };
}

export async function kekFileExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The KEK, opened with the passphrase (null: a file made without one). `create` makes it when
 * absent; otherwise an absent file gives null.
 */
export async function openKekFile(file: KekFile, passphrase: string | null, create: boolean): Promise<Kek | null> {
  if (!(await kekFileExists(file.path))) {
    if (!create) return null;
    await createSigningKey(file.path, passphrase);
  }
  return kekFrom(await loadSigningKey(file.path, passphrase), file);
}

/** Re-encrypts the KEK file under a new passphrase (false: there is none). The KEK itself is unchanged. */
export async function rewrapKekFile(path: string, passphrase: string | null, newPassphrase: string): Promise<boolean> {
  if (!(await kekFileExists(path))) return false;
  const { privateKey } = await openSigningKeyFile(path, passphrase);
  await replaceSigningKey(path, privateKey, newPassphrase);
  return true;
}
