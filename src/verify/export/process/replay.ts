/**
 * The index as the bag's ledger entries make it: every entry replayed through the project's own
 * projection (ledger/projection.ts, the function that feeds intake, rebuild and verify) into an
 * in-memory copy. Pure. An entry that does not project (a line edited into nonsense, or one whose
 * predecessor is missing) is skipped and counted: step 6 says whether the lines are authentic.
 */
import type {
  DecisionsTable,
  DeliveriesTable,
  ExamAdjudicationsTable,
  ExamAssignmentsTable,
  ExamCaseLinksTable,
  ExamSubmissionsTable,
  IndexTable,
  ItemsTable,
  SampleMembersTable,
  SamplesTable,
  SubjectItemsTable,
  SubjectsTable,
  UnitsTable,
} from '../../../db/index.js';
import { type LedgerEntry, MemoryIndex, projectEntry } from '../../../ledger/index.js';

export interface ReplayedIndex {
  readonly entries: readonly LedgerEntry[];
  readonly bySeq: ReadonlyMap<number, LedgerEntry>;
  /** Entries that did not project, with why. */
  readonly skipped: readonly { seq: number; reason: string }[];
  items: Map<string, ItemsTable>;
  deliveries: Map<string, DeliveriesTable>;
  subjects: Map<string, SubjectsTable>;
  /** item id -> its link to a subject */
  subjectItems: Map<string, SubjectItemsTable>;
  units: Map<string, UnitsTable>;
  samples: Map<string, SamplesTable>;
  members: SampleMembersTable[];
  assignments: ExamAssignmentsTable[];
  submissions: ExamSubmissionsTable[];
  adjudications: ExamAdjudicationsTable[];
  /** A closed plan's published links, code → subject or item id, by sample (plans assigned with sealed case ids). */
  caseLinks: Map<string, Map<string, string>>;
  decisions: DecisionsTable[];
}

export function replayEntries(entries: readonly LedgerEntry[]): ReplayedIndex {
  const index = new MemoryIndex();
  const skipped: { seq: number; reason: string }[] = [];
  for (const entry of entries) {
    try {
      index.apply(projectEntry(entry, ''));
    } catch (e) {
      skipped.push({ seq: entry.seq, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  const table = <T>(name: IndexTable): Map<string, T> => index.table(name) as unknown as Map<string, T>;
  const byCaseThenExaminer = (a: { case_id: string; examiner?: string }, b: { case_id: string; examiner?: string }): number =>
    a.case_id === b.case_id ? ((a.examiner ?? '') < (b.examiner ?? '') ? -1 : (a.examiner ?? '') > (b.examiner ?? '') ? 1 : 0) : a.case_id < b.case_id ? -1 : 1;
  return {
    entries,
    bySeq: new Map(entries.map((e) => [e.seq, e])),
    skipped,
    items: table<ItemsTable>('items'),
    deliveries: table<DeliveriesTable>('deliveries'),
    subjects: table<SubjectsTable>('subjects'),
    subjectItems: table<SubjectItemsTable>('subject_items'),
    units: table<UnitsTable>('units'),
    samples: table<SamplesTable>('samples'),
    members: [...table<SampleMembersTable>('sample_members').values()].sort((a, b) => a.position - b.position),
    assignments: [...table<ExamAssignmentsTable>('exam_assignments').values()].sort(byCaseThenExaminer),
    submissions: [...table<ExamSubmissionsTable>('exam_submissions').values()].sort(byCaseThenExaminer),
    adjudications: [...table<ExamAdjudicationsTable>('exam_adjudications').values()].sort(byCaseThenExaminer),
    decisions: [...table<DecisionsTable>('decisions').values()].sort((a, b) => a.seq - b.seq),
    caseLinks: linksBySample(table<ExamCaseLinksTable>('exam_case_links')),
  };
}

function linksBySample(rows: ReadonlyMap<string, ExamCaseLinksTable>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const l of rows.values()) out.set(l.sample_id, (out.get(l.sample_id) ?? new Map<string, string>()).set(l.code, l.member_id));
  return out;
}

/**
 * The plan's rows, as the examination repository returns them for an export: a plan assigned with
 * sealed case ids keys its rows by code, read back by subject or item id once its close entry
 * published the links (before, the bag does not link them, and neither does this).
 */
export function planRows(index: ReplayedIndex, sampleId: string) {
  const links = index.caseLinks.get(sampleId);
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const mine = <T extends { sample_id: string; case_id?: string; examiner?: string }>(rows: readonly T[]): T[] => {
    const own = rows.filter((r) => r.sample_id === sampleId);
    if (links === undefined) return own;
    return own
      .map((r) => (r.case_id === undefined ? r : { ...r, case_id: links.get(r.case_id) ?? r.case_id }))
      .sort((a, b) => cmp(a.case_id ?? '', b.case_id ?? '') || cmp(a.examiner ?? '', b.examiner ?? ''));
  };
  return {
    members: mine(index.members),
    assignments: mine(index.assignments),
    submissions: mine(index.submissions),
    adjudications: mine(index.adjudications),
  };
}
