// Candidate subjects for one missing-person report (rank.ts says how they are ranked). Opening the
// report needs the archive key; the output names subjects and factors, never the family's data.
import type { IdentificationRecord } from '../codebook/record.js';
import { IdentificationError } from '../errors.js';
import type { CandidatePorts } from '../reports/ports.js';
import { openForViewer } from '../reports/reports.service.js';
import { prepareSubjects, rankPrepared, type Candidate } from './rank.js';

export const NOT_AN_IDENTIFICATION =
  'A candidate is not an identification: it is a subject whose catalogued facts do not rule this report out. ' +
  'Only review with the family, through the liaison the consent names, can go further.';

export async function candidatesFor(ports: CandidatePorts, reportId: string, opts: { limit: number }): Promise<{ report: string; candidates: Candidate[]; subjects: number; notice: string }> {
  const row = await ports.getReport(reportId);
  if (row === undefined) throw new IdentificationError('MISSING_REPORT_NOT_FOUND', `no report ${reportId}`);
  const report = await openForViewer(ports, row);
  const subjects = await ports.listSubjects();
  const pm = new Map((await ports.listSubjectPm()).map((p) => [p.subject_id, JSON.parse(p.pm_json) as IdentificationRecord]));
  const prepared = prepareSubjects(subjects, pm, await ports.listUnits());
  // Factors and their sentences for the returned candidates only.
  return { report: reportId, candidates: rankPrepared(report, prepared, opts.limit), subjects: prepared.subjects.length, notice: NOT_AN_IDENTIFICATION };
}
