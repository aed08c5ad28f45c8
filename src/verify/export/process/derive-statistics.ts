/**
 * data/tables/statistics-<plan id>.json: `custody stats` at the bag's checkpoint, recomputed from
 * the final answers the entries give, with the same pure core (examination/statistics/report.ts):
 * counts, the weighted estimate and every interval, with the method named. Pure.
 */
import { describeAttribution, unitChangesFrom } from '../../../catalogue/units/attribution.service.js';
import { codeOf } from '../../../catalogue/units/index.js';
import type { SamplesTable } from '../../../db/index.js';
import type { CaseOutcome } from '../../../examination/blind/index.js';
import { statisticsReport } from '../../../examination/statistics/index.js';
import type { ReplayedIndex } from './replay.js';

/** What the ledger cannot say: the version of the software that wrote the table. */
export const STATISTICS_NOT_DERIVED = ['/code_version'] as const;
/** Derived only from the whole ledger (any subject may have changed unit). */
export const ATTRIBUTION_POINTER = '/unit_attribution';

export function deriveStatistics(
  index: ReplayedIndex,
  sample: SamplesTable,
  outcomes: readonly CaseOutcome[],
  checkpoint: { tree_size: number; root: string },
  bag: Record<string, unknown> | undefined,
  fullLedger: boolean,
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
  // Which subjects changed unit after the frame: any subject of the archive, so only the whole
  // ledger says it; otherwise the bag's value stands, listed as not covered.
  const attribution = fullLedger
    ? describeAttribution(checkpoint.tree_size, { stratify: sample.stratify, frameSeq: sample.frame_seq }, unitChangesFrom(index.entries, sample.frame_seq, labels(index)))
    : (bag?.unit_attribution ?? null);
  return { ...report, unit_attribution: attribution };
}

function labels(index: ReplayedIndex) {
  return {
    subject: (id: string) => ({ number: index.subjects.get(id)?.number_normalised ?? null }),
    unit: (id: string | null) => {
      const u = id === null ? undefined : index.units.get(id);
      return u === undefined ? null : { id: u.id, code: codeOf(u), name_en: u.name_en, name_ar: u.name_ar };
    },
  };
}
