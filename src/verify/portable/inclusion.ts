import { bytesEqual } from './bytes.js';
import type { ProofCrypto } from './proof-crypto.js';

// RFC 9162 §2.1 over an injected SHA-256: the same tree as core/merkle.ts (which the tests
// cross-check), written without Buffer so that it runs in the browser.
const HASH_SIZE = 32;

/**
 * The leaf hash of RFC 9162 §2.1.1: SHA-256(0x00 || data).
 *
 * @example
 *   hexOf(hashLeafWith(nodeProofCrypto, new Uint8Array())) // '6e340b9c…'
 */
export function hashLeafWith(crypto: ProofCrypto, data: Uint8Array): Uint8Array {
  return crypto.sha256(Uint8Array.of(0x00), data);
}

/** The interior node hash of RFC 9162 §2.1.1: SHA-256(0x01 || left || right). */
export function hashChildrenWith(
  crypto: ProofCrypto,
  left: Uint8Array,
  right: Uint8Array,
): Uint8Array {
  return crypto.sha256(Uint8Array.of(0x01), left, right);
}

/**
 * Verifies an inclusion proof with exactly the algorithm of RFC 9162 §2.1.3.2. Untrusted input:
 * any malformed argument (bad index or size, hashes not 32 bytes, wrong path length) is `false`.
 *
 * @example
 *   verifyInclusionWith(nobleProofCrypto, 0, 1, leaf, [], leaf) // true: a one-leaf tree's root is its leaf
 */
export function verifyInclusionWith(
  crypto: ProofCrypto,
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!isCount(index) || !isCount(size) || index >= size) return false;
  const hashes = [leafHash, root, ...proof];
  if (!hashes.every((h) => h instanceof Uint8Array && h.length === HASH_SIZE)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      r = hashChildrenWith(crypto, p, r);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      r = hashChildrenWith(crypto, r, p);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && bytesEqual(r, root);
}

// Arithmetic instead of bit operators: JS bitwise ops truncate to 32 bits, sizes need not fit.
const isOdd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);
const isCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
