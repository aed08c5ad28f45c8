import {
  bytesOfBase64,
  bytesOfHex,
  hashLeafWith,
  hexOf,
  verifyCheckpointWith,
  verifyInclusionWith,
  type ProofCrypto,
} from '../../../../src/verify/portable/index';
import type { InclusionProofView } from './types';

// The custody-trail check the item page runs in the browser: a ledger entry's inclusion proof
// against the latest signed checkpoint, opened with the verifier key pinned in this browser (not
// the one the server gives today). Every input is the server's word; each step says what failed.

export type ProofFailure = 'checkpoint' | 'size' | 'index' | 'leaf' | 'inclusion';

export type ProofCheck =
  | { ok: true; seq: number; size: number; root: string; entry: string }
  | { ok: false; seq: number; step: ProofFailure; code?: string };

export function checkInclusion(
  crypto: ProofCrypto,
  input: { seq: number; note: string; pinnedKey: string; proof: InclusionProofView },
): ProofCheck {
  const { seq, note, pinnedKey, proof } = input;
  const cp = verifyCheckpointWith(crypto, note, pinnedKey);
  if (!cp.ok) return { ok: false, seq, step: 'checkpoint', code: cp.code };
  if (proof.tree_size !== cp.size) return { ok: false, seq, step: 'size' };
  if (proof.index !== seq) return { ok: false, seq, step: 'index' };
  const bytes = bytesOfBase64(proof.canonical);
  const leaf = bytes === undefined ? undefined : hashLeafWith(crypto, bytes);
  if (leaf === undefined || hexOf(leaf) !== proof.leaf_hash.toLowerCase())
    return { ok: false, seq, step: 'leaf' };
  const path = proof.proof.map((h) => bytesOfHex(h));
  if (path.some((h) => h === undefined)) return { ok: false, seq, step: 'inclusion' };
  if (!verifyInclusionWith(crypto, seq, cp.size, leaf, path as Uint8Array[], cp.root))
    return { ok: false, seq, step: 'inclusion' };
  return {
    ok: true,
    seq,
    size: cp.size,
    root: hexOf(cp.root),
    entry: new TextDecoder().decode(bytes),
  };
}
