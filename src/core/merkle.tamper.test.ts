import { describe, expect, it } from 'vitest';
import { MerkleTree, hashLeaf, verifyConsistency, verifyInclusion } from './merkle.js';
import { fromHex, sha256 } from './sha256.js';
import {
  loadMerkleVectors,
  type ConsistencyVector,
  type InclusionVector,
} from '../../test/fixtures/merkle/vectors.js';

// Every valid proof in the published vectors, altered in every way we can think of. Each
// alteration is its own test case so a regression names exactly what slipped through.
const V = loadMerkleVectors();
const tree = new MerkleTree(V.leaves_hex.map((h) => hashLeaf(fromHex(h))));

type InclusionArgs = Parameters<typeof verifyInclusion>;
type ConsistencyArgs = Parameters<typeof verifyConsistency>;
type Case<A> = [string, A];

/** A copy of `b` with one bit of byte `i % length` flipped. */
function flipBit(b: Uint8Array, i = 0): Buffer {
  const out = Buffer.from(b);
  const at = i % out.length;
  out[at] = (out[at] ?? 0) ^ 0x10;
  return out;
}

function largestPowerOfTwoBelow(n: number): number {
  return 2 ** Math.floor(Math.log2(n - 1));
}

/**
 * The side of each sibling in PATH(i, D[0:n]) (RFC 9162 §2.1.3.1), root first. Hashes are opaque
 * to a verifier, so this layout is all it learns from (i, n): two sizes with the same layout
 * accept the same proof, and only the signed checkpoint can tell them apart.
 */
function inclusionLayout(i: number, n: number): string {
  let [lo, hi, out] = [0, n, ''];
  while (hi - lo > 1) {
    const k = largestPowerOfTwoBelow(hi - lo);
    if (i < lo + k) [hi, out] = [lo + k, `${out}R`];
    else [lo, out] = [lo + k, `${out}L`];
  }
  return out;
}

/** The decisions of SUBPROOF(m, D[0:n], true) (RFC 9162 §2.1.4.1), for the same reason. */
function consistencyLayout(m: number, n: number): string {
  let [lo, hi, complete, out] = [0, n, true, ''];
  while (m - lo !== hi - lo) {
    const k = largestPowerOfTwoBelow(hi - lo);
    if (m - lo <= k) [hi, out] = [lo + k, `${out}R`];
    else [lo, complete, out] = [lo + k, false, `${out}L`];
  }
  return complete ? out : `${out}T`;
}

/** Tree sizes a proof might be misattributed to: ±1 as asked, and ×2, ÷2 as transparency-dev does. */
function otherSizes(n: number): number[] {
  return [...new Set([n + 1, n - 1, n * 2, Math.floor(n / 2)])].filter((s) => s !== n);
}

function inclusionTampers(v: InclusionVector): { fail: Case<InclusionArgs>[]; same: number[] } {
  const leaf = hashLeaf(fromHex(v.leaf_hex));
  const path = v.path.map(fromHex);
  const root = fromHex(v.root);
  const [i, n] = [v.leaf_index, v.tree_size];
  const fail: Case<InclusionArgs>[] = [
    ['index + 1', [i + 1, n, leaf, path, root]],
    ['index - 1', [i - 1, n, leaf, path, root]],
    ['wrong root', [i, n, leaf, path, flipBit(root)]],
    ['empty-tree root', [i, n, leaf, path, sha256()]],
    ['wrong leaf hash', [i, n, flipBit(leaf), path, root]],
    ['path extended with the root', [i, n, leaf, [...path, root], root]],
    ['path extended with zeros', [i, n, leaf, [...path, Buffer.alloc(32)], root]],
    ['path prefixed with the leaf', [i, n, leaf, [leaf, ...path], root]],
  ];
  const same: number[] = [];
  for (const s of otherSizes(n)) {
    if (s > i && inclusionLayout(i, s) === inclusionLayout(i, n)) same.push(s);
    else fail.push([`tree size ${s}`, [i, s, leaf, path, root]]);
  }
  path.forEach((_, k) => {
    const flipped = path.map((p, j) => (j === k ? flipBit(p, k) : p));
    fail.push([`path[${k}] bit flipped`, [i, n, leaf, flipped, root]]);
  });
  if (path.length > 0) {
    fail.push(['last element dropped', [i, n, leaf, path.slice(0, -1), root]]);
    fail.push(['first element dropped', [i, n, leaf, path.slice(1), root]]);
  }
  for (let j = 0; j < n; j++) {
    if (j !== i) fail.push([`proof of leaf ${j}`, [i, n, leaf, tree.inclusionProof(j, n), root]]);
  }
  return { fail, same };
}

