import { describe, expect, it } from 'vitest';
import { hasCode } from './errors.js';
import {
  MerkleTree,
  RootAccumulator,
  hashChildren,
  hashLeaf,
  verifyConsistency,
  verifyInclusion,
} from './merkle.js';
import { fromHex, sha256, toHex } from './sha256.js';
import { loadMerkleVectors } from '../../test/fixtures/merkle/vectors.js';

// Published vectors (google/certificate-transparency, transparency-dev/merkle; see SOURCE.md).
const V = loadMerkleVectors();
const leafHashes = V.leaves_hex.map((h) => hashLeaf(fromHex(h)));
const tree = new MerkleTree(leafHashes);
const hex = (bs: readonly Uint8Array[]): string[] => bs.map(toHex);

describe('hashing (RFC 9162 §2.1.1)', () => {
  it('hashes the empty tree as SHA-256("")', () => {
    expect(toHex(sha256())).toBe(V.empty_tree_root);
    expect(toHex(new MerkleTree().root())).toBe(V.empty_tree_root);
    expect(toHex(new RootAccumulator().root())).toBe(V.empty_tree_root);
  });

  it('hashes leaves with the 0x00 prefix', () => {
    expect(hex(leafHashes)).toEqual(V.node_hashes_by_level[0]);
  });

  it('hashes nodes with the 0x01 prefix, level by level', () => {
    for (let level = 1; level < V.node_hashes_by_level.length; level++) {
      const below = (V.node_hashes_by_level[level - 1] ?? []).map(fromHex);
      const expected = V.node_hashes_by_level[level] ?? [];
      expected.forEach((want, i) => {
        const got = hashChildren(below[2 * i] as Buffer, below[2 * i + 1] as Buffer);
        expect(toHex(got)).toBe(want);
      });
    }
  });

  it('refuses node children that are not 32 bytes', () => {
    expect(() => hashChildren(Buffer.alloc(31), Buffer.alloc(32))).toThrow(
      expect.objectContaining({ code: 'MERKLE_BAD_ARGUMENT' }),
    );
  });
});

describe('roots for every size of the vector tree', () => {
  const acc = new RootAccumulator();
  const sizes = Object.keys(V.roots_by_tree_size).map(Number);
  it.each(sizes)('size %i', (n) => {
    const want = V.roots_by_tree_size[String(n)];
    expect(toHex(tree.root(n))).toBe(want);
    expect(toHex(new MerkleTree(leafHashes.slice(0, n)).root())).toBe(want);
    while (acc.size < n) acc.push(leafHashes[acc.size] as Buffer);
    expect(toHex(acc.root())).toBe(want);
  });
});

describe('inclusion vectors (RFC 9162 §2.1.3)', () => {
  it.each(V.inclusion)('leaf $leaf_index of $tree_size: generated and verified', (v) => {
    const leaf = hashLeaf(fromHex(v.leaf_hex));
    expect(v.expect_valid).toBe(true);
    expect(tree.leafHash(v.leaf_index).equals(leaf)).toBe(true);
    expect(hex(tree.inclusionProof(v.leaf_index, v.tree_size))).toEqual(v.path);
    expect(toHex(tree.root(v.tree_size))).toBe(v.root);
    expect(
      verifyInclusion(v.leaf_index, v.tree_size, leaf, v.path.map(fromHex), fromHex(v.root)),
    ).toBe(true);
  });
});

describe('consistency vectors (RFC 9162 §2.1.4)', () => {
  it.each(V.consistency)('$size1 -> $size2: generated and verified', (v) => {
    expect(v.expect_valid).toBe(true);
    expect(hex(tree.consistencyProof(v.size1, v.size2))).toEqual(v.path);
    const ok = verifyConsistency(
      v.size1,
      v.size2,
      fromHex(v.root1),
      fromHex(v.root2),
      v.path.map(fromHex),
    );
    expect(ok).toBe(true);
  });
});

type InclusionArgs = Parameters<typeof verifyInclusion>;

