import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  randomBytes,
  scrypt,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import { canonicalBytes } from '../core/index.js';
import { ArchiveError } from './errors.js';

/**
 * The encrypted signing-key file, format `custody-signing-key` version 1: one JSON object.
 *
 * ```json
 * {
 *   "format": "custody-signing-key", "version": 1, "algorithm": "Ed25519",
 *   "public_key": "<base64 of the 32-byte Ed25519 public key (RFC 8032 §5.1.5)>",
 *   "kdf": { "name": "scrypt", "N": 131072, "r": 8, "p": 1, "salt": "<base64, 32 random bytes>" },
 *   "cipher": { "name": "aes-256-gcm", "nonce": "<base64, 12 random bytes>" },
 *   "passphrase_check": "<base64, 32 bytes>",
 *   "ciphertext": "<base64 of the PKCS#8 DER private key, encrypted>",
 *   "tag": "<base64, 16-byte GCM tag>"
 * }
 * ```
 *
 * - scrypt (RFC 7914) turns the passphrase and salt into 32 bytes at the recorded N, r, p;
 *   HKDF-SHA256 (RFC 5869) expands them into the AES-256-GCM key and a check key, under their
 *   own labels.
 * - `passphrase_check` = HMAC-SHA256(check key, "custody signing key passphrase check v1"):
 *   it tells a wrong passphrase (KEY_PASSPHRASE_WRONG) from a file whose ciphertext was
 *   changed (KEY_FILE_TAMPERED). It gives a guesser nothing the GCM tag does not already give.
 * - The GCM additional data is the RFC 8785 canonical JSON of every member except
 *   `passphrase_check`, `ciphertext` and `tag`, so the public key, the algorithm and the
 *   parameters are authenticated together with the private key.
 * - `public_key` is readable without the passphrase (`custody key --public` compares it with the
 *   ledger); after decryption it must be the private key's own public key.
 *
 * The file is attacker-controlled input: it is parsed strictly, and the scrypt cost it asks for
 * is bounded (below), so a planted file cannot make Custody allocate gigabytes.
 */
export const KEY_FILE_FORMAT = 'custody-signing-key';
export const KEY_FILE_VERSION = 1;

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** What `init` and `key rewrap` write: 128 MiB and about 0.3 s on a laptop core. */
export const SCRYPT_DEFAULTS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });
/** The least we accept when reading: the floor (N ≥ 2^17, r = 8). */
const SCRYPT_MIN_LOG2_N = 17;
/** The most we accept: 2^20 × r 8 = 1 GiB; a larger request is refused, not attempted. */
const SCRYPT_MAX_LOG2_N = 20;
const SCRYPT_MAX_MEMORY = 1024 * 1024 * 1024;

const CHECK_LABEL = 'custody signing key passphrase check v1';
const SALT_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

interface KeyEnvelope {
  format: typeof KEY_FILE_FORMAT;
  version: typeof KEY_FILE_VERSION;
  algorithm: 'Ed25519';
  public_key: string;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  cipher: { name: 'aes-256-gcm'; nonce: string };
  passphrase_check: string;
  ciphertext: string;
  tag: string;
}

/** Encrypts an Ed25519 private key under `passphrase`; returns the file's text. */
export async function sealSigningKey(
  privateKey: KeyObject,
  passphrase: string,
  params: ScryptParams = SCRYPT_DEFAULTS,
): Promise<string> {
  checkScryptParams(params);
  const header = {
    format: KEY_FILE_FORMAT,
    version: KEY_FILE_VERSION,
    algorithm: 'Ed25519',
    public_key: rawPublicKey(privateKey).toString('base64'),
    kdf: { name: 'scrypt', N: params.N, r: params.r, p: params.p, salt: randomBytes(SALT_BYTES).toString('base64') },
    cipher: { name: 'aes-256-gcm', nonce: randomBytes(NONCE_BYTES).toString('base64') },
  } as const;
  const { encKey, check } = await deriveKeys(passphrase, header.kdf);
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  try {
    const cipher = createCipheriv('aes-256-gcm', encKey, Buffer.from(header.cipher.nonce, 'base64'), { authTagLength: TAG_BYTES });
    cipher.setAAD(canonicalBytes(header));
    const ciphertext = Buffer.concat([cipher.update(der), cipher.final()]);
    const envelope: KeyEnvelope = {
      ...header,
      kdf: { ...header.kdf },
      cipher: { ...header.cipher },
      passphrase_check: check.toString('base64'),
      ciphertext: ciphertext.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
    };
    return `${JSON.stringify(envelope, null, 2)}\n`;
  } finally {
    der.fill(0);
    encKey.fill(0);
  }
}

