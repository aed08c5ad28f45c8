import { CoreError } from './errors.js';
import { sha256 } from './sha256.js';

/**
 * The custody ledger's Merkle tree, exactly RFC 9162 §2.1 (the RFC 6962 tree, SHA-256):
 * leaves are hashed with a 0x00 prefix and interior nodes with 0x01, so a leaf can never be
 * passed off as a node. Indices and sizes are JavaScript numbers (safe integers).
 */
const HASH_SIZE = 32;
const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

/**
 * The leaf hash of RFC 9162 §2.1.1: SHA-256(0x00 || data).
 *
 * @example
 *   toHex(hashLeaf(new Uint8Array())) // '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d'
 */
export function hashLeaf(data: Uint8Array): Buffer {
  return sha256(LEAF_PREFIX, data);
}

/**
 * The interior node hash of RFC 9162 §2.1.1: SHA-256(0x01 || left || right), both 32 bytes.
 *
 * @example
 *   hashChildren(hashLeaf(Buffer.from('')), hashLeaf(Buffer.of(0))) // the root of a 2-leaf tree
 */
export function hashChildren(left: Uint8Array, right: Uint8Array): Buffer {
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE) {
    throw badArgument('node children must be 32-byte hashes');
  }
  return sha256(NODE_PREFIX, left, right);
}

/** One level of perfect subtree hashes, packed into a growable byte array (32 bytes each). */
class HashLevel {
  private bytes = new Uint8Array(HASH_SIZE * 16);
  count = 0;

  push(hash: Uint8Array): void {
    if ((this.count + 1) * HASH_SIZE > this.bytes.length) {
      const bigger = new Uint8Array(this.bytes.length * 2);
      bigger.set(this.bytes);
      this.bytes = bigger;
    }
    this.bytes.set(hash, this.count * HASH_SIZE);
    this.count++;
  }

  /** A view (no copy) of hash `i`; callers must not keep it across a push. */
  at(i: number): Uint8Array {
    return this.bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE);
  }
}

/**
 * An append-only RFC 9162 Merkle tree over leaf hashes. `levels[k]` holds the hash of every
 * complete, aligned subtree of 2^k leaves, maintained on append (amortised two hashes per leaf).
 * Any MTH(D[lo:hi]) that the RFC's recursions ask for is then a fold of at most log2(n) stored
 * nodes, so `root(n)` is O(log n) and proofs for any n <= size are O(log^2 n) hashes.
 *
 * @example
 *   const tree = new MerkleTree([hashLeaf(Buffer.from('a')), hashLeaf(Buffer.from('b'))]);
 *   tree.append(hashLeaf(Buffer.from('c')));
 *   verifyInclusion(2, 3, tree.leafHash(2), tree.inclusionProof(2), tree.root()) // true
 */
export class MerkleTree {
  private readonly levels: HashLevel[] = [new HashLevel()];

  constructor(leafHashes: Iterable<Uint8Array> = []) {
    for (const leaf of leafHashes) this.append(leaf);
  }

  /** Appends one leaf hash (32 bytes; use {@link hashLeaf} on the entry bytes). */
  append(leafHash: Uint8Array): void {
    if (leafHash.length !== HASH_SIZE) throw badArgument('leaf hash must be 32 bytes');
    let level = 0;
    let node: Uint8Array = leafHash;
    for (;;) {
      const current = this.levelAt(level);
      current.push(node);
      if (current.count % 2 !== 0) return;
      node = hashChildren(current.at(current.count - 2), current.at(current.count - 1));
      level++;
    }
  }

  /** The number of leaves. */
  get size(): number {
    return this.levelAt(0).count;
  }

  /** A copy of the hash of leaf `index` (0-based). */
  leafHash(index: number): Buffer {
    checkBelow(index, this.size, 'leaf index');
    return Buffer.from(this.levelAt(0).at(index));
  }

  /** MTH(D[0:size]) of RFC 9162 §2.1.1, for the whole tree or any earlier size. */
  root(size: number = this.size): Buffer {
    checkBelow(size, this.size + 1, 'tree size');
    return size === 0 ? sha256() : this.rangeHash(0, size); // MTH({}) = SHA-256()
  }

