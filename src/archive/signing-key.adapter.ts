import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ArchiveError } from './errors.js';

/**
 * The archive's Ed25519 checkpoint-signing key, as PKCS#8 PEM: encrypted (PBES2, AES-256-CBC,
 * by OpenSSL through node:crypto) when a passphrase is given, and mode 0600 in any case.
 */
export async function createSigningKey(path: string, passphrase: string | null): Promise<KeyObject> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem =
    passphrase === null
      ? privateKey.export({ format: 'pem', type: 'pkcs8' })
      : privateKey.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase });
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, pem, { flag: 'wx', mode: 0o600 });
  await chmod(path, 0o600);
  return createPublicKey(privateKey);
}

export async function loadSigningKey(path: string, passphrase: string | null): Promise<KeyObject> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (e) {
    throw new ArchiveError('KEY_UNREADABLE', `cannot read the signing key ${path}: ${String(e)}`, { cause: e });
  }
  const encrypted = pem.includes('ENCRYPTED PRIVATE KEY');
  if (encrypted && passphrase === null) {
    throw new ArchiveError(
      'KEY_PASSPHRASE_REQUIRED',
      'the signing key is encrypted: give its passphrase in CUSTODY_KEY_PASSPHRASE or with --key-passphrase-file',
    );
  }
  try {
    return createPrivateKey(encrypted ? { key: pem, format: 'pem', passphrase: passphrase ?? '' } : pem);
  } catch (e) {
    if (encrypted) {
      throw new ArchiveError('KEY_PASSPHRASE_WRONG', 'the passphrase does not open the signing key', { cause: e });
    }
    throw new ArchiveError('KEY_UNREADABLE', `the signing key ${path} is not a valid PKCS#8 key`, { cause: e });
  }
}
