// The reference: every pair, every variant, written independently of the fast path (its own
// packing and distance) so that tests comparing the two are not comparing a thing with itself.
// Quadratic: for tests and for the benchmark's peer figure only.
import type { HashRecord, Pair } from './packed.js';
import { DEFAULT_THRESHOLD, type FindPairsOptions } from './find-pairs.js';

function wordsOf(bytes: Uint8Array): Uint32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 32);
  const out = new Uint32Array(8);
  for (let i = 0; i < 8; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

function bitCount(x: number): number {
  let n = 0;
  for (let y = x >>> 0; y !== 0; y &= y - 1) n++;
  return n;
}

const BITS_16 = Uint8Array.from({ length: 65536 }, (_, i) => bitCount(i));

/** Hamming distance, or Infinity once past `limit` (every early exit is past the limit). */
function distanceUpTo(
  x: Uint32Array,
  xo: number,
  y: Uint32Array,
  yo: number,
  limit: number,
): number {
  let d = 0;
  for (let i = 0; i < 8; i++) {
    const z = x[xo + i]! ^ y[yo + i]!;
    d += BITS_16[z & 0xffff]! + BITS_16[z >>> 16]!;
    if (d > limit) return Infinity;
  }
  return d;
}

/** All pairs by exhaustive comparison; same contract as findPairs. */
export function bruteForcePairs(records: readonly HashRecord[], opts: FindPairsOptions): Pair[] {
  const limit = opts.threshold ?? DEFAULT_THRESHOLD;
  const n = records.length;
  const k = opts.variantsPerRecord ?? 7;
  const hashes = new Uint32Array(n * 8);
  const variants = new Uint32Array(n * k * 8);
  const held = new Uint8Array(n);
  records.forEach((r, i) => {
    hashes.set(wordsOf(r.hash), i * 8);
    if (opts.dihedral && r.dihedral !== undefined) {
      held[i] = r.dihedral.length;
      r.dihedral.forEach((v, j) => variants.set(wordsOf(v), (i * k + j) * 8));
    }
  });
  const out: Pair[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const plain = distanceUpTo(hashes, i * 8, hashes, j * 8, limit);
      let turned = Infinity;
      for (let v = 0; v < held[i]!; v++)
        turned = Math.min(turned, distanceUpTo(variants, (i * k + v) * 8, hashes, j * 8, limit));
      for (let v = 0; v < held[j]!; v++)
        turned = Math.min(turned, distanceUpTo(variants, (j * k + v) * 8, hashes, i * 8, limit));
      const best = Math.min(plain, turned);
      if (best === Infinity) continue;
      const [a, b] =
        records[i]!.id < records[j]!.id
          ? [records[i]!.id, records[j]!.id]
          : [records[j]!.id, records[i]!.id];
      out.push({ a, b, distance: best, kind: plain <= turned ? 'pdq' : 'pdq-dihedral' });
    }
  }
  return out;
}
