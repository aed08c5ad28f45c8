import { describe, expect, it } from 'vitest';
import {
  MerkleTree,
  RootAccumulator,
  hashChildren,
  hashLeaf,
  verifyConsistency,
  verifyInclusion,
} from './merkle.js';
import { sha256, toHex } from './sha256.js';

// Randomised checks against a naive transcription of RFC 9162 §2.1 (MTH, PATH, SUBPROOF), with
// a seeded generator so that a failure reproduces exactly.
const MAX_LEAVES = 300;

/** mulberry32: a tiny deterministic PRNG; good enough to pick leaf bytes and sizes. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seededRandom(0x9162);
const leaves = Array.from({ length: MAX_LEAVES }, () => {
  const bytes = Buffer.alloc(Math.floor(random() * 48));
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
  return bytes;
});
const leafHashes = leaves.map(hashLeaf);
const tree = new MerkleTree(leafHashes);

function k(n: number): number {
  return 2 ** Math.floor(Math.log2(n - 1)); // the largest power of two smaller than n
}

/** MTH(D[n]) exactly as written in RFC 9162 §2.1.1, O(n). */
function naiveRoot(d: readonly Buffer[]): Buffer {
  if (d.length === 0) return sha256();
  if (d.length === 1) return d[0] as Buffer;
  const split = k(d.length);
  return hashChildren(naiveRoot(d.slice(0, split)), naiveRoot(d.slice(split)));
}

/** PATH(m, D[n]) exactly as written in RFC 9162 §2.1.3.1. */
function naivePath(m: number, d: readonly Buffer[]): Buffer[] {
  if (d.length <= 1) return [];
  const split = k(d.length);
  return m < split
    ? [...naivePath(m, d.slice(0, split)), naiveRoot(d.slice(split))]
    : [...naivePath(m - split, d.slice(split)), naiveRoot(d.slice(0, split))];
}

/** SUBPROOF(m, D[n], b) exactly as written in RFC 9162 §2.1.4.1. */
function naiveSubproof(m: number, d: readonly Buffer[], b: boolean): Buffer[] {
  if (m === d.length) return b ? [] : [naiveRoot(d)];
  const split = k(d.length);
  return m <= split
    ? [...naiveSubproof(m, d.slice(0, split), b), naiveRoot(d.slice(split))]
    : [...naiveSubproof(m - split, d.slice(split), false), naiveRoot(d.slice(0, split))];
}

const hex = (bs: readonly Uint8Array[]): string[] => bs.map(toHex);

describe(`random trees up to ${MAX_LEAVES} leaves`, () => {
  it('root(n) equals the naive MTH, and RootAccumulator agrees, at every size', () => {
    const acc = new RootAccumulator();
    for (let n = 0; n <= MAX_LEAVES; n++) {
      const want = toHex(naiveRoot(leafHashes.slice(0, n)));
      expect(toHex(tree.root(n)), `size ${n}`).toBe(want);
      expect(toHex(acc.root()), `accumulator at ${n}`).toBe(want);
      expect(acc.size).toBe(n);
      if (n < MAX_LEAVES) acc.push(leafHashes[n] as Buffer);
    }
  });

  it('a tree built one append at a time equals one built from the whole list', () => {
    const grown = new MerkleTree();
    for (const [i, h] of leafHashes.entries()) {
      grown.append(h);
      expect(toHex(grown.root()), `after ${i + 1}`).toBe(toHex(tree.root(i + 1)));
    }
  });

  // Every size from 1 to 64, then random sizes up to the maximum; every proof of each.
  const sizes = [...Array.from({ length: 64 }, (_, i) => i + 1), MAX_LEAVES];
  for (let i = 0; i < 12; i++) sizes.push(65 + Math.floor(random() * (MAX_LEAVES - 65)));

  it.each(sizes)('size %i: every inclusion proof matches PATH and verifies', (n) => {
    const d = leafHashes.slice(0, n);
    const root = tree.root(n);
    for (let i = 0; i < n; i++) {
      const proof = tree.inclusionProof(i, n);
      if (n <= 64) expect(hex(proof), `PATH(${i}, D[${n}])`).toEqual(hex(naivePath(i, d)));
      expect(verifyInclusion(i, n, leafHashes[i] as Buffer, proof, root), `leaf ${i}`).toBe(true);
    }
  });

  it.each(sizes)('size %i: every consistency proof from 1..n matches PROOF and verifies', (n) => {
    const d = leafHashes.slice(0, n);
    const root = tree.root(n);
    for (let m = 1; m <= n; m++) {
      const proof = tree.consistencyProof(m, n);
      if (n <= 64)
        expect(hex(proof), `PROOF(${m}, D[${n}])`).toEqual(hex(naiveSubproof(m, d, true)));
      expect(verifyConsistency(m, n, tree.root(m), root, proof), `from ${m}`).toBe(true);
    }
  });
});

describe('scale', () => {
  it('handles 2^17 leaves with O(log^2 n) proofs', () => {
    const big = new MerkleTree();
    const acc = new RootAccumulator();
    const n = 2 ** 17 + 3;
    for (let i = 0; i < n; i++) {
      const h = hashLeaf(Buffer.from(String(i)));
      big.append(h);
      acc.push(h);
    }
    const root = big.root();
    expect(acc.root().equals(root)).toBe(true);
    for (const i of [0, 1, 77_777, n - 1]) {
      expect(verifyInclusion(i, n, big.leafHash(i), big.inclusionProof(i), root)).toBe(true);
    }
    for (const m of [1, 3, 65_536, 100_000, n - 1]) {
      expect(verifyConsistency(m, n, big.root(m), root, big.consistencyProof(m))).toBe(true);
    }
  });
});
