import { createHash } from 'node:crypto';
import { CoreError } from './errors.js';

/**
 * SHA-256 over the concatenation of `parts` (no copy is made).
 *
 * @example
 *   toHex(sha256(Buffer.from('abc'))) // 'ba7816bf…'
 */
export function sha256(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

const HEX_RE = /^(?:[0-9a-f]{2})*$/;
const SHA256_HEX_RE = /^[0-9a-f]{64}$/;

/** Parses lowercase hex; anything else (uppercase, odd length, stray characters) is refused. */
export function fromHex(hex: string): Buffer {
  if (!HEX_RE.test(hex)) throw new CoreError('HEX_INVALID', `not lowercase hex: ${hex.slice(0, 80)}`);
  return Buffer.from(hex, 'hex');
}

/** True for a 64-character lowercase hex string, the only spelling of a digest we write. */
export function isSha256Hex(s: string): boolean {
  return SHA256_HEX_RE.test(s);
}
