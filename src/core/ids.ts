import { randomBytes } from 'node:crypto';

/** Crockford base32, as the ULID specification uses. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type Clock = () => number;
export type RandomSource = (n: number) => Uint8Array;

/**
 * A ULID factory (https://github.com/ulid/spec): 48 bits of milliseconds, then 80 random bits,
 * monotonic within one millisecond. Clock and randomness are injected so that tests can
 * reproduce ledgers byte for byte.
 *
 * @example
 *   const next = createUlidFactory(() => 0, (n) => new Uint8Array(n));
 *   next() // '00000000000000000000000000'
 */
export function createUlidFactory(
  clock: Clock = Date.now,
  random: RandomSource = randomBytes,
): () => string {
  let lastTime = -1;
  let lastRandom: Uint8Array = new Uint8Array(10);
  return () => {
    let time = clock();
    if (time < lastTime) time = lastTime; // never go backwards, keep ids sortable
    if (time === lastTime) {
      lastRandom = incrementRandom(lastRandom);
    } else {
      lastTime = time;
      lastRandom = Uint8Array.from(random(10));
    }
    return encodeTime(time) + encodeRandom(lastRandom);
  };
}

function encodeTime(time: number): string {
  let out = '';
  let t = time;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

function incrementRandom(bytes: Uint8Array): Uint8Array {
  const next = Uint8Array.from(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] !== 0xff) {
      next[i] = (next[i] ?? 0) + 1;
      return next;
    }
    next[i] = 0;
  }
  throw new Error('ULID random component overflowed within one millisecond');
}

const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** True for a canonical (uppercase) ULID. */
export function isUlid(s: string): boolean {
  return ULID_RE.test(s);
}