function consistencyTampers(v: ConsistencyVector): {
  fail: Case<ConsistencyArgs>[];
  same: number[];
} {
  const [m, n, r1, r2] = [v.size1, v.size2, fromHex(v.root1), fromHex(v.root2)];
  const path = v.path.map(fromHex);
  const fail: Case<ConsistencyArgs>[] = [
    ['old size + 1', [m + 1, n, r1, r2, path]],
    ['old size - 1', [m - 1, n, r1, r2, path]],
    ['wrong old root', [m, n, flipBit(r1), r2, path]],
    ['wrong new root', [m, n, r1, flipBit(r2), path]],
    ['path extended with the old root', [m, n, r1, r2, [...path, r1]]],
    ['path extended with the new root', [m, n, r1, r2, [...path, r2]]],
    ['path prefixed with the old root', [m, n, r1, r2, [r1, ...path]]],
  ];
  if (!r1.equals(r2)) fail.push(['roots swapped', [m, n, r2, r1, path]]);
  const same: number[] = [];
  for (const s of otherSizes(n)) {
    if (s > m && consistencyLayout(m, s) === consistencyLayout(m, n)) same.push(s);
    else fail.push([`new size ${s}`, [m, s, r1, r2, path]]);
  }
  path.forEach((_, k) => {
    const flipped = path.map((p, j) => (j === k ? flipBit(p, k) : p));
    fail.push([`path[${k}] bit flipped`, [m, n, r1, r2, flipped]]);
  });
  if (path.length > 0) {
    fail.push(['last element dropped', [m, n, r1, r2, path.slice(0, -1)]]);
    fail.push(['first element dropped', [m, n, r1, r2, path.slice(1)]]);
    fail.push(['empty proof', [m, n, r1, r2, []]]);
  }
  return { fail, same };
}

describe.each(V.inclusion)('altered inclusion proof, leaf $leaf_index of $tree_size', (v) => {
  const { fail, same } = inclusionTampers(v);
  it.each(fail)('%s: fails', (_name, args) => {
    expect(verifyInclusion(...args)).toBe(false);
  });
  // RFC 9162 §2.1.3.2 cannot reject these: the proof has the same layout at both sizes and a
  // root hash does not encode its size. The checkpoint signs (size, root) together: that binds them.
  it(`still verifies at sizes with the same layout (${same.join(', ') || 'none'})`, () => {
    const [leaf, path, root] = [
      hashLeaf(fromHex(v.leaf_hex)),
      v.path.map(fromHex),
      fromHex(v.root),
    ];
    for (const s of same) expect(verifyInclusion(v.leaf_index, s, leaf, path, root)).toBe(true);
  });
});

describe.each(V.consistency)('altered consistency proof, $size1 -> $size2', (v) => {
  const { fail, same } = consistencyTampers(v);
  it.each(fail)('%s: fails', (_name, args) => {
    expect(verifyConsistency(...args)).toBe(false);
  });
  it(`still verifies at new sizes with the same layout (${same.join(', ') || 'none'})`, () => {
    const [r1, r2, path] = [fromHex(v.root1), fromHex(v.root2), v.path.map(fromHex)];
    for (const s of same) expect(verifyConsistency(v.size1, s, r1, r2, path)).toBe(true);
  });
});

describe('the layout rule above is exact on the vector tree (all leaves, sizes 1..16)', () => {
  const sizes = Array.from({ length: 16 }, (_, k) => k + 1);
  it('inclusion: a proof verifies at size s iff PATH has the same layout at s', () => {
    for (let n = 1; n <= tree.size; n++) {
      for (let i = 0; i < n; i++) {
        const [leaf, path, root] = [tree.leafHash(i), tree.inclusionProof(i, n), tree.root(n)];
        for (const s of sizes) {
          const same = s > i && inclusionLayout(i, s) === inclusionLayout(i, n);
          expect(verifyInclusion(i, s, leaf, path, root), `${i} of ${n} at ${s}`).toBe(same);
        }
      }
    }
  });
  it('consistency: a proof verifies at new size s iff SUBPROOF has the same layout at s', () => {
    for (let n = 1; n <= tree.size; n++) {
      for (let m = 1; m <= n; m++) {
        const [r1, r2, proof] = [tree.root(m), tree.root(n), tree.consistencyProof(m, n)];
        for (const s of sizes) {
          const same = s >= m && consistencyLayout(m, s) === consistencyLayout(m, n);
          expect(verifyConsistency(m, s, r1, r2, proof), `${m} -> ${n} at ${s}`).toBe(same);
        }
      }
    }
  });
});
