/**
 * Check 6 of LAYOUT.md: every line of custody/ledger.jsonl is proven against the signed
 * checkpoint. Either the bag carries the full ledger, and its lines together with the leaf hashes
 * of custody/withheld-entries.json cover entries 0 … tree_size-1 exactly and recompute the signed
 * root (RFC 9162 §2.1.1, streamed with a RootAccumulator); or each line has an inclusion proof
 * (custody/ledger-proofs.jsonl, or an item proof of check 4) that recomputes the root
 * (RFC 9162 §2.1.3.2). Inclusion proofs show that what is shown is authentic, not that nothing
 * was left out: without the full ledger the process is not proven complete
 * (EXPORT_PROCESS_INCOMPLETE, a warning).
 */
import {
  fromHex,
  hashLeaf,
  isSha256Hex,
  parseCanonical,
  RootAccumulator,
  toHex,
  verifyInclusion,
  type Checkpoint,
  type JsonValue,
} from '../../core/index.js';
// Type only (erased at run time): verify/ still imports nothing but core/.
import type { LedgerEntry } from '../../ledger/index.js';
import type { StepFindings } from './findings.js';

/** What check 6 hands to check 7: the parsed lines and which of them are proven. */
export interface ProvenLedger {
  /** The parsed lines of custody/ledger.jsonl, in seq order (malformed lines left out). */
  entries: LedgerEntry[];
  /** The seqs of the lines proven against the signed checkpoint. */
  proven: ReadonlySet<number>;
  /**
   * True only when the bag declares the full ledger and its lines plus the withheld leaf hashes
   * recompute the signed root: then nothing was left out (claims about the process are complete).
   */
  full: boolean;
  /** Withheld entries (custody/withheld-entries.json) by seq: their stated, unverifiable type and action. */
  withheld: ReadonlyMap<number, { type: string; action: string | null }>;
}

export interface LedgerInput {
  /** custody/ledger.jsonl (undefined when absent). */
  ledger: Uint8Array | undefined;
  /** custody/ledger-proofs.jsonl (undefined when absent). */
  ledgerProofs: Uint8Array | undefined;
  /** custody/withheld-entries.json (undefined when absent). */
  withheldEntries: Uint8Array | undefined;
  /** custody/export.json's full_ledger (undefined when the bag does not say: not full). */
  fullLedger: boolean | undefined;
  /** Entries check 4 proved (custody/entries/<seq>.json): seq → their exact bytes. */
  provenEntries: ReadonlyMap<number, Uint8Array>;
}

/** The step's detail on success, for a person. */
export const PROCESS_INCOMPLETE =
  'the bag does not carry the full ledger: every entry shown is authentic (proven by its inclusion proof), ' +
  'but nothing proves that none was left out (a later adjudication, unlink or withdrawal could be missing)';

interface Line {
  /** 1-based line number in custody/ledger.jsonl. */
  line: number;
  bytes: Uint8Array;
  entry: LedgerEntry;
}

interface LineProof {
  leaf_hash: string;
  proof: string[];
}

interface Withheld {
  seq: number;
  leaf: Buffer;
  type: string;
  action: string | null;
}

const LEDGER = 'custody/ledger.jsonl';
const PROOFS = 'custody/ledger-proofs.jsonl';
const WITHHELD = 'custody/withheld-entries.json';

/**
 * Check 6. Reports to `out` and returns the proven ledger and the step's detail.
 *
 * @example
 *   const { ledger } = checkLedgerLines(checkpoint, { ledger: jsonl, ledgerProofs: undefined,
 *     withheldEntries: Buffer.from('[]'), fullLedger: true, provenEntries: new Map() }, out);
 *   ledger.full // true when the lines recompute checkpoint.root
 */
