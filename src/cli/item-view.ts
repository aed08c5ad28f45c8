import type { DeliveriesTable, ItemsTable, ObjectsTable } from '../db/schema.js';

/** The JSON shape of one item, as `items` and `show` print it (documented in the README). */
export function itemView(i: ItemsTable, source?: string) {
  return {
    id: i.id,
    seq: i.seq,
    delivery: i.delivery_id,
    ...(source === undefined ? {} : { source }),
    parent: i.parent_id,
    member_index: i.member_index,
    path: i.path,
    path_raw_hex: i.path_raw_hex,
    path_encoding: i.path_encoding,
    relative_path: i.relative_path,
    name: i.name,
    size: i.size,
    mtime: i.mtime,
    media_type: i.media_type,
    sha256: i.sha256,
    flags: JSON.parse(i.flags_json) as string[],
    received_at: i.received_at,
    actor: i.actor,
  };
}

export function objectView(o: ObjectsTable) {
  return {
    sha256: o.sha256,
    size: o.size,
    media_type: o.media_type,
    first_seq: o.first_seq,
    withdrawn_seq: o.withdrawn_seq,
    purged_seq: o.purged_seq,
  };
}

export function deliveryView(d: DeliveriesTable) {
  return {
    id: d.id,
    source: d.source,
    received_by: d.received_by,
    medium: d.medium,
    note: d.note,
    roots: JSON.parse(d.roots_json) as string[],
    manifest_sha256: d.manifest_sha256,
    opened_seq: d.opened_seq,
    opened_at: d.opened_at,
    opened_by: d.opened_by,
    closed_seq: d.closed_seq,
  };
}
