import { loadImageFacts, type AuthenticityPorts } from '../../analysis/authenticity.service.js';
import { computeIndicators, INDICATOR_DISCLAIMER } from '../../analysis/indicators/index.js';
import { unitsCsv, unitsForExport } from '../../catalogue/units/units.service.js';
import { formatCsv } from '../../core/index.js';
import type { DecisionsTable, ItemsTable, SubjectsTable } from '../../db/index.js';
import type { IndexReads } from './ports.js';

/** One table of the bag: the same rows as CSV (formula-safe, core/csv) and as JSON. */
export interface Table {
  name: string;
  csv: string;
  json: unknown;
}

export interface ExportedItem {
  item: ItemsTable;
  /** null: withheld outright (its row, entry and proof travel, no file). */
  bagPath: string | null;
  source: string;
  /** null, or why the bag holds something else in its place (a blurred preview). */
  withheld: string | null;
}

const ITEM_COLUMNS = [
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

/** data/tables/items: one row per exported item (LAYOUT.md). Sources by codename only. */
export function itemsTable(items: readonly ExportedItem[]): Table {
  const rows = items.map((e) => ({
    item_id: e.item.id,
    bag_path: e.bagPath,
    sha256: e.item.sha256,
    size: e.item.size,
    media_type: e.item.media_type,
    original_path: e.item.path,
    original_path_raw_hex: e.item.path_raw_hex,
    delivery_id: e.item.delivery_id,
    source_codename: e.source,
    ingestion_seq: e.item.seq,
    withheld: e.withheld,
  }));
  return {
    name: 'items',
    json: rows,
    csv: formatCsv([ITEM_COLUMNS, ...rows.map((r) => ITEM_COLUMNS.map((c) => r[c]))]),
  };
}

const SUBJECT_COLUMNS = [
  'subject_id',
  'number_raw',
  'scheme_id',
  'number_normalised',
  'unit_id',
  'sex',
  'age_band',
  'date_of_death',
  'date_of_photography',
  'notes',
  'status',
  'merged_into',
  'items',
] as const;

/** The subjects the exported items show, each with the exported items linked to it. */
export async function subjectsTable(
  snapshot: IndexReads<'subjectOfItem' | 'getSubject'>,
  items: readonly ExportedItem[],
): Promise<Table> {
  const linked = new Map<string, string[]>();
  for (const e of items) {
    const link = await snapshot.index.subjectOfItem(e.item.id);
    if (link !== undefined)
      linked.set(link.subject_id, [...(linked.get(link.subject_id) ?? []), e.item.id]);
  }
  const subjects = (
    await Promise.all([...linked.keys()].sort().map((id) => snapshot.index.getSubject(id)))
  ).filter((s): s is SubjectsTable => s !== undefined);
  const rows = subjects.map((s) => ({
    subject_id: s.id,
    number_raw: s.number_raw,
    scheme_id: s.scheme_id,
    number_normalised: s.number_normalised,
    unit_id: s.unit_id,
    sex: s.sex,
    age_band: s.age_band,
    date_of_death: s.date_of_death,
    date_of_photography: s.date_of_photography,
    notes: s.notes,
    status: s.status,
    merged_into: s.merged_into,
    items: linked.get(s.id) ?? [],
  }));
  const csvRows = rows.map((r) =>
    SUBJECT_COLUMNS.map((c) => (c === 'items' ? r.items.join(';') : r[c])),
  );
  return { name: 'subjects', json: rows, csv: formatCsv([SUBJECT_COLUMNS, ...csvRows]) };
}

/** The unit registry at the checkpoint, as `custody unit export` writes it. */
export async function unitsTable(snapshot: IndexReads<'listUnits'>): Promise<Table> {
  const units = await snapshot.index.listUnits();
  return { name: 'units', json: unitsForExport(units), csv: unitsCsv(units) };
}

/**
 * Authenticity indicators of the exported objects, judged against the archive as it was at the
 * checkpoint, "now" being the time of its last entry (so the same checkpoint gives the same table).
 */
export async function authenticityTable(
  snapshot: AuthenticityPorts,
  items: readonly ExportedItem[],
  asOf: string,
): Promise<Table> {
  const facts = await loadImageFacts(snapshot);
  const bySha = new Map<string, string[]>();
  for (const e of items) bySha.set(e.item.sha256, [...(bySha.get(e.item.sha256) ?? []), e.item.id]);
  const objects = facts
    .filter((f) => bySha.has(f.sha256))
    .sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1))
    .map((f) => ({
      sha256: f.sha256,
      items: bySha.get(f.sha256) ?? [],
      indicators: computeIndicators(f, facts, { now: asOf }),
    }));
  const csvRows = objects.flatMap((o) =>
    o.indicators.map((i) => [
      o.sha256,
      o.items.join(';'),
      i.code,
      i.explanation,
      JSON.stringify(i.evidence),
    ]),
  );
  return {
    name: 'authenticity',
    json: { disclaimer: INDICATOR_DISCLAIMER, as_of: asOf, objects },
    csv: formatCsv([['sha256', 'items', 'code', 'explanation', 'evidence'], ...csvRows]),
  };
}

/** Examiners' decisions that name an exported object (data/tables/decisions.json). */
export async function decisionsJson(
  snapshot: IndexReads<'decisionsFor'>,
  items: readonly ExportedItem[],
): Promise<unknown[]> {
  const seen = new Map<number, DecisionsTable>();
  for (const sha of new Set(items.map((e) => e.item.sha256))) {
    for (const d of await snapshot.index.decisionsFor(sha)) seen.set(d.seq, d);
  }
  return [...seen.values()]
    .sort((a, b) => a.seq - b.seq)
    .map((d) => ({
      seq: d.seq,
      subject: d.subject,
      objects: JSON.parse(d.objects_json) as string[],
      decision: d.decision,
      note: d.note,
      actor: d.actor,
      time: d.time,
    }));
}
