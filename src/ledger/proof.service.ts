// RFC 9162 proofs as `custody prove` prints them and the server's proof route returns them.
import { toHex } from '../core/index.js';
import type { Ledger } from './ledger.service.js';

/** The latest signed tree size that covers `atLeast` entries, else the whole ledger. */
export async function defaultProofSize(ledger: Ledger, atLeast: number): Promise<number> {
  const signed = (await ledger.checkpointSizes()).at(-1);
  return signed !== undefined && signed >= atLeast ? signed : ledger.size;
}

/** Inclusion of entry `seq` in the tree of `size` entries (RFC 9162 §2.1.3), with the entry's bytes. */
export async function inclusionProofView(ledger: Ledger, seq: number, size?: number) {
  const treeSize = size ?? (await defaultProofSize(ledger, seq + 1));
  const proof = ledger.inclusionProof(seq, treeSize);
  const [entry] = await ledger.read(seq, seq + 1);
  return {
    type: 'inclusion' as const,
    index: seq,
    tree_size: treeSize,
    leaf_hash: toHex(entry?.leafHash ?? Buffer.alloc(0)),
    root: toHex(ledger.root(treeSize)),
    proof: proof.map(toHex),
    canonical: entry?.bytes.toString('base64') ?? '',
    checkpoint: await ledger.checkpointAt(treeSize),
  };
}

/** Consistency between two tree sizes (RFC 9162 §2.1.4). */
export async function consistencyProofView(ledger: Ledger, oldSize: number, newSize?: number) {
  const to = newSize ?? (await defaultProofSize(ledger, oldSize));
  const proof = ledger.consistencyProof(oldSize, to);
  return {
    type: 'consistency' as const,
    old_size: oldSize,
    new_size: to,
    old_root: toHex(ledger.root(oldSize)),
    new_root: toHex(ledger.root(to)),
    proof: proof.map(toHex),
    old_checkpoint: await ledger.checkpointAt(oldSize),
    new_checkpoint: await ledger.checkpointAt(to),
  };
}
