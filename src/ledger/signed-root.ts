import {
  verifyCheckpoint,
  type NoteVerifier,
  CustodyError,
  type MerkleTree,
} from '../core/index.js';

/**
 * The one index-integrity rule of the ledger: a tree of leaf hashes may be trusted up to `size`
 * only when the stored checkpoint for `size` verifies with the archive's key and names that size,
 * this origin and exactly the tree's root at that size (RFC 9162 §2.1.1). The same rule decides
 *  - whether the leaf index (leaves.bin) may stand in for re-hashing the entries on open, and
 *  - which tree size may be called "signed" (integrity/signed-checkpoint.ts: `--at signed`),
 * and an entry's bytes are used under either only when they hash to their leaf (Ledger.read), so
 * a figure labelled signed is always a replay of entries whose leaves the key holder signed.
 * Untrusted input: `note` is a file anyone with disk access can write. Returns false, never
 * throws, for anything that does not verify.
 */
export function treeMatchesSignedRoot(tree: MerkleTree, size: number, note: string | null, verifier: NoteVerifier, origin: string): boolean {
  if (note === null || !Number.isSafeInteger(size) || size < 1 || size > tree.size) return false;
  try {
    const cp = verifyCheckpoint(note, verifier);
    return cp.size === size && cp.origin === origin && cp.root.equals(tree.root(size));
  } catch (e) {
    if (e instanceof CustodyError) return false;
    throw e;
  }
}
