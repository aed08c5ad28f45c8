/**
 * data/tables/decisions.json: the examiners' `decision` entries that name an exported object, in
 * ledger order (reports/export/tables.ts writes it). Pure.
 */
import type { Row } from './derive-items.js';
import type { ReplayedIndex } from './replay.js';

/** @param objects the SHA-256 of every exported item */
export function deriveDecisions(index: ReplayedIndex, objects: ReadonlySet<string>): Row[] {
  return index.decisions
    .map((d) => ({ ...d, objects: JSON.parse(d.objects_json) as string[] }))
    .filter((d) => d.objects.some((o) => objects.has(o)))
    .map((d) => ({ seq: d.seq, subject: d.subject, objects: d.objects, decision: d.decision, note: d.note, actor: d.actor, time: d.time }));
}
