import {
  randomBytes,
  scrypt,
  timingSafeEqual,
  type BinaryLike,
  type ScryptOptions,
} from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify, type Algorithm } from '@node-rs/argon2';

// Account passwords are hashed with Argon2id (RFC 9106), the first choice of OWASP's password
// storage guidance, at RFC 9106's second recommended option (§4): 64 MiB of memory, 3 passes,
// 4 lanes. Earlier releases used scrypt at N = 2^15, r = 8, p = 1, a quarter of the work OWASP
// asks of scrypt (N = 2^17); those hashes still verify, and are replaced by an Argon2id hash at
// the account's next sign-in (needsRehash). The hash runs on the library's own threads, so a
// sign-in or `user add` does not stop the server's other requests.

/** Parameters of new hashes (RFC 9106 §4, second recommended option). Verification reads them from the hash string. */
const ARGON2 = { memoryCost: 65536, timeCost: 3, parallelism: 4, outputLen: 32 } as const;
const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (a const enum: not readable under isolatedModules)
/**
 * Bounds on Argon2id parameters read back, so that a hash edited in the index can make
 * verification neither exhaust memory nor pass cheaply: at least OWASP's minimum (19 MiB, and
 * 19 MiB × 2 passes of work in all), at most 256 MiB a lane and 8 lanes.
 */
const ARGON2_LIMITS = { minM: 19456, minWork: 19456 * 2, maxM: 262144, maxT: 10, maxP: 8 };
const ARGON2_FORMAT =
  /^\$argon2id\$v=19\$m=([0-9]{1,7}),t=([0-9]{1,3}),p=([0-9]{1,2})\$([A-Za-z0-9+/]{22,})\$([A-Za-z0-9+/]{43})$/;

/**
 * A hash of a password no one knows, at the parameters of new hashes: the server checks a sign-in
 * for an unknown name against it, so that an unknown name costs the same time as a wrong password.
 */
export const DECOY_HASH = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}$${'A'.repeat(22)}$${'A'.repeat(43)}`;

/** The Argon2id parameters of a hash string within the accepted bounds, else null. */
export function argon2Parameters(encoded: string): { m: number; t: number; p: number } | null {
  const match = ARGON2_FORMAT.exec(encoded);
  if (match === null) return null;
  const [m, t, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (m < ARGON2_LIMITS.minM || m > ARGON2_LIMITS.maxM || m * t < ARGON2_LIMITS.minWork)
    return null;
  if (t < 1 || t > ARGON2_LIMITS.maxT || p < 1 || p > ARGON2_LIMITS.maxP) return null;
  return { m, t, p };
}

/** `$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>` (PHC string format): the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  return argon2Hash(password.normalize('NFC'), {
    ...ARGON2,
    algorithm: ARGON2ID,
    salt: randomBytes(16),
  });
}

/**
 * True when `password` matches `encoded` (Argon2id, or a scrypt hash of an earlier release). A
 * malformed hash, or parameters outside the accepted bounds (weakened, or large enough to exhaust
 * memory), is false, never an exception.
 */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  if (encoded.startsWith('scrypt$')) return verifyScrypt(password, encoded);
  if (argon2Parameters(encoded) === null) return false;
  try {
    return await argon2Verify(encoded, password.normalize('NFC'));
  } catch {
    return false;
  }
}

/** True when a hash that verified should be replaced by one at today's parameters. */
export function needsRehash(encoded: string): boolean {
  const a = argon2Parameters(encoded);
  return a === null || a.m < ARGON2.memoryCost || a.t < ARGON2.timeCost || a.p < ARGON2.parallelism;
}

// ---- scrypt hashes of earlier releases: verified, never written ----

/** scrypt on libuv's thread pool: a sign-in does not stop the server's other requests. */
function scryptAsync(
  password: BinaryLike,
  salt: BinaryLike,
  keylen: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, options, (err, key) =>
      err === null ? resolve(key) : reject(err),
    );
  });
}

const SCRYPT_KEYLEN = 32;
/** The parameters those releases wrote were N = 32768, r = 8, p = 1; nothing weaker is accepted. */
const SCRYPT_LIMITS = { minN: 32768, maxN: 1 << 20, maxR: 16, maxP: 4 };
const SCRYPT_FORMAT =
  /^scrypt\$N=([0-9]+),r=([0-9]+),p=([0-9]+)\$([A-Za-z0-9+/]+=*)\$([A-Za-z0-9+/]+=*)$/;

async function verifyScrypt(password: string, encoded: string): Promise<boolean> {
  const m = SCRYPT_FORMAT.exec(encoded);
  if (m === null) return false;
  const [n, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (n < SCRYPT_LIMITS.minN || n > SCRYPT_LIMITS.maxN || (n & (n - 1)) !== 0) return false;
  if (r < 8 || r > SCRYPT_LIMITS.maxR || p < 1 || p > SCRYPT_LIMITS.maxP) return false;
  const salt = Buffer.from(m[4] ?? '', 'base64');
  const expected = Buffer.from(m[5] ?? '', 'base64');
  if (salt.length < 16 || expected.length !== SCRYPT_KEYLEN) return false;
  const actual = await scryptAsync(password.normalize('NFC'), salt, SCRYPT_KEYLEN, {
    N: n,
    r,
    p,
    maxmem: 128 * n * r * 2,
  });
  return timingSafeEqual(actual, expected);
}
