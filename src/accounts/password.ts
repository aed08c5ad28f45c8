import { randomBytes, scrypt, scryptSync, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';

/** scrypt on libuv's thread pool: a sign-in does not stop the server's other requests. */
function scryptAsync(password: BinaryLike, salt: BinaryLike, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, options, (err, key) => (err === null ? resolve(key) : reject(err)));
  });
}

/** Parameters of new hashes. Verification reads them from the hash string. */
const N = 32768;
const R = 8;
const P = 1;
const KEYLEN = 32;
/** Bounds on parameters read back, so that a tampered hash cannot make verification exhaust memory or pass trivially. */
const LIMITS = { minN: 16384, maxN: 1 << 20, maxR: 16, maxP: 4 };

/** `scrypt$N=32768,r=8,p=1$<salt b64>$<hash b64>` (PHC-like): the parameters travel with the hash. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize('NFC'), salt, KEYLEN, { N, r: R, p: P, maxmem: 128 * N * R * 2 });
  return `scrypt$N=${N},r=${R},p=${P}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

const FORMAT = /^scrypt\$N=([0-9]+),r=([0-9]+),p=([0-9]+)\$([A-Za-z0-9+/]+=*)\$([A-Za-z0-9+/]+=*)$/;

/**
 * True when `password` matches `encoded`. A malformed hash, or parameters outside the accepted
 * bounds (weakened, or large enough to exhaust memory), is false, never an exception.
 */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const m = FORMAT.exec(encoded);
  if (m === null) return false;
  const [n, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (n < LIMITS.minN || n > LIMITS.maxN || (n & (n - 1)) !== 0) return false;
  if (r < 1 || r > LIMITS.maxR || p < 1 || p > LIMITS.maxP) return false;
  const salt = Buffer.from(m[4] ?? '', 'base64');
  const expected = Buffer.from(m[5] ?? '', 'base64');
  if (salt.length < 16 || expected.length !== KEYLEN) return false;
  const actual = await scryptAsync(password.normalize('NFC'), salt, KEYLEN, { N: n, r, p, maxmem: 128 * n * r * 2 });
  return timingSafeEqual(actual, expected);
}
