/**
 * data/tables/items: the columns of each exported item that its `ingestion` entry (and its
 * delivery's `ingestion start`) determine. bag_path and withheld are the exporter's choices, checked
 * against the files (step 5) and custody/withheld.json, not against the ledger. Pure.
 */
import { formatCsv } from '../../../core/index.js';
import type { ReplayedIndex } from './replay.js';

export const ITEM_COLUMNS = [
  'item_id',
  'bag_path',
  'sha256',
  'size',
  'media_type',
  'original_path',
  'original_path_raw_hex',
  'delivery_id',
  'source_codename',
  'ingestion_seq',
  'withheld',
] as const;

/** The columns derived from the ledger (the rest are listed as not covered). */
export const DERIVED_ITEM_COLUMNS = ITEM_COLUMNS.filter((c) => c !== 'item_id' && c !== 'bag_path' && c !== 'withheld');

export type Row = Record<string, unknown>;

/**
 * One row per item the bag lists (in its order), as the ledger has it; bag_path and withheld are
 * taken from the bag's row. An item the ledger does not know gives no row.
 */
export function deriveItems(index: ReplayedIndex, bagRows: readonly Row[]): Row[] {
  const out: Row[] = [];
  for (const b of bagRows) {
    const item = index.items.get(String(b.item_id));
    if (item === undefined) continue;
    out.push({
      item_id: item.id,
      bag_path: b.bag_path ?? null,
      sha256: item.sha256,
      size: item.size,
      media_type: item.media_type,
      original_path: item.path,
      original_path_raw_hex: item.path_raw_hex,
      delivery_id: item.delivery_id,
      // A delivery whose `ingestion start` the bag withholds: its source is not derivable, and the
      // bag's cell is taken as it stands (not compared).
      source_codename: index.deliveries.get(item.delivery_id)?.source ?? b.source_codename ?? null,
      ingestion_seq: item.seq,
      withheld: b.withheld ?? null,
    });
  }
  return out;
}

export function itemsCsv(rows: readonly Row[]): string {
  return formatCsv([ITEM_COLUMNS, ...rows.map((r) => ITEM_COLUMNS.map((c) => cell(r[c])))]);
}

export function cell(v: unknown): string | number | null {
  return v === null || v === undefined ? null : typeof v === 'number' || typeof v === 'string' ? v : JSON.stringify(v);
}
