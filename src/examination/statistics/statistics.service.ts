// `custody stats`: prevalence of each finding over a sample's final answers (unanimous or
// adjudicated), with intervals, breakdowns and agreement, tied to the checkpoint it was computed
// at. This file only gathers the inputs from the index; the figures are computed by the pure
// statisticsReport (report.ts), which `custody verify-export` also runs on a bag's ledger.
import { toHex } from '../../core/index.js';
import type { ArchiveIndexRepository } from '../../db/archive-index.repository.js';
import type { ExaminationRepository } from '../../db/examination.repository.js';
import { isSignedCheckpoint, type SignedCheckpointContext } from '../../ledger/index.js';
import type { SamplesTable } from '../../db/index.js';
import { CODE_VERSION } from '../../version.js';
import { caseOutcomes, type OutcomesPorts } from '../blind/outcomes.js';
import { statisticsReport } from './report.js';
import type { StatisticsReport } from './types.js';

export { PROCEDURE } from './report.js';

/** What the statistics read: the plan's outcomes, the catalogue, and the ledger to name (and check) the checkpoint. */
export interface StatisticsPorts {
  readonly examinations: OutcomesPorts['examinations'] & Pick<ExaminationRepository, 'allSubjectItems'>;
  readonly index: Pick<ArchiveIndexRepository, 'listSubjects' | 'listUnits'>;
  readonly treeSize: number;
  readonly ledger: SignedCheckpointContext['ledger'];
  readonly verifierKey: string;
  readonly manifest: { readonly origin: string };
}

export async function computeStatistics(archive: StatisticsPorts, sample: SamplesTable): Promise<StatisticsReport> {
  const outcomes = await caseOutcomes(archive, sample);
  const size = archive.treeSize;
  const signed = await isSignedCheckpoint({ ledger: archive.ledger, verifierKey: archive.verifierKey, origin: archive.manifest.origin }, size);
  return statisticsReport({
    sample,
    outcomes,
    subjects: new Map((await archive.index.listSubjects()).map((s) => [s.id, s])),
    unitLabels: new Map((await archive.index.listUnits()).map((u) => [u.id, u.name_en || u.name_ar])),
    subjectOfItem: sample.unit_kind === 'items' ? new Map((await archive.examinations.allSubjectItems()).map((l) => [l.item_id, l.subject_id])) : null,
    checkpoint: { tree_size: size, root: toHex(archive.ledger.root(size)), signed },
    codeVersion: CODE_VERSION,
  });
}