describe('malformed verifier input is false, never an exception', () => {
  const leaf = leafHashes[5] as Buffer;
  const path = tree.inclusionProof(5, 8);
  const root = tree.root(8);

  it.each<[string, InclusionArgs]>([
    ['non-integer index', [5.5, 8, leaf, path, root]],
    ['NaN size', [5, Number.NaN, leaf, path, root]],
    ['unsafe size', [5, 2 ** 53, leaf, path, root]],
    ['31-byte path element', [5, 8, leaf, [path[0]!.subarray(1), ...path.slice(1)], root]],
    ['33-byte root', [5, 8, leaf, path, Buffer.concat([root, Buffer.of(0)])]],
    ['31-byte leaf', [5, 8, leaf.subarray(1), path, root]],
  ])('inclusion: %s', (_name, args) => {
    expect(verifyInclusion(5, 8, leaf, path, root)).toBe(true);
    expect(verifyInclusion(...args)).toBe(false);
  });

  it('consistency: old size 0, old > new, non-empty proof for equal sizes', () => {
    const r3 = tree.root(3);
    expect(verifyConsistency(0, 8, sha256(), root, [])).toBe(false);
    expect(verifyConsistency(8, 3, root, r3, tree.consistencyProof(3, 8))).toBe(false);
    expect(verifyConsistency(8, 8, root, root, [root])).toBe(false);
    expect(verifyConsistency(3, 8, r3, root, [])).toBe(false);
    expect(verifyConsistency(1.5, 8, r3, root, tree.consistencyProof(3, 8))).toBe(false);
  });
});

describe('MerkleTree refuses bad arguments with MERKLE_BAD_ARGUMENT', () => {
  const bad = (f: () => unknown): boolean => {
    try {
      f();
      return false;
    } catch (e) {
      return hasCode(e, 'MERKLE_BAD_ARGUMENT');
    }
  };
  it.each<[string, () => unknown]>([
    ['leaf hash of 31 bytes', () => new MerkleTree().append(Buffer.alloc(31))],
    ['leafHash(size)', () => tree.leafHash(8)],
    ['leafHash(-1)', () => tree.leafHash(-1)],
    ['root(size + 1)', () => tree.root(9)],
    ['root(1.5)', () => tree.root(1.5)],
    ['inclusionProof(index = size)', () => tree.inclusionProof(3, 3)],
    ['inclusionProof(size > tree size)', () => tree.inclusionProof(0, 9)],
    ['inclusionProof(non-integer)', () => tree.inclusionProof(0.5, 4)],
    ['inclusionProof on the empty tree', () => new MerkleTree().inclusionProof(0)],
    ['consistencyProof(old > new)', () => tree.consistencyProof(5, 4)],
    ['consistencyProof(0, n)', () => tree.consistencyProof(0, 4)],
    ['consistencyProof(new > tree size)', () => tree.consistencyProof(1, 9)],
    ['consistencyProof(NaN)', () => tree.consistencyProof(Number.NaN)],
    ['RootAccumulator.push of 33 bytes', () => new RootAccumulator().push(Buffer.alloc(33))],
  ])('%s', (_name, f) => {
    expect(bad(f)).toBe(true);
  });

  it('consistencyProof(n, n) is empty', () => {
    expect(tree.consistencyProof(8, 8)).toEqual([]);
    expect(tree.consistencyProof(3, 3)).toEqual([]);
  });
});

describe('rootWith', () => {
  it('equals the root after appending, for every split of 0..40 leaves', () => {
    const leaves = Array.from({ length: 40 }, (_, i) => hashLeaf(Buffer.from(`leaf ${i}`)));
    for (let n = 0; n <= 40; n++) {
      const tree = new MerkleTree(leaves.slice(0, n));
      for (let k = 0; n + k <= 40; k += 3) {
        expect(tree.rootWith(leaves.slice(n, n + k)).equals(new MerkleTree(leaves.slice(0, n + k)).root())).toBe(true);
      }
      expect(tree.size).toBe(n);
    }
  });
});
