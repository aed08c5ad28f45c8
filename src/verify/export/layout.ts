/**
 * The JSON files of a Custody export bag (src/reports/export/LAYOUT.md), parsed strictly.
 * Untrusted input: every file comes from the bag. Each parser returns the value or a one-line
 * reason; it never throws.
 */
import { isSha256Hex } from '../../core/index.js';

export interface ExportJson {
  origin: string;
  tree_size: number;
  root: string;
  items: number;
  redacted: boolean;
}

export interface ProofFile {
  item_id: string;
  seq: number;
  tree_size: number;
  leaf_hash: string;
  proof: string[];
  entry: string;
}

export interface ItemRow {
  item_id: string;
  /** data/items/<item-id>-<name>, data/previews/<item-id>.webp, or null when withheld outright. */
  bag_path: string | null;
  sha256: string;
  size: number;
  ingestion_seq: number;
  withheld: string | null;
}

export interface WithheldRecord {
  item_id: string;
  reason: string;
  /** The file given in the item's place (data/previews/<item-id>.webp), or null. */
  substitute: string | null;
}

type Json = Record<string, unknown>;
type Parsed<T> = T | string;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isString = (v: unknown): v is string => typeof v === 'string';
const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** JSON.parse of UTF-8 bytes into an object, or a reason. */
export function parseJsonObject(bytes: Uint8Array, what: string): Parsed<Json> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return `${what} is not valid UTF-8 JSON`;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : `${what} is not a JSON object`;
}

/** JSON.parse of UTF-8 bytes into an array of objects, or a reason. */
export function parseJsonArray(bytes: Uint8Array, what: string): Parsed<Json[]> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return `${what} is not valid UTF-8 JSON`;
  }
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))) {
    return `${what} is not a JSON array of objects`;
  }
  return value as Json[];
}

/** custody/export.json: {"format":"custody-export","version":1,"origin","tree_size","root",...}. */
export function parseExportJson(v: Json): Parsed<ExportJson> {
  if (v.format !== 'custody-export' || v.version !== 1) return 'custody/export.json is not {"format":"custody-export","version":1}';
  const { origin, tree_size, root, items, redacted } = v;
  if (!isString(origin) || !isCount(tree_size) || !isString(root) || !isSha256Hex(root) || !isCount(items) || typeof redacted !== 'boolean') {
    return 'custody/export.json lacks origin, tree_size, root (lowercase hex), items or redacted';
  }
  return { origin, tree_size, root, items, redacted };
}

/** custody/proofs/<item-id>.json (LAYOUT.md). */
export function parseProofFile(v: Json, path: string): Parsed<ProofFile> {
  const { item_id, seq, tree_size, leaf_hash, proof, entry } = v;
  if (!isString(item_id) || !isCount(seq) || !isCount(tree_size) || !isString(leaf_hash) || !isString(entry)) {
    return `${path} lacks item_id, seq, tree_size, leaf_hash or entry`;
  }
  if (!Array.isArray(proof) || !proof.every((h) => isString(h) && isSha256Hex(h)) || !isSha256Hex(leaf_hash)) {
    return `${path}: leaf_hash and proof must be lowercase 64-digit hex`;
  }
  return { item_id, seq, tree_size, leaf_hash, proof: proof as string[], entry };
}

/** One row of data/tables/items.json. */
export function parseItemRow(v: Json, index: number): Parsed<ItemRow> {
  const { item_id, bag_path, sha256, size, ingestion_seq, withheld } = v;
  if (!isString(item_id) || !isNullableString(bag_path) || !isString(sha256) || !isSha256Hex(sha256)) {
    return `data/tables/items.json row ${index + 1} lacks item_id, bag_path or sha256`;
  }
  if (!isCount(size) || !isCount(ingestion_seq) || !isNullableString(withheld)) {
    return `data/tables/items.json row ${index + 1} lacks size, ingestion_seq or withheld`;
  }
  return { item_id, bag_path, sha256, size, ingestion_seq, withheld };
}

/** One record of custody/withheld.json. */
export function parseWithheldRecord(v: Json, index: number): Parsed<WithheldRecord> {
  const { item_id, reason, substitute } = v;
  if (!isString(item_id) || !isString(reason) || !isNullableString(substitute)) {
    return `custody/withheld.json record ${index + 1} lacks item_id, reason or substitute`;
  }
  return { item_id, reason, substitute };
}

/** bag_path of an exported item per LAYOUT.md: "data/items/<item-id>-<name>", name in [A-Za-z0-9._-]. */
export function isItemPath(path: string, itemId: string): boolean {
  const prefix = `data/items/${itemId}-`;
  return path.startsWith(prefix) && /^[A-Za-z0-9._-]{0,80}$/.test(path.slice(prefix.length));
}

/** The substitute of a redacted item per LAYOUT.md: "data/previews/<item-id>.webp". */
export function previewPath(itemId: string): string {
  return `data/previews/${itemId}.webp`;
}
