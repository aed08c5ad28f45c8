// Sealed submissions. An examiner's answer is first recorded only as a commitment, so that no one
// (other examiners, the adjudicator, whoever runs the server) can read it before every answer is
// in, and the examiner cannot change it afterwards; the answer and salt are revealed later and
// anyone can check them against the commitment.
//
// Byte layout (the README states it in these words): the commitment is the SHA-256 of the
// canonical JSON bytes (RFC 8785) of the answer followed by the 32 raw salt bytes, i.e.
//
//   commitment = SHA-256( UTF-8(JCS(answer)) || salt )      salt = 32 random bytes
//
// written as lowercase hex (64 characters each for the commitment and the salt). JCS is RFC 8785
// as restricted by core/canonical-json.ts (no floats). The salt is what hides the answer: the
// form has few possible values, so an unsalted hash could be reversed by trying them all.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  canonicalBytes,
  CustodyError,
  fromHex,
  isSha256Hex,
  sha256,
  toHex,
} from '../../core/index.js';
import { ExaminationError, type ExaminationAnswer } from '../codebook/index.js';

/** Salt length in bytes: 256 bits, as many as the hash. */
export const SALT_BYTES = 32;

export interface Commitment {
  /** SHA-256 (lowercase hex) of canonicalBytes(answer) || salt. */
  readonly commitment: string;
  /** The 32 salt bytes as lowercase hex; kept secret until the reveal. */
  readonly salt: string;
}

/** A source of random bytes; node:crypto's randomBytes unless a test injects a fixed one. */
export type RandomSource = (n: number) => Uint8Array;

/**
 * Commits to `answer` (as returned by parseExaminationForm, i.e. in canonical form) with a fresh
 * 32-byte salt.
 *
 * @example
 *   const { commitment, salt } = commit(answer)
 *   verifyReveal(commitment, answer, salt) // true
 */
export function commit(answer: ExaminationAnswer, random: RandomSource = randomBytes): Commitment {
  const salt = random(SALT_BYTES);
  if (!(salt instanceof Uint8Array) || salt.byteLength !== SALT_BYTES) {
    throw new ExaminationError(
      'COMMITMENT_RANDOM_INVALID',
      `the random source returned ${describe(salt)} instead of ${SALT_BYTES} bytes`,
    );
  }
  return { commitment: toHex(commitmentBytes(answer, salt)), salt: toHex(salt) };
}

/**
 * True when `answer` and `salt` (hex) are what `commitment` (hex) was made from. Malformed hex,
 * a salt of the wrong length, or an answer that cannot be canonicalized are simply false: none of
 * them can have produced a commitment. The comparison runs in constant time.
 *
 * @example
 *   verifyReveal(c.commitment, answer, c.salt)           // true
 *   verifyReveal(c.commitment, otherAnswer, c.salt)      // false
 */
export function verifyReveal(commitment: string, answer: ExaminationAnswer, salt: string): boolean {
  if (typeof commitment !== 'string' || !isSha256Hex(commitment)) return false;
  if (typeof salt !== 'string' || !isSha256Hex(salt)) return false; // 32 bytes = 64 hex digits
  let actual: Buffer;
  try {
    actual = commitmentBytes(answer, fromHex(salt));
  } catch (e) {
    if (e instanceof CustodyError && e.code === 'CANONICAL_UNSUPPORTED') return false;
    throw e;
  }
  return timingSafeEqual(actual, fromHex(commitment));
}

/** SHA-256( canonicalBytes(answer) || salt ): the layout documented at the top of this file. */
export function commitmentBytes(answer: ExaminationAnswer, salt: Uint8Array): Buffer {
  return sha256(canonicalBytes(answer), salt);
}

function describe(value: unknown): string {
  if (value instanceof Uint8Array) return `${value.byteLength} bytes`;
  return value === null ? 'null' : typeof value;
}