  /**
   * MTH of this tree with `leaves` appended, without appending them: the tree's frontier (its
   * aligned perfect subtrees, largest first) seeds a {@link RootAccumulator}. O(log n + k).
   *
   * @example
   *   new MerkleTree([a]).rootWith([b]).equals(new MerkleTree([a, b]).root()) // true
   */
  rootWith(leaves: readonly Uint8Array[]): Buffer {
    const frontier: StackNode[] = [];
    let offset = 0;
    for (let k = Math.floor(Math.log2(Math.max(1, this.size))); k >= 0; k--) {
      const width = 2 ** k;
      if (offset + width <= this.size) {
        frontier.push({ height: k, hash: Buffer.from(this.levelAt(k).at(offset / width)) });
        offset += width;
      }
    }
    const acc = RootAccumulator.fromFrontier(frontier, this.size);
    for (const leaf of leaves) acc.push(leaf);
    return acc.root();
  }

  /** PATH(index, D[0:size]) of RFC 9162 §2.1.3.1, ordered leaf to root. */
  inclusionProof(index: number, size: number = this.size): Buffer[] {
    checkBelow(size, this.size + 1, 'tree size');
    checkBelow(index, size, 'leaf index');
    const siblings: Buffer[] = [];
    let lo = 0;
    let hi = size;
    while (hi - lo > 1) {
      const k = largestPowerOfTwoBelow(hi - lo);
      if (index < lo + k) {
        siblings.push(this.rangeHash(lo + k, hi));
        hi = lo + k;
      } else {
        siblings.push(this.rangeHash(lo, lo + k));
        lo += k;
      }
    }
    return siblings.reverse(); // collected root-first; the RFC emits the deepest node first
  }

  /** PROOF(oldSize, D[0:newSize]) = SUBPROOF(oldSize, D[0:newSize], true) of RFC 9162 §2.1.4.1. */
  consistencyProof(oldSize: number, newSize: number = this.size): Buffer[] {
    checkBelow(newSize, this.size + 1, 'new tree size');
    checkBelow(oldSize, newSize + 1, 'old tree size');
    if (oldSize === 0) throw badArgument('consistency from the empty tree is undefined');
    const nodes: Buffer[] = [];
    let lo = 0;
    let hi = newSize;
    let complete = true; // the RFC's `b`: is D[lo:oldSize] the whole old tree?
    for (;;) {
      const [m, n] = [oldSize - lo, hi - lo];
      if (m === n) {
        if (!complete) nodes.push(this.rangeHash(lo, hi));
        break;
      }
      const k = largestPowerOfTwoBelow(n);
      if (m <= k) {
        nodes.push(this.rangeHash(lo + k, hi));
        hi = lo + k;
      } else {
        nodes.push(this.rangeHash(lo, lo + k));
        lo += k;
        complete = false;
      }
    }
    return nodes.reverse();
  }

  /**
   * MTH(D[lo:hi]) for the ranges RFC 9162's recursions produce: `lo` is a multiple of a power of
   * two >= hi - lo, so the range splits into stored aligned subtrees, largest first.
   */
  private rangeHash(lo: number, hi: number): Buffer {
    const parts: Uint8Array[] = [];
    let offset = lo;
    for (let k = Math.floor(Math.log2(hi - lo)) + 1; k >= 0; k--) {
      const width = 2 ** k;
      if (offset + width <= hi) {
        if (offset % width !== 0) throw new Error(`unreachable: unaligned range [${lo}, ${hi})`);
        parts.push(this.levelAt(k).at(offset / width));
        offset += width;
      }
    }
    const last = parts.pop();
    if (last === undefined) throw new Error('unreachable: empty range');
    let acc: Buffer = Buffer.from(last);
    for (let i = parts.length - 1; i >= 0; i--) acc = hashChildren(parts[i] as Uint8Array, acc);
    return acc;
  }

  private levelAt(k: number): HashLevel {
    return (this.levels[k] ??= new HashLevel());
  }
}

type StackNode = { height: number; hash: Buffer };

/**
 * The root of a growing tree in O(log n) memory: a stack of the perfect subtrees ("compact
 * range") covering the leaves so far. Replaying a ledger with it gives MTH at every size cheaply.
 *
 * @example
 *   const acc = new RootAccumulator();
 *   acc.push(hashLeaf(Buffer.from('a')));
 *   acc.root().equals(new MerkleTree([hashLeaf(Buffer.from('a'))]).root()) // true
 */
