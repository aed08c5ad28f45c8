/**
 * Checks 4 and 5 of LAYOUT.md. Check 4: each custody/proofs/<item-id>.json proves its entry's
 * inclusion under the checkpoint root (RFC 9162 §2.1.3.2). Check 5: that entry is the `ingestion`
 * of exactly this item, and its object digest is the SHA-256 of the file in data/items/ (or, for a
 * withheld item, of the original the table still names).
 */
import {
  fromHex,
  hashLeaf,
  isSha256Hex,
  parseCanonical,
  toHex,
  verifyInclusion,
  type Checkpoint,
  type JsonValue,
} from '../../core/index.js';
import type { StepFindings } from './findings.js';
import { isItemPath, previewPath, type ItemRow, type ProofFile, type WithheldRecord } from './layout.js';

/** One proof as read from the bag, with its entry's exact bytes (undefined when absent). */
export interface ProofInput {
  path: string;
  proof: ProofFile;
  entryBytes?: Uint8Array;
}

export interface IngestionEntry {
  seq: number;
  items: string[];
  objects: string[];
}

/** Check 4. Returns the entries whose inclusion was proven, by item id. */
export function checkProofs(cp: Checkpoint, proofs: readonly ProofInput[], out: StepFindings): Map<string, IngestionEntry> {
  const proven = new Map<string, IngestionEntry>();
  for (const { path, proof, entryBytes } of proofs) {
    if (path !== `custody/proofs/${proof.item_id}.json`) {
      out.error('EXPORT_PROOF_INVALID', `${path} carries item_id ${proof.item_id}`, path);
      continue;
    }
    if (proof.entry !== `entries/${proof.seq}.json` || entryBytes === undefined) {
      out.error('EXPORT_PROOF_INVALID', `${path}: entry must be "entries/${proof.seq}.json" and present in custody/`, path);
      continue;
    }
    const leaf = hashLeaf(entryBytes); // RFC 9162 §2.1.1: SHA-256(0x00 || entry bytes)
    if (toHex(leaf) !== proof.leaf_hash) {
      out.error('EXPORT_PROOF_INVALID', `${path}: leaf_hash is not SHA-256(0x00 || custody/${proof.entry})`, path);
      continue;
    }
    if (proof.tree_size !== cp.size) {
      out.error('EXPORT_PROOF_INVALID', `${path}: tree_size ${proof.tree_size} is not the checkpoint's ${cp.size}`, path);
      continue;
    }
    if (!verifyInclusion(proof.seq, proof.tree_size, leaf, proof.proof.map(fromHex), cp.root)) {
      out.error('EXPORT_PROOF_INVALID', `${path}: the inclusion proof does not recompute the checkpoint root`, path);
      continue;
    }
    const entry = parseIngestion(entryBytes, proof.seq);
    if (typeof entry === 'string') out.error('EXPORT_ENTRY_MISMATCH', `custody/${proof.entry}: ${entry}`, `custody/${proof.entry}`);
    else proven.set(proof.item_id, entry);
  }
  return proven;
}