/** The public half of a key file, without the passphrase (not authenticated until opened). */
export function envelopePublicKey(text: string): Buffer {
  return Buffer.from(parseEnvelope(text).public_key, 'base64');
}

/** The scrypt parameters a key file records. */
export function envelopeKdf(text: string): ScryptParams {
  const { N, r, p } = parseEnvelope(text).kdf;
  return { N, r, p };
}

/** Opens a key file. Throws KEY_FILE_INVALID, KEY_PASSPHRASE_WRONG or KEY_FILE_TAMPERED. */
export async function openSigningKey(text: string, passphrase: string): Promise<KeyObject> {
  const env = parseEnvelope(text);
  const { encKey, check } = await deriveKeys(passphrase, env.kdf);
  try {
    const recorded = Buffer.from(env.passphrase_check, 'base64');
    if (recorded.length !== check.length || !timingSafeEqual(recorded, check)) {
      throw new ArchiveError('KEY_PASSPHRASE_WRONG', 'the passphrase does not open the signing key');
    }
    const { ciphertext, tag } = env;
    const header = { format: env.format, version: env.version, algorithm: env.algorithm, public_key: env.public_key, kdf: env.kdf, cipher: env.cipher };
    const decipher = createDecipheriv('aes-256-gcm', encKey, Buffer.from(env.cipher.nonce, 'base64'), { authTagLength: TAG_BYTES });
    decipher.setAAD(canonicalBytes(header));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    let der: Buffer;
    try {
      der = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]);
    } catch (cause) {
      throw tampered('its contents fail authentication (AES-256-GCM)', cause);
    }
    let key: KeyObject;
    try {
      key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    } catch (cause) {
      throw tampered('it does not hold a PKCS#8 private key', cause);
    } finally {
      der.fill(0);
    }
    if (key.asymmetricKeyType !== 'ed25519' || !rawPublicKey(key).equals(Buffer.from(env.public_key, 'base64'))) {
      throw tampered('its private key does not match its public_key');
    }
    return key;
  } finally {
    encKey.fill(0);
  }
}

function tampered(why: string, cause?: unknown): ArchiveError {
  return new ArchiveError('KEY_FILE_TAMPERED', `the signing key file was altered: the passphrase is right but ${why}`, { cause });
}

async function deriveKeys(passphrase: string, kdf: KeyEnvelope['kdf']): Promise<{ encKey: Buffer; check: Buffer }> {
  const seed = await scryptAsync(Buffer.from(passphrase, 'utf8'), Buffer.from(kdf.salt, 'base64'), kdf);
  try {
    const encKey = Buffer.from(hkdfSync('sha256', seed, Buffer.alloc(0), 'custody signing key aes-256-gcm v1', 32));
    const checkKey = Buffer.from(hkdfSync('sha256', seed, Buffer.alloc(0), 'custody signing key check v1', 32));
    const check = createHmac('sha256', checkKey).update(CHECK_LABEL).digest();
    checkKey.fill(0);
    return { encKey, check };
  } finally {
    seed.fill(0);
  }
}

/** scrypt with `maxmem` set to exactly what the (bounded) parameters need: 128·r·(N + p + 2). */
function scryptAsync(password: Buffer, salt: Buffer, { N, r, p }: ScryptParams): Promise<Buffer> {
  const maxmem = 128 * r * (N + p + 2) + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password, salt, 32, { N, r, p, maxmem }, (err, key) => (err === null ? resolve(key) : reject(err)));
  });
}

