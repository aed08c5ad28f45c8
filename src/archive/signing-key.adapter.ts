import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { envelopeKdf, envelopePublicKey, openSigningKey, rawPublicKey, sealSigningKey, type ScryptParams } from './key-envelope.js';
import { ArchiveError } from './errors.js';
import { hint } from '../core/index.js';

const { O_NOFOLLOW, O_NONBLOCK, O_RDONLY } = constants;

/**
 * The archive's Ed25519 checkpoint-signing key, in `keys/checkpoint-signing.pem` (the name is
 * kept so existing archives keep working), mode 0600 in a 0700 folder, in one of three forms:
 *
 * - `custody-v1`: the current encrypted form, a `custody-signing-key` JSON file (scrypt,
 *   AES-256-GCM; documented in key-envelope.ts and the README, "The signing key");
 * - `pkcs8-encrypted`: the form earlier versions wrote, PKCS#8 PBES2 with PBKDF2 at Node's
 *   default 2,048 iterations. Still opened, with a warning: `custody key rewrap` migrates it;
 * - `pkcs8-plain`: an unencrypted PKCS#8 PEM, when `init` was given no passphrase.
 */
export type SigningKeyFormat = 'custody-v1' | 'pkcs8-encrypted' | 'pkcs8-plain';

/** A key file is small; anything larger is not one (and is not read whole). */
const MAX_KEY_FILE_BYTES = 64 * 1024;

export async function createSigningKey(path: string, passphrase: string | null): Promise<KeyObject> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const text = passphrase === null ? privateKey.export({ format: 'pem', type: 'pkcs8' }) : await sealSigningKey(privateKey, passphrase);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeDurably(path, text, 'wx');
  return createPublicKey(privateKey);
}

export interface LoadedSigningKey {
  privateKey: KeyObject;
  format: SigningKeyFormat;
}

/**
 * Opens the signing key for writing. `warn` hears about a key in the old format (and is told to
 * run `custody key rewrap`). A passphrase given for a key file that is not encrypted is refused
 * (KEY_NOT_ENCRYPTED): whoever gives one expects an encrypted key, so a plain one was swapped in.
 */
export async function loadSigningKey(path: string, passphrase: string | null, warn?: (message: string) => void): Promise<KeyObject> {
  const { privateKey, format } = await openSigningKeyFile(path, passphrase);
  if (format === 'pkcs8-encrypted') {
    warn?.('the signing key is encrypted in the old format (PKCS#8, PBKDF2 at 2,048 iterations), which is cheap to guess offline: run `custody key rewrap` to re-encrypt it with scrypt');
  }
  return privateKey;
}

export async function openSigningKeyFile(path: string, passphrase: string | null): Promise<LoadedSigningKey> {
  const text = await readKeyFile(path);
  const format = signingKeyFormatOf(text);
  if (format === 'pkcs8-plain') {
    if (passphrase !== null) {
      throw new ArchiveError(
        'KEY_NOT_ENCRYPTED',
        `a passphrase was given but the signing key ${path} is not encrypted: it was replaced or decrypted by someone`,
        { details: hint({ remedy: ['rewrap-key'] }) },
      );
    }
    return { privateKey: parsePkcs8(text, path, null), format };
  }
  if (passphrase === null) {
    throw new ArchiveError(
      'KEY_PASSPHRASE_REQUIRED',
      'the signing key is encrypted',
      { details: hint({ remedy: ['give-passphrase'] }) },
    );
  }
  if (format === 'custody-v1') return { privateKey: await openSigningKey(text, passphrase), format };
  return { privateKey: parsePkcs8(text, path, passphrase), format };
}

/**
 * The public half of the key file without its passphrase, when the format allows it (the
 * current format records it; a plain key holds it; the old encrypted format hides it: null).
 * For a current-format file it is not authenticated until the file is opened.
 */
