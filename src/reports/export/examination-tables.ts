// data/tables/ for the examination: the sampling plans that touch the exported items, every
// revealed answer and each case's final answer (sealed submissions appear by commitment only),
// and each plan's statistics at the export's checkpoint, so the figures in a report can be traced
// to the answers and the answers to their commitments in custody/ledger.jsonl.
import { caseOutcomes, describeSample, sampleCodebook } from '../../examination/blind/index.js';
import type { ExaminationAnswer } from '../../examination/codebook/index.js';
import { computeStatistics } from '../../examination/statistics/statistics.service.js';
import { describeAttribution, unitChangesAfter } from '../../catalogue/units/attribution.service.js';
import { formatCsv } from '../../core/index.js';
import type { ExaminationReads } from './ports.js';
import type { Table, ExportedItem } from './tables.js';

/** What the examination tables read from the snapshot, beside what the services they call read. */
type ExaminationSnapshot = ExaminationReads<'allSubjectItems' | 'listSamples' | 'members' | 'submissions'> &
  Parameters<typeof caseOutcomes>[0] &
  Parameters<typeof computeStatistics>[0] &
  Parameters<typeof unitChangesAfter>[0];

export interface ExaminationTables {
  samples: unknown[];
  examinations: Table | null;
  statistics: { file: string; json: unknown }[];
}

export async function examinationTables(snapshot: ExaminationSnapshot, items: readonly ExportedItem[]): Promise<ExaminationTables> {
  const itemIds = new Set(items.map((e) => e.item.id));
  const subjectOf = new Map((await snapshot.examinations.allSubjectItems()).map((l) => [l.item_id, l.subject_id]));
  const subjects = new Set([...itemIds].map((i) => subjectOf.get(i)).filter((s): s is string => s !== undefined));
  const samples: unknown[] = [];
  const statistics: { file: string; json: unknown }[] = [];
  const header = ['sample', 'case', 'examiner', 'commitment', 'submit_seq', 'reveal_seq', 'sex', 'age_band'];
  let codes: string[] | null = null;
  const rows: (string | number | null)[][] = [];
  for (const sample of await snapshot.examinations.listSamples()) {
    const members = await snapshot.examinations.members(sample.id);
    const touches = members.some((m) => (sample.unit_kind === 'items' ? itemIds.has(m.member_id) : subjects.has(m.member_id)));
    if (!touches || sample.manifest_seq === null) continue;
    samples.push({
      ...describeSample(sample),
      members: members.map((m) => ({ case: m.member_id, position: m.position, stratum: m.stratum })),
    });
    const findings = sampleCodebook(sample).findings.map((f) => f.code);
    codes ??= findings;
    const submissions = await snapshot.examinations.submissions(sample.id);
    for (const c of await caseOutcomes(snapshot, sample)) {
      for (const s of submissions.filter((x) => x.case_id === c.case)) {
        const answer = c.answers?.find((a) => a.examiner === s.examiner)?.answer ?? null; // sealed: null
        rows.push([sample.id, c.case, s.examiner, s.commitment, s.submit_seq, s.reveal_seq, ...answerCells(answer, findings)]);
      }
      if (c.final !== null) rows.push([sample.id, c.case, c.adjudicated ? '(adjudicated)' : '(unanimous)', null, null, null, ...answerCells(c.final, findings)]);
    }
    const stats = await computeStatistics(snapshot, sample);
    // As `custody stats --json` prints it: the subjects whose unit changed after the frame.
    const attribution = describeAttribution(stats.checkpoint.tree_size, { stratify: stats.sample.stratify, frameSeq: sample.frame_seq }, await unitChangesAfter(snapshot, sample.frame_seq));
    statistics.push({ file: `statistics-${sample.id}.json`, json: { ...stats, unit_attribution: attribution } });
  }
  const columns = [...header, ...(codes ?? [])];
  const json = rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null])));
  return { samples, examinations: rows.length === 0 ? null : { name: 'examinations', csv: formatCsv([columns, ...rows]), json }, statistics };
}

function answerCells(answer: ExaminationAnswer | null, codes: readonly string[]): (string | null)[] {
  if (answer === null) return [null, null, ...codes.map(() => null)];
  return [answer.sex, answer.age_band, ...codes.map((c) => answer.findings[c]?.value ?? null)];
}
