/**
 * The ledger entries step 7 derives the tables from: the interface step 6 (check-ledger.ts,
 * `checkLedgerLines`) hands over (ISSUE11-CONTRACT §2). Until that step lands, this stand-in reads
 * custody/ledger.jsonl itself: well-formed lines are the entries; they count as proven only when
 * they are the whole tree 0 … tree_size-1 and recompute the signed root. Step 6 replaces the
 * function (the interface stays).
 */
import { hashLeaf, RootAccumulator, toHex, type JsonValue } from '../../../core/index.js';
import { parseEntry, type LedgerEntry } from '../../../ledger/entry.js';

export interface ProvenLedger {
  /** Parsed lines, seq order. */
  entries: LedgerEntry[];
  /** The seqs of the entries that an inclusion proof or the full tree proves. */
  proven: ReadonlySet<number>;
  /** The lines (with withheld-entries.json) are the whole tree at the checkpoint. */
  full: boolean;
  withheld: ReadonlyMap<number, { type: string; action: string | null }>;
}

/** Stand-in for step 6's checkLedgerLines: parses ledger.jsonl and recomputes the root when it is whole. */
export function provenLedgerFromLines(bytes: Uint8Array | undefined, checkpoint: { tree_size: number; root: string } | undefined): ProvenLedger {
  const entries: LedgerEntry[] = [];
  const leaves: Buffer[] = [];
  if (bytes !== undefined) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        const value = JSON.parse(line) as JsonValue;
        const seq = typeof value === 'object' && value !== null && !Array.isArray(value) ? value.seq : undefined;
        entries.push(parseEntry(value, typeof seq === 'number' ? seq : -1));
        leaves.push(hashLeaf(Buffer.from(line, 'utf8')));
      } catch {
        // Step 6 reports malformed lines (EXPORT_LAYOUT_INVALID); nothing is derived from them.
      }
    }
  }
  const whole = checkpoint !== undefined && entries.length === checkpoint.tree_size && entries.every((e, i) => e.seq === i);
  let full = false;
  if (whole) {
    const acc = new RootAccumulator();
    for (const l of leaves) acc.push(l);
    full = toHex(acc.root()) === checkpoint.root;
  }
  return { entries, proven: new Set(full ? entries.map((e) => e.seq) : []), full, withheld: new Map() };
}
