/**
 * Check 8 of LAYOUT.md ("completeness"), run only when a receipt is given: the detached receipt
 * of `custody export` proves that the export's 'dissemination' entry is in the log (RFC 9162
 * §2.1.3.2 inclusion, at a checkpoint signed by the key) and that the log at that checkpoint
 * extends the bag's own checkpoint (§2.1.4.2 consistency). The entry names the bag's tag-manifest
 * digest, tree size, root and selection, and every item exported: so the bag can be shown to hold
 * all that the archive recorded sending. A delivery's completeness comes from the item count of
 * its 'ingestion end' entries. Pure: bytes in, findings out.
 */
import {
  hashLeaf,
  isSha256Hex,
  openNote,
  parseCanonical,
  parseCheckpoint,
  sha256,
  toHex,
  verifyConsistency,
  verifyInclusion,
  type Checkpoint,
} from '../../core/index.js';
import type { StepFindings } from './findings.js';
import { signatureNames, type VerifierKey } from './keys.js';
import { parseJsonArray, parseJsonObject } from './layout.js';

/** What check 8 reads: the receipt and the bag's files (bytes as found; undefined when absent). */
export interface ReceiptInput {
  receipt: Uint8Array;
  /** The pinned key, else the bag's own (then `keyFromBag`: the finding says so). */
  key: VerifierKey | undefined;
  keyFromBag: boolean;
  /** The bag's checkpoint as check 3 read it. */
  checkpoint: Checkpoint | undefined;
  tagmanifest?: Uint8Array;
  exportJson?: Uint8Array;
  items?: Uint8Array;
  withheld?: Uint8Array;
  ledger?: Uint8Array;
}

interface Receipt {
  bag: { tree_size: number; root: string; tagmanifest_sha256: string; selection: string };
  entry: string;
  seq: number;
  leaf_hash: string;
  checkpoint: string;
  inclusion_proof: string[];
  consistency_proof: string[];
}