export class RootAccumulator {
  private readonly stack: StackNode[] = [];
  private count = 0;

  /** An accumulator already holding `count` leaves, given as their perfect subtrees, largest first. */
  static fromFrontier(frontier: readonly StackNode[], count: number): RootAccumulator {
    const acc = new RootAccumulator();
    acc.stack.push(...frontier);
    acc.count = count;
    return acc;
  }

  /** Adds the next leaf hash (32 bytes). */
  push(leafHash: Uint8Array): void {
    if (leafHash.length !== HASH_SIZE) throw badArgument('leaf hash must be 32 bytes');
    let node: StackNode = { height: 0, hash: Buffer.from(leafHash) };
    for (let top = this.stack.at(-1); top?.height === node.height; top = this.stack.at(-1)) {
      this.stack.pop();
      node = { height: node.height + 1, hash: hashChildren(top.hash, node.hash) };
    }
    this.stack.push(node);
    this.count++;
  }

  /** The number of leaves pushed. */
  get size(): number {
    return this.count;
  }

  /** MTH of the leaves pushed so far (RFC 9162 §2.1.1): fold the stack from the right. */
  root(): Buffer {
    let acc = this.stack.at(-1)?.hash;
    if (acc === undefined) return sha256(); // MTH({}) = SHA-256()
    for (let i = this.stack.length - 2; i >= 0; i--) {
      acc = hashChildren((this.stack[i] as StackNode).hash, acc);
    }
    return acc;
  }
}

/**
 * Verifies an inclusion proof with exactly the algorithm of RFC 9162 §2.1.3.2. Untrusted input:
 * any malformed argument (bad index or size, hashes not 32 bytes, wrong path length) is `false`.
 *
 * @example
 *   verifyInclusion(0, 1, leaf, [], leaf) // true: a one-leaf tree's root is its leaf hash
 */
export function verifyInclusion(
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!isCount(index) || !isCount(size) || index >= size) return false;
  if (!allHashes([leafHash, root, ...proof])) return false;
  let fn = index;
  let sn = size - 1;
  let r: Uint8Array = leafHash;
  for (const p of proof) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      r = hashChildren(p, r);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      r = hashChildren(r, p);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && bytesEqual(r, root);
}

/**
 * Verifies a consistency proof with the algorithm of RFC 9162 §2.1.4.2. Equal sizes need an
 * empty proof and equal roots; `oldSize` 0 (undefined in RFC 9162) and `oldSize > newSize` are
 * `false`, as is anything malformed. Untrusted input: never throws.
 *
 * @example
 *   verifyConsistency(2, 2, root2, root2, []) // true
 */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!isCount(oldSize) || !isCount(newSize) || oldSize === 0 || oldSize > newSize) return false;
  if (!allHashes([oldRoot, newRoot, ...proof])) return false;
  if (oldSize === newSize) return proof.length === 0 && bytesEqual(oldRoot, newRoot);
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (isOdd(fn)) [fn, sn] = [half(fn), half(sn)];
  let fr: Uint8Array = path[0] as Uint8Array;
  let sr: Uint8Array = fr;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = hashChildren(c, fr);
      sr = hashChildren(c, sr);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      sr = hashChildren(sr, c);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && bytesEqual(fr, oldRoot) && bytesEqual(sr, newRoot);
}

// Arithmetic instead of bit operators: JS bitwise ops truncate to 32 bits, sizes need not fit.
const isOdd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);
const isPowerOfTwo = (n: number): boolean => n > 0 && 2 ** Math.round(Math.log2(n)) === n;
const isCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

/** The k of RFC 9162 §2.1.1: the largest power of two smaller than n (n >= 2). */
function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function allHashes(hashes: readonly Uint8Array[]): boolean {
  return hashes.every((h) => h instanceof Uint8Array && h.length === HASH_SIZE);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/** Throws unless `value` is an integer in [0, end). */
function checkBelow(value: number, end: number, what: string): void {
  if (!isCount(value) || value >= end) {
    throw badArgument(`${what} ${value} is not an integer in [0, ${end})`);
  }
}

function badArgument(message: string): CoreError {
  return new CoreError('MERKLE_BAD_ARGUMENT', message);
}
