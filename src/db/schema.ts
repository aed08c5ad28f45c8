/**
 * The index database. Everything here is derived from the ledger (see ledger/projection.ts)
 * and can be rebuilt from it; `verify` checks that it has not drifted, both ways.
 */
export interface DeliveriesTable {
  id: string;
  source: string;
  received_by: string | null;
  medium: string | null;
  note: string | null;
  roots_json: string;
  manifest_sha256: string | null;
  opened_seq: number;
  opened_at: string;
  opened_by: string;
  closed_seq: number | null;
  report_json: string | null;
}

export interface ObjectsTable {
  sha256: string;
  size: number;
  media_type: string;
  first_seq: number;
  withdrawn_seq: number | null;
  purged_seq: number | null;
}

export interface ItemsTable {
  id: string;
  seq: number;
  delivery_id: string;
  parent_id: string | null;
  member_index: number | null;
  path: string;
  path_raw_hex: string | null;
  path_encoding: string;
  relative_path: string;
  name: string;
  size: number;
  mtime: string | null;
  media_type: string;
  sha256: string;
  flags_json: string;
  origin_key: string;
  received_at: string;
  actor: string;
}

export interface LedgerEntriesTable {
  seq: number;
  type: string;
  time: string;
  actor: string;
  leaf_hash: string;
}

export interface WithdrawalsTable {
  seq: number;
  sha256: string;
  reason: string;
  authority: string;
  actor: string;
  time: string;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface Database {
  deliveries: DeliveriesTable;
  objects: ObjectsTable;
  items: ItemsTable;
  ledger_entries: LedgerEntriesTable;
  withdrawals: WithdrawalsTable;
  meta: MetaTable;
}

/** Tables whose every row comes from the ledger, with their primary keys, in dump order. */
export const INDEX_TABLES = {
  ledger_entries: 'seq',
  deliveries: 'id',
  objects: 'sha256',
  items: 'id',
  withdrawals: 'seq',
} as const satisfies Partial<Record<keyof Database, string>>;

export type IndexTable = keyof typeof INDEX_TABLES;
export type Row = Record<string, string | number | null>;
