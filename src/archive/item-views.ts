import type { AnalysesTable, DeliveriesTable, ItemsTable, ObjectsTable } from '../db/index.js';

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

/**
 * What `show` says of a withdrawn object's analysis: that there is one, and nothing of what it
 * extracted (GPS, EXIF, hashes). The ledger keeps the entry; see the README's Withdrawal section.
 */
export function withdrawnAnalysisView(a: AnalysesTable | undefined) {
  return { ...analysisView(undefined), analysed: a !== undefined, analysis_withheld: 'withdrawn' };
}

/** What `show` adds for an analysed image (documented in the README). */
export function analysisView(a: AnalysesTable | undefined) {
  if (a === undefined) return { analysed: false, pdq: null, pdq_quality: null, pdq_dihedral: null, metadata: null, c2pa: null };
  return {
    analysed: true,
    analysis_seq: a.seq,
    analyzer: a.analyzer,
    pdq: a.pdq,
    pdq_quality: a.pdq_quality,
    pdq_dihedral: JSON.parse(a.pdq_dihedral_json) as Record<string, string> | null,
    crops: JSON.parse(a.crops_json) as { region: string; hash: string }[],
    metadata: {
      make: a.make,
      model: a.model,
      body_serial_number: a.body_serial,
      software: a.software,
      xmp_creator_tool: a.xmp_creator_tool,
      xmp_history_software: JSON.parse(a.xmp_history_json) as string[],
      date_time_original: a.date_time_original,
      create_date: a.create_date,
      modify_date: a.modify_date,
      offset_time_original: a.offset_time_original,
      sub_sec_time_original: a.sub_sec_time_original,
      orientation: a.orientation,
      width: a.width,
      height: a.height,
      gps_latitude: a.gps_latitude,
      gps_longitude: a.gps_longitude,
      jpeg_quality: a.jpeg_quality,
      quant_digest: a.quant_digest,
      thumbnail_pdq: a.thumbnail_pdq,
    },
    c2pa: { state: a.c2pa_state, codes: JSON.parse(a.c2pa_codes_json) as string[] },
    analysis_warnings: JSON.parse(a.warnings_json) as string[],
  };
}