export async function signingKeyFilePublicKey(path: string): Promise<{ format: SigningKeyFormat; publicKey: Buffer | null }> {
  const text = await readKeyFile(path);
  const format = signingKeyFormatOf(text);
  if (format === 'custody-v1') return { format, publicKey: envelopePublicKey(text) };
  if (format === 'pkcs8-plain') return { format, publicKey: rawPublicKey(parsePkcs8(text, path, null)) };
  return { format, publicKey: null };
}

export async function signingKeyFileKdf(path: string): Promise<ScryptParams | null> {
  const text = await readKeyFile(path);
  return signingKeyFormatOf(text) === 'custody-v1' ? envelopeKdf(text) : null;
}

/**
 * Replaces the key file with `privateKey` sealed under `passphrase`, atomically: a temporary
 * file in the same folder (0600, written, fsynced), opened again to prove it holds the same key,
 * renamed over the old file, then the folder fsynced. A crash leaves the old file or the new one,
 * never neither; a temporary file left by a crash is removed by the next rewrap.
 */
export async function replaceSigningKey(path: string, privateKey: KeyObject, passphrase: string): Promise<void> {
  const dir = dirname(path);
  const tmpPrefix = `.${basename(path)}.rewrap-`;
  for (const name of await readdir(dir)) {
    if (name.startsWith(tmpPrefix)) await unlink(join(dir, name)).catch(() => undefined);
  }
  const text = await sealSigningKey(privateKey, passphrase);
  const tmp = join(dir, `${tmpPrefix}${randomBytes(6).toString('hex')}`);
  try {
    await writeDurably(tmp, text, 'wx');
    const again = await openSigningKey(await readKeyFile(tmp), passphrase);
    if (!rawPublicKey(again).equals(rawPublicKey(privateKey))) throw new Error('the re-encrypted key file does not open to the same key');
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  const d = await open(dir, 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}

export function signingKeyFormatOf(text: string): SigningKeyFormat {
  const head = text.trimStart();
  if (head.startsWith('{')) return 'custody-v1';
  if (head.startsWith('-----BEGIN ENCRYPTED PRIVATE KEY-----')) return 'pkcs8-encrypted';
  if (head.startsWith('-----BEGIN PRIVATE KEY-----')) return 'pkcs8-plain';
  throw new ArchiveError('KEY_FILE_INVALID', 'the signing key file is in no format Custody knows (custody-signing-key JSON, or PKCS#8 PEM)');
}

function parsePkcs8(pem: string, path: string, passphrase: string | null): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(passphrase === null ? pem : { key: pem, format: 'pem', passphrase });
  } catch (e) {
    if (passphrase !== null) {
      // PBES2 with AES-CBC cannot tell a wrong passphrase from an altered file.
      throw new ArchiveError('KEY_PASSPHRASE_WRONG', 'the passphrase does not open the signing key (or the key file was altered)', { cause: e });
    }
    throw new ArchiveError('KEY_FILE_INVALID', `the signing key ${path} is not a valid PKCS#8 key`, { cause: e });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ArchiveError('KEY_FILE_INVALID', `the signing key ${path} is not an Ed25519 key`);
  return key;
}

/** Reads the key file without following a link, refusing anything but a small regular file. */
async function readKeyFile(path: string): Promise<string> {
  let fh;
  try {
    fh = await open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    throw new ArchiveError('KEY_UNREADABLE', `cannot read the signing key ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > MAX_KEY_FILE_BYTES) {
      throw new ArchiveError('KEY_FILE_INVALID', `the signing key ${path} is not a small regular file`);
    }
    const buf = Buffer.alloc(MAX_KEY_FILE_BYTES + 1);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    if (bytesRead > MAX_KEY_FILE_BYTES) throw new ArchiveError('KEY_FILE_INVALID', `the signing key ${path} is too large`);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

async function writeDurably(path: string, text: string | Buffer, flag: 'wx'): Promise<void> {
  const fh = await open(path, flag, 0o600);
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await chmod(path, 0o600); // whatever the umask did
}