export function checkLedgerLines(
  cp: Checkpoint | undefined,
  input: LedgerInput,
  out: StepFindings,
): { ledger: ProvenLedger; detail: string } {
  const { lines, malformed } = parseLines(input.ledger, out);
  const withheld = parseWithheld(input.withheldEntries, input.fullLedger === true, out);
  const withheldMap = new Map(withheld.map((w) => [w.seq, { type: w.type, action: w.action }]));
  const entries = [...lines].sort((a, b) => a.entry.seq - b.entry.seq).map((l) => l.entry);
  const proven = new Set<number>();
  const result = (full: boolean, detail: string) => ({ ledger: { entries, proven, full, withheld: withheldMap }, detail });
  if (cp === undefined) {
    if (lines.length > 0) out.error('EXPORT_ENTRY_UNPROVEN', 'no readable checkpoint to prove the ledger lines against', LEDGER);
    return result(false, 'no checkpoint');
  }
  const proofs = parseLineProofs(input.ledgerProofs, out);
  if (input.fullLedger === true) {
    const failure =
      input.ledger === undefined
        ? `${LEDGER} is missing`
        : malformed > 0
          ? `${malformed} of its lines are not ledger entries`
          : recomputeRoot(cp, lines, withheld);
    if (failure === null) {
      for (const l of lines) proven.add(l.entry.seq);
      const w = withheld.length === 0 ? '' : ` and ${withheld.length} withheld leaf hashes`;
      return result(true, `full ledger: ${lines.length} lines${w} recompute the signed root at ${cp.size}`);
    }
    out.error(
      'EXPORT_ENTRY_UNPROVEN',
      `the full ledger does not recompute the signed root: ${failure}; an entry was changed, added or removed`,
      LEDGER,
    );
    // What a shipped proof still shows, line by line: which lines are authentic, which are not.
    for (const l of lines) {
      const has = proofs.has(l.entry.seq) || input.provenEntries.has(l.entry.seq);
      if (!has) continue;
      const why = lineProven(cp, l, proofs.get(l.entry.seq), input.provenEntries.get(l.entry.seq));
      if (why === null) proven.add(l.entry.seq);
      else unproven(out, l, why);
    }
    return result(false, `full ledger: ${failure}`);
  }
  for (const l of lines) {
    const why = lineProven(cp, l, proofs.get(l.entry.seq), input.provenEntries.get(l.entry.seq));
    if (why === null) proven.add(l.entry.seq);
    else unproven(out, l, why);
  }
  out.warn('EXPORT_PROCESS_INCOMPLETE', PROCESS_INCOMPLETE, LEDGER);
  const shown = `${proven.size} of ${lines.length} ledger lines proven one by one by their inclusion proofs`;
  return result(false, `${shown}; not the full ledger, so authentic but not proven complete`);
}

function unproven(out: StepFindings, l: Line, why: string): void {
  out.error('EXPORT_ENTRY_UNPROVEN', `${LEDGER} line ${l.line} (entry ${l.entry.seq}) is not proven: ${why}`, LEDGER, {
    seq: l.entry.seq,
    line: l.line,
  });
}

/** Null when the line is proven by its proof line or by an entry check 4 proved; else why not. */
function lineProven(cp: Checkpoint, l: Line, proof: LineProof | undefined, entryBytes: Uint8Array | undefined): string | null {
  if (entryBytes !== undefined && Buffer.from(entryBytes).equals(l.bytes)) return null;
  if (proof === undefined) {
    return entryBytes === undefined
      ? `no inclusion proof for it in ${PROOFS}`
      : `it differs from custody/entries/${l.entry.seq}.json, whose inclusion proof holds`;
  }
  const leaf = hashLeaf(l.bytes); // RFC 9162 §2.1.1: SHA-256(0x00 || entry bytes)
  if (toHex(leaf) !== proof.leaf_hash) return `its leaf hash is not the one its proof in ${PROOFS} proves (the line was changed)`;
  if (!verifyInclusion(l.entry.seq, cp.size, leaf, proof.proof.map(fromHex), cp.root)) {
    return `its inclusion proof in ${PROOFS} does not recompute the signed root at ${cp.size}`;
  }
  return null;
}

/**
 * Lines and withheld leaf hashes, merged by seq, must be exactly 0 … size-1; their root, pushed
 * one leaf at a time (O(log n) memory), must be the checkpoint's. Null when so, else why not.
 */
function recomputeRoot(cp: Checkpoint, lines: readonly Line[], withheld: readonly Withheld[]): string | null {
  const acc = new RootAccumulator();
  let i = 0;
  let w = 0;
  const held = [...withheld].sort((a, b) => a.seq - b.seq);
  for (let seq = 0; seq < cp.size; seq++) {
    const line = lines[i];
    const hold = held[w];
    if (line?.entry.seq === seq && hold?.seq === seq) return `entry ${seq} is both a line and withheld`;
    if (line?.entry.seq === seq) {
      acc.push(hashLeaf(line.bytes));
      i++;
    } else if (hold?.seq === seq) {
      acc.push(hold.leaf);
      w++;
    } else {
      return `entry ${seq} is neither a line (in seq order) nor withheld`;
    }
  }
  const extra = lines.length - i + (held.length - w);
  if (extra > 0) return `${extra} lines or withheld entries lie beyond the tree size ${cp.size} or out of seq order`;
  if (!acc.root().equals(cp.root)) {
    return `its ${lines.length} lines and ${held.length} withheld leaf hashes give the root ${toHex(acc.root())}, not the signed ${toHex(cp.root)}`;
  }
  return null;
}

