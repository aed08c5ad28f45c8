/**
 * data/tables/subjects: the subjects the exported items show, each with the exported items linked
 * to it, as the `subject.*` cataloguing entries make them (reports/export/tables.ts writes it). Pure.
 */
import { formatCsv } from '../../../core/index.js';
import type { Row } from './derive-items.js';
import type { ReplayedIndex } from './replay.js';

export const SUBJECT_COLUMNS = [
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

/** @param itemIds the exported items, in the bag's order */
export function deriveSubjects(index: ReplayedIndex, itemIds: readonly string[]): Row[] {
  const linked = new Map<string, string[]>();
  for (const id of itemIds) {
    const link = index.subjectItems.get(id);
    if (link !== undefined) linked.set(link.subject_id, [...(linked.get(link.subject_id) ?? []), id]);
  }
  return [...linked.keys()]
    .sort()
    .map((id) => index.subjects.get(id))
    .filter((s) => s !== undefined)
    .map((s) => ({
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
}

export function subjectsCsv(rows: readonly Row[]): string {
  return formatCsv([
    SUBJECT_COLUMNS,
    ...rows.map((r) => SUBJECT_COLUMNS.map((c) => (c === 'items' ? (r.items as string[]).join(';') : (r[c] as string | null)))),
  ]);
}
