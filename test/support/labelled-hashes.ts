// Deterministic PDQ-shaped hashes for the similarity tests: 64 hex digits from a label, and a copy
// of one with a chosen number of bits flipped (so its Hamming distance is exactly that number).
import { createHash } from 'node:crypto';

/** A pseudo-random 64-hex hash: SHA-256 of the label. */
export function hash(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}

/** `hex` with `bits` distinct bits flipped, the positions chosen from a label. */
export function flip(hex: string, bits: number, label: string): string {
  const b = Buffer.from(hex, 'hex');
  const positions = new Set<number>();
  for (let i = 0; positions.size < bits; i++)
    positions.add(createHash('sha256').update(`${label}:${i}`).digest().readUInt16BE(0) % 256);
  for (const p of positions) b[p >> 3] = (b[p >> 3] ?? 0) ^ (1 << (p & 7));
  return b.toString('hex');
}