/** custody/ledger.jsonl: one canonical entry per line, each ending in "\n". Untrusted input. */
function parseLines(bytes: Uint8Array | undefined, out: StepFindings): { lines: Line[]; malformed: number } {
  const lines: Line[] = [];
  let malformed = 0;
  if (bytes === undefined) {
    out.error('EXPORT_LAYOUT_INVALID', `${LEDGER} is missing`, LEDGER);
    return { lines, malformed };
  }
  let previous = -1;
  for (const [k, raw] of splitLines(bytes, LEDGER, out).entries()) {
    const line = k + 1;
    const entry = parseEntryLine(raw);
    if (typeof entry === 'string') {
      out.error('EXPORT_LAYOUT_INVALID', `${LEDGER} line ${line}: ${entry}`, LEDGER, { line });
      malformed++;
      continue;
    }
    if (entry.seq <= previous) {
      out.error('EXPORT_LAYOUT_INVALID', `${LEDGER} line ${line}: entry ${entry.seq} does not follow entry ${previous} (lines are in seq order, once each)`, LEDGER, { line });
    }
    previous = Math.max(previous, entry.seq);
    lines.push({ line, bytes: raw, entry });
  }
  return { lines, malformed };
}

/** Splits at "\n"; the file must end with one, and no line may be empty. */
function splitLines(bytes: Uint8Array, path: string, out: StepFindings): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, start)) {
    parts.push(bytes.subarray(start, i));
    start = i + 1;
  }
  if (start < bytes.length) {
    out.error('EXPORT_LAYOUT_INVALID', `${path} does not end with a newline`, path, { line: parts.length + 1 });
    parts.push(bytes.subarray(start));
  }
  return parts;
}

const isCount = (v: JsonValue | undefined): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isStrings = (v: JsonValue | undefined): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isRecord = (v: JsonValue | undefined): v is { [k: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A ledger line as the ledger writes it: canonical JSON (RFC 8785) of exactly the entry's keys.
 * The entry type is not checked against a list here: an unknown type is still a leaf.
 */
function parseEntryLine(bytes: Uint8Array): LedgerEntry | string {
  let v: JsonValue;
  try {
    v = parseCanonical(bytes);
  } catch {
    return 'not a canonical JSON entry (RFC 8785)';
  }
  if (!isRecord(v)) return 'not a JSON object';
  if (Object.keys(v).sort().join(',') !== 'actor,details,items,objects,seq,time,type') return 'not a ledger entry (keys)';
  const { seq, time, actor, type, items, objects, details } = v;
  if (!isCount(seq) || typeof time !== 'string' || typeof actor !== 'string' || typeof type !== 'string') return 'malformed seq, time, actor or type';
  if (!isStrings(items) || !isStrings(objects) || !isRecord(details)) return 'malformed items, objects or details';
  return { seq, time, actor, type: type as LedgerEntry['type'], items, objects, details };
}

/** custody/ledger-proofs.jsonl: `{"leaf_hash","proof","seq"}` per line, by seq. */
function parseLineProofs(bytes: Uint8Array | undefined, out: StepFindings): Map<number, LineProof> {
  const proofs = new Map<number, LineProof>();
  if (bytes === undefined) return proofs;
  for (const [k, raw] of splitLines(bytes, PROOFS, out).entries()) {
    let v: JsonValue;
    try {
      v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw)) as JsonValue;
    } catch {
      v = null;
    }
    const parsed = isRecord(v) ? v : {};
    const { seq, leaf_hash, proof } = parsed;
    const ok = isCount(seq) && typeof leaf_hash === 'string' && isSha256Hex(leaf_hash) && isStrings(proof) && proof.every(isSha256Hex);
    if (!ok || proofs.has(seq)) {
      out.error('EXPORT_LAYOUT_INVALID', `${PROOFS} line ${k + 1} is not {"leaf_hash","proof","seq"} (lowercase hex), once per seq`, PROOFS, { line: k + 1 });
      continue;
    }
    proofs.set(seq, { leaf_hash, proof });
  }
  return proofs;
}

/** custody/withheld-entries.json; the leaf hash is required when the ledger is full (it enters the root). */
function parseWithheld(bytes: Uint8Array | undefined, full: boolean, out: StepFindings): Withheld[] {
  if (bytes === undefined) {
    out.error('EXPORT_LAYOUT_INVALID', `${WITHHELD} is missing`, WITHHELD);
    return [];
  }
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    v = null;
  }
  if (!Array.isArray(v)) {
    out.error('EXPORT_LAYOUT_INVALID', `${WITHHELD} is not a JSON array`, WITHHELD);
    return [];
  }
  const records: Withheld[] = [];
  v.forEach((r: unknown, index) => {
    const x = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
    const { seq, leaf_hash, type, action } = x;
    const hashOk = typeof leaf_hash === 'string' && isSha256Hex(leaf_hash);
    if (typeof seq !== 'number' || !isCount(seq) || typeof x.reason !== 'string' || (full && !hashOk)) {
      out.error('EXPORT_LAYOUT_INVALID', `${WITHHELD} record ${index + 1} lacks seq, reason or leaf_hash (lowercase hex)`, WITHHELD, { index });
      return;
    }
    records.push({
      seq,
      leaf: hashOk ? fromHex(leaf_hash) : Buffer.alloc(0),
      type: typeof type === 'string' ? type : '?',
      action: typeof action === 'string' ? action : null,
    });
  });
  return records;
}
