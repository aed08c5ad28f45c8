/**
 * data/tables/statistics-<plan id>.json: `custody stats` at the bag's checkpoint, recomputed from
 * the final answers the entries give, with the same pure core (examination/statistics/report.ts):
 * counts, the weighted estimate and every interval, with the method named. Pure.
 */
import type { SamplesTable } from '../../../db/schema.js';
import type { CaseOutcome } from '../../../examination/blind/case-outcomes.js';
import { statisticsReport } from '../../../examination/statistics/report.js';
import type { ReplayedIndex } from './replay.js';

/** What the ledger cannot say: the version of the software that wrote the table. */
export const STATISTICS_NOT_DERIVED = ['/code_version'] as const;

export function deriveStatistics(
  index: ReplayedIndex,
  sample: SamplesTable,
  outcomes: readonly CaseOutcome[],
  checkpoint: { tree_size: number; root: string },
  bag: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const report = statisticsReport({
    sample,
    outcomes,
    subjects: index.subjects,
    unitLabels: new Map([...index.units.values()].map((u) => [u.id, u.name_en || u.name_ar])),
    subjectOfItem: sample.unit_kind === 'items' ? new Map([...index.subjectItems.values()].map((l) => [l.item_id, l.subject_id])) : null,
    // A bag's checkpoint is signed (check 3 verifies it).
    checkpoint: { tree_size: checkpoint.tree_size, root: checkpoint.root, signed: true },
    codeVersion: typeof bag?.code_version === 'string' ? bag.code_version : '',
  });
  return { ...report, unit_attribution: bag?.unit_attribution ?? null };
}
