import type { StoredEntry } from '../../ledger/ledger.service.js';
import { toHex } from '../../core/index.js';

/**
 * The detached completeness receipt of an export (LAYOUT.md, "The receipt"). The export's own
 * 'dissemination' entry names every exported item and the bag's tag-manifest digest, so it cannot
 * travel inside the bag it describes; it travels beside it, with an inclusion proof at a signed
 * checkpoint that covers it (RFC 9162 §2.1.3) and a consistency proof from the bag's checkpoint to
 * that one (RFC 9162 §2.1.4), so the recipient can tie the entry to the bag they hold.
 */
export interface ExportReceipt {
  format: 'custody-export-receipt';
  version: 1;
  bag: { tree_size: number; root: string; tagmanifest_sha256: string; selection: string };
  /** The dissemination entry's exact canonical bytes (its leaf data), as a JSON string. */
  entry: string;
  seq: number;
  leaf_hash: string;
  /** A signed checkpoint note at a tree size above `seq`. */
  checkpoint: string;
  inclusion_proof: string[];
  /** From the bag's tree_size to the receipt checkpoint's size. */
  consistency_proof: string[];
}

/**
 * Where the receipt of `--out` goes: beside the bag, never inside it. `DIR` → `DIR.receipt.json`,
 * `FILE.zip` → `FILE.receipt.json`.
 *
 * @example
 *   receiptPath('/cases/bag-12/') // '/cases/bag-12.receipt.json'
 *   receiptPath('/cases/bag-12.ZIP') // '/cases/bag-12.receipt.json'
 */
export function receiptPath(out: string): string {
  const trimmed = out.length > 1 ? out.replace(/\/+$/, '') : out;
  const stem = /\.zip$/i.test(trimmed) ? trimmed.slice(0, -'.zip'.length) : trimmed;
  return `${stem}.receipt.json`;
}

/** Assembles the receipt from what the writer holds right after appending the entry. */
export function buildReceipt(parts: {
  bag: ExportReceipt['bag'];
  stored: StoredEntry;
  checkpoint: string;
  inclusionProof: readonly Buffer[];
  consistencyProof: readonly Buffer[];
}): ExportReceipt {
  return {
    format: 'custody-export-receipt',
    version: 1,
    bag: parts.bag,
    entry: parts.stored.bytes.toString('utf8'),
    seq: parts.stored.entry.seq,
    leaf_hash: toHex(parts.stored.leafHash),
    checkpoint: parts.checkpoint,
    inclusion_proof: parts.inclusionProof.map(toHex),
    consistency_proof: parts.consistencyProof.map(toHex),
  };
}
