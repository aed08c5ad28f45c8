// A small, documented, seedable pseudo-random generator, so that every bootstrap interval Custody
// prints can be recomputed bit for bit by anyone: xoshiro128** (D. Blackman and S. Vigna,
// "Scrambled linear pseudorandom number generators", ACM TOMS 47 (2021) art. 36; reference C at
// https://prng.di.unimi.it/xoshiro128starstar.c), with its 128-bit state taken from SHA-256 of the
// seed string. Not for secrets: it is a statistical generator, chosen for being easy to re-implement.
import { sha256 } from '../core/index.js';
import { requireCount } from './errors.js';

/** The documented default seed of Custody's bootstrap intervals. */
export const BOOTSTRAP_SEED = 'custody-bootstrap-v1';
/** How the generator is seeded, for reports. */
export const PRNG_DESCRIPTION =
  'xoshiro128** (Blackman & Vigna); state = SHA-256(UTF-8 seed) bytes 0–15 as four little-endian uint32; ' +
  'integers in [0, n) by rejection of the top 2^32 mod n values';

export interface Prng {
  /** The next 32-bit output, as a number in [0, 2^32). */
  nextUint32(): number;
  /** A uniform integer in [0, n), without modulo bias. */
  nextInt(n: number): number;
}

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

/**
 * xoshiro128** from an explicit state of four uint32 words (not all zero).
 *
 * @example
 *   xoshiro128ss([1, 2, 3, 4]).nextUint32() // 11520 (= rotl(2·5, 7)·9)
 */
export function xoshiro128ss(state: readonly [number, number, number, number]): Prng {
  const s = Uint32Array.from(state);
  if (s.every((w) => w === 0)) throw new RangeError('xoshiro128** state must not be all zero');
  const nextUint32 = (): number => {
    const s0 = s[0] ?? 0;
    const s1 = s[1] ?? 0;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s[2] = (s[2] ?? 0) ^ s0;
    s[3] = (s[3] ?? 0) ^ s1;
    s[1] = s1 ^ (s[2] ?? 0);
    s[0] = s0 ^ (s[3] ?? 0);
    s[2] = (s[2] ?? 0) ^ t;
    s[3] = rotl(s[3] ?? 0, 11);
    return result;
  };
  // The bootstrap asks for millions of integers in one range, so the range's rejection limit is
  // kept from one call to the next, and the residue is taken by an exact floor division: both
  // operands exceed int32, where `%` is a floating-point remainder (a C call, several times slower).
  // For 0 <= x < 2^32 and 1 <= n <= 2^32, x / n is never within 2^-53 relative of the next integer
  // above it, so Math.floor(x / n) is the exact quotient and x - q·n the exact residue: the same
  // integers as x % n (prng.test.ts compares the two).
  let rangeN = Number.NaN; // no range yet: NaN equals no n, so the first call checks its range
  let rangeLimit = 0;
  const nextInt = (n: number): number => {
    if (n !== rangeN) {
      requireCount(n, 'range', 1, 2 ** 32);
      // Reject the top (2^32 mod n) outputs so that every residue is equally likely.
      rangeLimit = 2 ** 32 - (2 ** 32 % n);
      rangeN = n;
    }
    const limit = rangeLimit;
    for (;;) {
      const x = nextUint32();
      if (x < limit) return x - Math.floor(x / n) * n;
    }
  };
  return { nextUint32, nextInt };
}

/**
 * xoshiro128** seeded from SHA-256 of `seed` (UTF-8): the first 16 digest bytes, read as four
 * little-endian uint32 words, are the state (all-zero is refused; for SHA-256 that has
 * probability 2^-128).
 *
 * @example
 *   seededPrng('custody-bootstrap-v1').nextInt(12) // the same integer on every machine
 */
export function seededPrng(seed: string): Prng {
  const digest = sha256(Buffer.from(seed, 'utf8'));
  const word = (i: number): number => digest.readUInt32LE(4 * i);
  return xoshiro128ss([word(0), word(1), word(2), word(3)]);
}