/** An entry's canonical bytes (RFC 8785, as the ledger writes them) with the fields check 5 needs. */
export function parseIngestion(bytes: Uint8Array, seq: number): IngestionEntry | string {
  let v: JsonValue;
  try {
    v = parseCanonical(bytes);
  } catch (e) {
    return (e as Error).message;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const { type, items, objects } = v;
  if (v.seq !== seq) return `carries seq ${JSON.stringify(v.seq)}, not ${seq}`;
  if (type !== 'ingestion') return `is a ${JSON.stringify(type)} entry, not an ingestion`;
  const strings = (x: JsonValue | undefined): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
  if (!strings(items) || !strings(objects) || !objects.every(isSha256Hex)) return 'has malformed items or objects';
  return { seq, items, objects };
}

export interface EvidenceInput {
  rows: readonly ItemRow[];
  withheld: readonly WithheldRecord[];
  /** items from custody/export.json. */
  declaredCount: number;
  /** The entries check 4 proved, by item id. */
  proven: ReadonlyMap<string, IngestionEntry>;
  /** Item ids that have a proof file (proven or not). */
  withProof: ReadonlySet<string>;
  /** Regular files under data/items/ and data/previews/, with their sizes. */
  files: ReadonlyMap<string, number>;
  /** SHA-256 of a payload file (from the BagIt pass, or computed now). */
  sha256Of: (path: string) => Promise<string | undefined>;
}

/** Check 5, row by row of data/tables/items.json. */
export async function checkEvidence(input: EvidenceInput, out: StepFindings): Promise<number> {
  const { rows, proven } = input;
  if (rows.length !== input.declaredCount) {
    out.error('EXPORT_ENTRY_MISMATCH', `data/tables/items.json has ${rows.length} rows, custody/export.json says ${input.declaredCount} items`, 'data/tables/items.json');
  }
  const claimed = new Set<string>();
  let checked = 0;
  for (const row of rows) {
    const id = row.item_id;
    if (!input.withProof.has(id)) {
      out.error('EXPORT_PROOF_MISSING', `item ${id} has no custody/proofs/${id}.json`, `custody/proofs/${id}.json`);
      continue;
    }
    const entry = proven.get(id);
    if (entry === undefined) continue; // check 4 already said why
    if (entry.items.length !== 1 || entry.items[0] !== id || entry.seq !== row.ingestion_seq) {
      out.error('EXPORT_ENTRY_MISMATCH', `entry ${entry.seq} is the ingestion of ${JSON.stringify(entry.items)}, not of item ${id} (ingestion_seq ${row.ingestion_seq})`, `custody/proofs/${id}.json`);
      continue;
    }
    if (entry.objects.length !== 1 || entry.objects[0] !== row.sha256) {
      out.error('EXPORT_ENTRY_MISMATCH', `item ${id}: the table's sha256 ${row.sha256} is not the entry's object ${entry.objects.join(', ')}`, 'data/tables/items.json');
      continue;
    }
    if (row.bag_path !== null) claimed.add(row.bag_path);
    if (row.withheld === null ? await checkItemFile(row, input, out) : checkWithheld(row, input, out)) checked++;
  }
  for (const path of input.files.keys()) {
    if (!claimed.has(path)) out.error('EXPORT_ENTRY_MISMATCH', `${path} is not the file of any exported item`, path);
  }
  for (const id of input.withProof) {
    if (!rows.some((r) => r.item_id === id)) out.error('EXPORT_ENTRY_MISMATCH', `custody/proofs/${id}.json is for an item not in the table`, `custody/proofs/${id}.json`);
  }
  return checked;
}

async function checkItemFile(row: ItemRow, input: EvidenceInput, out: StepFindings): Promise<boolean> {
  const path = row.bag_path;
  if (path === null || !isItemPath(path, row.item_id) || !input.files.has(path)) {
    out.error('EXPORT_ENTRY_MISMATCH', `item ${row.item_id}: bag_path ${JSON.stringify(path)} is not a file data/items/${row.item_id}-<name> in the bag`, path ?? undefined);
    return false;
  }
  const actual = await input.sha256Of(path);
  if (actual !== row.sha256 || input.files.get(path) !== row.size) {
    out.error('EXPORT_ENTRY_MISMATCH', `${path}: SHA-256 ${actual ?? 'unknown'} (${input.files.get(path)} bytes) is not the ingested object ${row.sha256} (${row.size} bytes)`, path);
    return false;
  }
  return true;
}

/** A withheld item: withheld.json says so and why; a substitute, if any, is its preview. */
function checkWithheld(row: ItemRow, input: EvidenceInput, out: StepFindings): boolean {
  const record = input.withheld.find((w) => w.item_id === row.item_id);
  if (record === undefined) {
    out.error('EXPORT_ENTRY_MISMATCH', `item ${row.item_id} is marked withheld but custody/withheld.json does not list it`, 'custody/withheld.json');
    return false;
  }
  const ok = record.substitute === row.bag_path && (row.bag_path === null || (row.bag_path === previewPath(row.item_id) && input.files.has(row.bag_path)));
  if (!ok) {
    out.error('EXPORT_ENTRY_MISMATCH', `item ${row.item_id}: bag_path ${JSON.stringify(row.bag_path)} is not the substitute withheld.json names (${JSON.stringify(record.substitute)})`, 'custody/withheld.json');
  }
  return ok;
}