interface Dissemination {
  items: string[];
  objects: string[];
  details: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const RECEIPT = 'the receipt';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isHexList = (v: unknown): v is string[] => Array.isArray(v) && v.every((h) => typeof h === 'string' && isSha256Hex(h));
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((h) => typeof h === 'string');
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const fromHexList = (l: readonly string[]): Buffer[] => l.map((h) => Buffer.from(h, 'hex'));

/**
 * Runs check 8 and returns the step's detail line. EXPORT_RECEIPT_INVALID: the receipt is not
 * well formed, not signed by the key, its proofs fail, or its entry is not this bag's.
 * EXPORT_SELECTION_INCOMPLETE: the authenticated entry lists other items than the bag holds, or a
 * delivery's bag holds another number of items than its ingestion ended with.
 *
 * @example
 *   const s8 = new StepFindings(8);
 *   checkReceipt({ receipt, key, keyFromBag: false, checkpoint, items, withheld, … }, s8);
 *   s8.ok // true: the bag holds every item its export recorded
 */
export function checkReceipt(input: ReceiptInput, out: StepFindings): string {
  const receipt = parseReceipt(input.receipt);
  if (typeof receipt === 'string') return invalid(out, receipt);
  const bag = input.checkpoint;
  if (bag === undefined) return invalid(out, 'the bag has no readable checkpoint to tie the receipt to');
  if (input.key === undefined) return invalid(out, 'no usable key to check the receipt checkpoint with');
  const entryBytes = Buffer.from(receipt.entry, 'utf8');
  const entry = parseEntry(entryBytes, receipt.seq);
  if (typeof entry === 'string') return invalid(out, entry);
  const leaf = hashLeaf(entryBytes);
  if (toHex(leaf) !== receipt.leaf_hash) return invalid(out, `${RECEIPT}'s leaf_hash is not SHA-256(0x00 || entry): the entry was changed`);
  let signed: Checkpoint;
  try {
    signed = parseCheckpoint(openNote(receipt.checkpoint, input.key.verifiers(signatureNames(receipt.checkpoint))).text);
  } catch (e) {
    return invalid(out, `${RECEIPT}'s checkpoint is not signed by the key: ${(e as Error).message}`);
  }
  if (input.keyFromBag) out.warn('EXPORT_KEY_NOT_PINNED', `${RECEIPT}'s checkpoint was checked with the key in the bag itself; pin it (--key) to know the archive signed it`);
  if (signed.origin !== bag.origin) return invalid(out, `${RECEIPT}'s checkpoint is of ${signed.origin}, the bag's of ${bag.origin}`);
  if (receipt.seq < bag.size || receipt.seq >= signed.size) {
    return invalid(out, `${RECEIPT}'s entry ${receipt.seq} is not after the bag's checkpoint (${bag.size}) and within its own (${signed.size})`);
  }
  if (!verifyInclusion(receipt.seq, signed.size, leaf, fromHexList(receipt.inclusion_proof), signed.root)) {
    return invalid(out, `${RECEIPT}'s inclusion proof does not recompute its checkpoint's root (RFC 9162 §2.1.3.2): the entry or the proof was changed`);
  }
  if (!verifyConsistency(bag.size, signed.size, bag.root, signed.root, fromHexList(receipt.consistency_proof))) {
    return invalid(out, `${RECEIPT}'s consistency proof does not show the bag's checkpoint ${bag.size} is a prefix of the log at ${signed.size} (RFC 9162 §2.1.4.2)`);
  }
  const facts = bagFacts(input, bag);
  const wrong = sameExport(receipt, entry, facts);
  if (wrong !== null) return invalid(out, wrong);
  // The same export (checkpoint and selection): a changed bag is a finding, and its items are
  // still compared, so that the finding says what is missing.
  if (facts.tagmanifest === undefined || entry.details.tagmanifest_sha256 !== facts.tagmanifest || receipt.bag.tagmanifest_sha256 !== facts.tagmanifest) {
    out.error('EXPORT_RECEIPT_INVALID', `the export recorded the tag-manifest digest ${String(entry.details.tagmanifest_sha256)}, this bag's is ${facts.tagmanifest ?? 'unreadable'}: the bag was changed after the export`, 'tagmanifest-sha256.txt');
  }
  const counted = compareSelection(entry, input, out);
  const delivery = checkDeliveries(facts.selection, counted, input.ledger, out);
  return `entry ${receipt.seq} (dissemination) is in the log at signed size ${signed.size}, which extends the bag's checkpoint ${bag.size}; it names the ${counted.rows} items of items.json and ${counted.withdrawn} withdrawn${delivery}`;
}

function invalid(out: StepFindings, message: string): string {
  out.error('EXPORT_RECEIPT_INVALID', message);
  return '';
}

/** The receipt file (untrusted: it travels beside the bag and anyone may edit it). */
function parseReceipt(bytes: Uint8Array): Receipt | string {
  const v = parseJsonObject(bytes, RECEIPT);
  if (typeof v === 'string') return v;
  if (v.format !== 'custody-export-receipt' || v.version !== 1) return `${RECEIPT} is not {"format":"custody-export-receipt","version":1}`;
  const { bag, entry, seq, leaf_hash, checkpoint, inclusion_proof, consistency_proof } = v;
  if (!isObject(bag) || !isCount(bag.tree_size) || typeof bag.root !== 'string' || typeof bag.tagmanifest_sha256 !== 'string' || typeof bag.selection !== 'string') {
    return `${RECEIPT}'s "bag" lacks tree_size, root, tagmanifest_sha256 or selection`;
  }
  if (typeof entry !== 'string' || !isCount(seq) || typeof leaf_hash !== 'string' || !isSha256Hex(leaf_hash) || typeof checkpoint !== 'string') {
    return `${RECEIPT} lacks entry, seq, leaf_hash (lowercase hex) or checkpoint`;
  }
  if (!isHexList(inclusion_proof) || !isHexList(consistency_proof)) return `${RECEIPT}'s proofs must be lists of lowercase 64-digit hex`;
  const b = { tree_size: bag.tree_size, root: bag.root, tagmanifest_sha256: bag.tagmanifest_sha256, selection: bag.selection };
  return { bag: b, entry, seq, leaf_hash, checkpoint, inclusion_proof, consistency_proof };
}

/** The entry: canonical JSON (RFC 8785) of a 'dissemination' entry with this seq. */
function parseEntry(bytes: Buffer, seq: number): Dissemination | string {
  let v: unknown;
  try {
    v = parseCanonical(bytes);
  } catch (e) {
    return `${RECEIPT}'s entry is not canonical JSON: ${(e as Error).message}`;
  }
  if (!isObject(v) || v.type !== 'dissemination' || v.seq !== seq) return `${RECEIPT}'s entry is not the dissemination entry ${seq}`;
  if (!isStringList(v.items) || !isStringList(v.objects) || !isObject(v.details)) return `${RECEIPT}'s entry lacks items, objects or details`;
  return { items: v.items, objects: v.objects, details: v.details };
}

interface BagFacts {
  size: number;
  root: string;
  tagmanifest: string | undefined;
  selection: string | undefined;
}

function bagFacts(input: ReceiptInput, cp: Checkpoint): BagFacts {
  const ej = input.exportJson === undefined ? 'absent' : parseJsonObject(input.exportJson, 'custody/export.json');
  return {
    size: cp.size,
    root: toHex(cp.root),
    tagmanifest: input.tagmanifest === undefined ? undefined : toHex(sha256(input.tagmanifest)),
    selection: typeof ej === 'object' && typeof ej.selection === 'string' ? ej.selection : undefined,
  };
}

/** The receipt and its entry speak of this bag's export: its checkpoint and selection. */
function sameExport(receipt: Receipt, entry: Dissemination, bag: BagFacts): string | null {
  const d = entry.details;
  const pairs: [string, unknown, unknown, unknown][] = [
    ['tree size', bag.size, receipt.bag.tree_size, d.tree_size],
    ['root', bag.root, receipt.bag.root, d.root],
    ['selection', bag.selection, receipt.bag.selection, d.selection],
  ];
  for (const [what, mine, stated, recorded] of pairs) {
    if (mine === undefined) return `the bag's ${what} cannot be read, so the receipt cannot be tied to it`;
    if (recorded !== mine) return `the receipt's entry records the ${what} ${JSON.stringify(recorded)}, this bag's is ${JSON.stringify(mine)}: it is the receipt of another export`;
    if (stated !== mine) return `the receipt states the ${what} ${JSON.stringify(stated)}, this bag's is ${JSON.stringify(mine)}`;
  }
  return null;
}

interface Counted {
  rows: number;
  withdrawn: number;
}

/**
 * The entry's items equal items.json's (as a set: LAYOUT.md lets rows come in any order); its objects their digests; the withdrawn,
 * withheld and substituted items it lists equal custody/withheld.json's (export.service.ts writes
 * the entry from the same lists as the bag).
 */
function compareSelection(entry: Dissemination, input: ReceiptInput, out: StepFindings): Counted {
  const rows = objectsOf(input.items, 'data/tables/items.json', out);
  const withheld = objectsOf(input.withheld, 'custody/withheld.json', out);
  const ids = rows.map((r) => String(r.item_id));
  const inBag = new Set(ids);
  const incomplete = (message: string, path: string): void => out.error('EXPORT_SELECTION_INCOMPLETE', message, path);
  const listed = new Set(entry.items);
  const missing = entry.items.filter((i) => !inBag.has(i));
  const extra = ids.filter((i) => !listed.has(i));
  if (missing.length > 0) incomplete(`the export recorded ${missing.length} item(s) that data/tables/items.json lacks: ${sample(missing)}`, 'data/tables/items.json');
  if (extra.length > 0) incomplete(`data/tables/items.json has ${extra.length} item(s) the export did not record: ${sample(extra)}`, 'data/tables/items.json');
  if (missing.length === 0 && extra.length === 0 && ids.length !== entry.items.length) incomplete(`data/tables/items.json has ${ids.length} rows for the ${entry.items.length} items the export recorded`, 'data/tables/items.json');
  if (entry.details.items !== entry.items.length) incomplete(`the entry counts ${String(entry.details.items)} items but lists ${entry.items.length}`, 'data/tables/items.json');
  const objects = [...new Set(rows.map((r) => String(r.sha256)))].sort();
  if (objects.join('\n') !== entry.objects.join('\n')) incomplete("the digests in data/tables/items.json are not the objects the export recorded", 'data/tables/items.json');
  const recorded = Array.isArray(entry.details.withheld) ? entry.details.withheld.filter(isObject) : [];
  const kindOf = (w: Json): string => (typeof w.kind === 'string' ? w.kind : w.substitute !== null && w.substitute !== undefined ? 'substituted' : inBag.has(String(w.item_id)) ? 'withheld' : 'withdrawn');
  const substitutedRecorded = Array.isArray(entry.details.substituted) ? entry.details.substituted.filter(isObject).map((s) => String(s.item)) : [];
  for (const kind of ['withdrawn', 'withheld', 'substituted']) {
    const fromEntry = kind === 'substituted' ? substitutedRecorded : recorded.filter((w) => w.kind === kind).map((w) => String(w.item_id));
    const fromBag = withheld.filter((w) => kindOf(w) === kind).map((w) => String(w.item_id));
    if ([...fromEntry].sort().join('\n') !== [...fromBag].sort().join('\n')) {
      incomplete(`custody/withheld.json lists ${fromBag.length} ${kind} item(s), the export recorded ${fromEntry.length}: ${sample(symmetricDifference(fromEntry, fromBag))}`, 'custody/withheld.json');
    }
  }
  return { rows: rows.length, withdrawn: withheld.filter((w) => kindOf(w) === 'withdrawn').length };
}

function objectsOf(bytes: Uint8Array | undefined, path: string, out: StepFindings): Json[] {
  const parsed = bytes === undefined ? `${path} is missing` : parseJsonArray(bytes, path);
  if (typeof parsed === 'string') {
    out.error('EXPORT_SELECTION_INCOMPLETE', `${parsed}: the selection cannot be compared with the receipt`, path);
    return [];
  }
  return parsed;
}

function symmetricDifference(a: readonly string[], b: readonly string[]): string[] {
  const sa = new Set(a);
  const sb = new Set(b);
  return [...a.filter((x) => !sb.has(x)), ...b.filter((x) => !sa.has(x))];
}

function sample(ids: readonly string[]): string {
  return ids.length <= 5 ? ids.join(', ') : `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more`;
}

/**
 * A selection of deliveries only (`delivery:ID[+delivery:ID…]`): the bag holds (rows plus
 * withdrawn) as many items as the deliveries' 'ingestion end' entries say were added
 * (summary.items_added, which counts container members too). Checked only when every run over
 * those deliveries in the bag's ledger ended (a killed run's items are counted by no end entry).
 */
function checkDeliveries(selection: string | undefined, counted: Counted, ledger: Uint8Array | undefined, out: StepFindings): string {
  const terms = (selection ?? '').split('+').map((t) => t.trim());
  if (terms.length === 0 || !terms.every((t) => /^delivery:[A-Za-z0-9][A-Za-z0-9_-]*$/.test(t))) return '';
  const deliveries = new Set(terms.map((t) => t.slice('delivery:'.length).toUpperCase()));
  const runs = new Map<string, { starts: number; ends: number; added: number }>([...deliveries].map((d) => [d, { starts: 0, ends: 0, added: 0 }]));
  for (const line of Buffer.from(ledger ?? new Uint8Array()).toString('utf8').split('\n')) {
    const e = parseLine(line);
    const d = e !== undefined && isObject(e.details) && typeof e.details.delivery === 'string' ? runs.get(e.details.delivery.toUpperCase()) : undefined;
    if (e === undefined || d === undefined) continue;
    if (e.type === 'ingestion start') d.starts++;
    if (e.type === 'ingestion end') {
      d.ends++;
      const summary = isObject(e.details) ? e.details.summary : undefined;
      d.added += isObject(summary) && isCount(summary.items_added) ? summary.items_added : Number.NaN;
    }
  }
  const unchecked = [...runs].filter(([, r]) => r.ends === 0 || r.starts > r.ends || Number.isNaN(r.added)).map(([d]) => d);
  if (unchecked.length > 0) return `; the item count of delivery ${unchecked.join(', ')} is not checked: the bag's ledger has no ended run over it (or a run that did not end)`;
  const expected = [...runs.values()].reduce((a, r) => a + r.added, 0);
  const held = counted.rows + counted.withdrawn;
  if (held !== expected) {
    out.error('EXPORT_SELECTION_INCOMPLETE', `the ingestion end entries of ${[...deliveries].join(', ')} record ${expected} items added, the bag holds ${held} (${counted.rows} in items.json, ${counted.withdrawn} withdrawn)`, 'data/tables/items.json');
    return '';
  }
  return `; the ${expected} items the deliveries' ingestion end entries record`;
}

function parseLine(line: string): Json | undefined {
  if (line.trim() === '') return undefined;
  try {
    const v: unknown = JSON.parse(line);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined; // check 6 reports malformed lines
  }
}