function checkScryptParams({ N, r, p }: ScryptParams): void {
  const log2 = Math.log2(N);
  const ok =
    Number.isSafeInteger(N) &&
    Number.isInteger(log2) &&
    log2 >= SCRYPT_MIN_LOG2_N &&
    log2 <= SCRYPT_MAX_LOG2_N &&
    Number.isSafeInteger(r) &&
    r >= 8 &&
    r <= 16 &&
    Number.isSafeInteger(p) &&
    p >= 1 &&
    p <= 4 &&
    128 * r * (N + p + 2) <= SCRYPT_MAX_MEMORY;
  if (!ok) {
    throw invalid(`scrypt parameters N=${String(N)} r=${String(r)} p=${String(p)} are outside what Custody accepts (N a power of two from 2^${SCRYPT_MIN_LOG2_N} to 2^${SCRYPT_MAX_LOG2_N}, r 8–16, p 1–4, at most 1 GiB)`);
  }
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Untrusted input: anyone with access to the folder can write this file. Checked member by member. */
function parseEnvelope(text: string): KeyEnvelope {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw invalid('it is not valid JSON');
  }
  const o = asObject(v, 'the file', ['format', 'version', 'algorithm', 'public_key', 'kdf', 'cipher', 'passphrase_check', 'ciphertext', 'tag']);
  if (o.format !== KEY_FILE_FORMAT || o.version !== KEY_FILE_VERSION) throw invalid(`format ${JSON.stringify(o.format)} version ${JSON.stringify(o.version)} is not ${KEY_FILE_FORMAT} version ${KEY_FILE_VERSION}`);
  if (o.algorithm !== 'Ed25519') throw invalid('algorithm must be Ed25519');
  const kdf = asObject(o.kdf, 'kdf', ['name', 'N', 'r', 'p', 'salt']);
  const cipher = asObject(o.cipher, 'cipher', ['name', 'nonce']);
  if (kdf.name !== 'scrypt') throw invalid('kdf.name must be scrypt');
  if (cipher.name !== 'aes-256-gcm') throw invalid('cipher.name must be aes-256-gcm');
  const params = { N: kdf.N, r: kdf.r, p: kdf.p };
  if (typeof params.N !== 'number' || typeof params.r !== 'number' || typeof params.p !== 'number') throw invalid('kdf.N, kdf.r and kdf.p must be numbers');
  checkScryptParams(params as ScryptParams);
  const b64 = (value: unknown, what: string, min: number, max: number): string => {
    if (typeof value !== 'string' || !B64.test(value)) throw invalid(`${what} is not base64`);
    const n = Buffer.from(value, 'base64').length;
    if (n < min || n > max) throw invalid(`${what} has ${n} bytes`);
    return value;
  };
  return {
    format: KEY_FILE_FORMAT,
    version: KEY_FILE_VERSION,
    algorithm: 'Ed25519',
    public_key: b64(o.public_key, 'public_key', 32, 32),
    kdf: { name: 'scrypt', ...(params as ScryptParams), salt: b64(kdf.salt, 'kdf.salt', 16, 64) },
    cipher: { name: 'aes-256-gcm', nonce: b64(cipher.nonce, 'cipher.nonce', NONCE_BYTES, NONCE_BYTES) },
    passphrase_check: b64(o.passphrase_check, 'passphrase_check', 32, 32),
    ciphertext: b64(o.ciphertext, 'ciphertext', 1, 1024),
    tag: b64(o.tag, 'tag', TAG_BYTES, TAG_BYTES),
  };
}

function asObject(v: unknown, what: string, keys: readonly string[]): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw invalid(`${what} is not a JSON object`);
  const have = Object.keys(v).sort().join(',');
  if (have !== [...keys].sort().join(',')) throw invalid(`${what} has members ${have}, expected ${[...keys].sort().join(',')}`);
  return v as Record<string, unknown>;
}

function invalid(why: string): ArchiveError {
  return new ArchiveError('KEY_FILE_INVALID', `the signing key file is not a valid ${KEY_FILE_FORMAT} file: ${why}`);
}

/** The 32-byte Ed25519 public key of a private or public key object. */
export function rawPublicKey(key: KeyObject): Buffer {
  const { x } = createPublicKey(key).export({ format: 'jwk' });
  return Buffer.from(x ?? '', 'base64url');
}
