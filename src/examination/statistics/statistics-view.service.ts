// What `custody stats --json` prints and the server's statistics route returns: the plan's
// statistics report, unit breakdown rows with the unit's code and names, and what the unit
// attribution of the breakdowns rests on. Computed over an archive viewed at a signed checkpoint.
import { CatalogueLabels } from '../../catalogue/labels.service.js';
import {
  describeAttribution,
  unitChangesAfter,
} from '../../catalogue/units/attribution.service.js';
import type { SamplesTable } from '../../db/index.js';
import { computeStatistics, type StatisticsPorts } from './statistics.service.js';

/** The statistics' ports, and what the unit attribution and labels read besides. */
type ArchiveHandle = StatisticsPorts & Parameters<typeof unitChangesAfter>[0];

/** The plan's statistics; `sample` as loadSample (examination/blind) finds it. */
export async function statisticsView(archive: ArchiveHandle, sample: SamplesTable) {
  const report = await computeStatistics(archive, sample);
  const changes = await unitChangesAfter(archive, sample.frame_seq);
  const labels = await CatalogueLabels.load(archive);
  const attribution = describeAttribution(
    report.checkpoint.tree_size,
    { stratify: report.sample.stratify, frameSeq: report.sample.entries.frame },
    changes,
  );
  // Unit breakdown rows gain the unit's code and both names beside its id (fields added only).
  const findings = report.findings.map((f) => ({
    ...f,
    breakdowns: {
      ...f.breakdowns,
      unit: f.breakdowns.unit.map((b) => ({ ...b, unit: labels.unit(b.key) })),
    },
  }));
  return { report, attribution, json: { ...report, findings, unit_attribution: attribution } };
}
