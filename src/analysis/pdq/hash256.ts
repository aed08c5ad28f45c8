import { PdqError } from './errors.js';

/** A PDQ hash as 16 words of 16 bits, `w[k >> 4]` holding bit `k` at position `k & 15`. */
export type Hash256Words = Uint16Array;

/**
 * Packs 256 booleans-as-bits into the reference layout: bit `k = i*16 + j` (DCT row i, column j)
 * goes to word `k >> 4`, bit `k & 15` (pdq/cpp/common/pdqhashtypes.h, Hash256::setBit).
 */
export function wordsFromBits(isSet: (k: number) => boolean): Hash256Words {
  const w = new Uint16Array(16);
  for (let k = 0; k < 256; k++) {
    if (isSet(k)) w[k >> 4] = (w[k >> 4] as number) | (1 << (k & 15));
  }
  return w;
}

/**
 * Formats words as the reference text form: `w[15] w[14] … w[0]`, each `%04hx`, no separators
 * (pdqhashtypes.cpp, Hash256::format). So the first four hex digits are DCT row 15.
 *
 * @example
 *   formatHash256(new Uint16Array(16).fill(0xffff)) // 'ffff…ffff' (64 digits)
 */
export function formatHash256(w: Hash256Words): string {
  let s = '';
  for (let i = 15; i >= 0; i--) s += (w[i] as number).toString(16).padStart(4, '0');
  return s;
}

/** Parses the 64-hex-digit text form back into words; throws PDQ_BAD_HASH when malformed. */
export function parseHash256(hex: string): Hash256Words {
  // Hashes may come from outside (imports, API calls): validate before trusting.
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new PdqError('PDQ_BAD_HASH', 'a PDQ hash is 64 hexadecimal digits', {
      details: { length: hex.length },
    });
  }
  const w = new Uint16Array(16);
  for (let i = 0; i < 16; i++) w[15 - i] = parseInt(hex.slice(i * 4, i * 4 + 4), 16);
  return w;
}

function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function toBytes(h: string | Uint8Array): Uint8Array {
  if (typeof h === 'string') {
    parseHash256(h); // validates
    const bytes = new Uint8Array(32);
    for (let i = 0; i < 32; i++) bytes[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
    return bytes;
  }
  if (h.length !== 32) {
    throw new PdqError('PDQ_BAD_HASH', 'a PDQ hash is 32 bytes', { details: { length: h.length } });
  }
  return h;
}

/**
 * Number of differing bits between two PDQ hashes, each given as 64 hex digits or as 32 bytes
 * (the hex text decoded in order). Meta's guidance (pdq/README.md): distance <= 31 is a match.
 *
 * @example
 *   hammingDistance('0'.repeat(64), '0'.repeat(63) + '3') // 2
 */
export function hammingDistance(a: string | Uint8Array, b: string | Uint8Array): number {
  const x = toBytes(a);
  const y = toBytes(b);
  let d = 0;
  for (let i = 0; i < 32; i++) d += popcount32((x[i] as number) ^ (y[i] as number));
  return d;
}
