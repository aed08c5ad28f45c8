// `custody items --format csv|json [--with-metadata]`: one row per item with the names people
// work by (file name, path in the delivery, subject number) and, with metadata, the camera, the
// dates, the PDQ hash and the near-duplicate cluster. CSV through core/csv (formula-safe).
import {
  archiveSimilarity,
  type SimilarityPorts,
} from '../analysis/similarity/archive-similarity.service.js';
import type { IndexReads, LinkReads } from './ports.js';
import { formatCsv } from '../core/index.js';
import { codeOf } from './units/registry.js';

export const ITEM_COLUMNS = [
  'id',
  'file',
  'path',
  'delivery',
  'source',
  'sha256',
  'size',
  'media_type',
  'received_at',
  'subject',
  'number',
  'unit_code',
  'unit_en',
  'unit_ar',
] as const;
export const METADATA_COLUMNS = [
  'make',
  'model',
  'body_serial',
  'date_time_original',
  'create_date',
  'modify_date',
  'width',
  'height',
  'pdq',
  'pdq_quality',
  'cluster',
] as const;

export type ItemRow = Record<
  (typeof ITEM_COLUMNS)[number] | (typeof METADATA_COLUMNS)[number],
  string | number | null
>;

/** What the table reads (the near-duplicate clusters only with metadata). */
export type ItemsTablePorts = IndexReads<
  'listItemColumns' | 'listDeliveries' | 'listSubjects' | 'listUnits' | 'listAnalyses'
> &
  LinkReads<'allSubjectItems'> &
  SimilarityPorts;

export async function itemsTable(
  archive: ItemsTablePorts,
  opts: { withMetadata: boolean; deliveryId?: string },
): Promise<{ columns: string[]; rows: Partial<ItemRow>[] }> {
  const items = await archive.index.listItemColumns(
    opts.deliveryId === undefined ? {} : { deliveryId: opts.deliveryId },
  );
  const sources = new Map((await archive.index.listDeliveries()).map((d) => [d.id, d.source]));
  const subjectOf = new Map(
    (await archive.examinations.allSubjectItems()).map((l) => [l.item_id, l.subject_id]),
  );
  const subjects = new Map((await archive.index.listSubjects()).map((s) => [s.id, s]));
  const units = new Map((await archive.index.listUnits()).map((u) => [u.id, u]));
  const analysed = opts.withMetadata ? await archive.index.listAnalyses() : [];
  const analyses = opts.withMetadata ? new Map(analysed.map((a) => [a.sha256, a])) : null;
  // Each table is read once: the clusters reuse the analyses, and the items when they are all of them.
  const clusterOf = opts.withMetadata
    ? (
        await archiveSimilarity(archive, {
          analyses: analysed,
          ...(opts.deliveryId === undefined ? { items } : {}),
        })
      ).clusterOf
    : null;
  const rows = items.map((i) => {
    const subjectId = subjectOf.get(i.id) ?? null;
    const s = subjectId === null ? undefined : subjects.get(subjectId);
    const u = s?.unit_id == null ? undefined : units.get(s.unit_id);
    const row: Partial<ItemRow> = {
      id: i.id,
      file: i.name,
      path: i.relative_path,
      delivery: i.delivery_id,
      source: sources.get(i.delivery_id) ?? null,
      sha256: i.sha256,
      size: i.size,
      media_type: i.media_type,
      received_at: i.received_at,
      subject: subjectId,
      number: s?.number_normalised ?? null,
      unit_code: u === undefined ? null : codeOf(u),
      unit_en: u?.name_en ?? null,
      unit_ar: u?.name_ar ?? null,
    };
    if (analyses !== null && clusterOf !== null) {
      const a = analyses.get(i.sha256);
      Object.assign(row, {
        make: a?.make ?? null,
        model: a?.model ?? null,
        body_serial: a?.body_serial ?? null,
        date_time_original: a?.date_time_original ?? null,
        create_date: a?.create_date ?? null,
        modify_date: a?.modify_date ?? null,
        width: a?.width ?? null,
        height: a?.height ?? null,
        pdq: a?.pdq ?? null,
        pdq_quality: a?.pdq_quality ?? null,
        cluster: clusterOf.get(i.sha256) ?? null,
      });
    }
    return row;
  });
  return { columns: [...ITEM_COLUMNS, ...(opts.withMetadata ? METADATA_COLUMNS : [])], rows };
}

export function itemsCsv(t: { columns: string[]; rows: Partial<ItemRow>[] }): string {
  return formatCsv([
    t.columns,
    ...t.rows.map((r) => t.columns.map((c) => r[c as keyof ItemRow] ?? null)),
  ]);
}
