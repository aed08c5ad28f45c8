/**
 * Check 7, the process: every generated table of the bag re-derived from the ledger entries it
 * carries and compared cell by cell (items, subjects, revealed and final answers, sample members,
 * statistics); each sample redrawn from its frame and seed; every reveal opened against its
 * commitment. ISSUE11-CONTRACT §2. Pure: it takes the bag's bytes and returns findings.
 */
import type { SamplesTable } from '../../../db/index.js';
import type { CaseOutcome } from '../../../examination/blind/index.js';
import type { LedgerEntry } from '../../../ledger/index.js';
import type { StepFindings } from '../findings.js';
import { compareCsv, compareJson, compareRows, rowAndColumn, type CellMismatch } from './compare.js';
import { deriveDecisions } from './derive-decisions.js';
import { DERIVED_ITEM_COLUMNS, deriveItems, itemsCsv, type Row } from './derive-items.js';
import { checkCommitments, deriveExaminations, deriveOutcomes, examinationKey, examinationsCsv, EXAMINATION_HEADER } from './derive-examinations.js';
import { deriveSampleRow, exportedSamples, manifestMembers, redrawSample } from './derive-samples.js';
import { ATTRIBUTION_POINTER, deriveStatistics, STATISTICS_NOT_DERIVED } from './derive-statistics.js';
import { deriveSubjects, SUBJECT_COLUMNS, subjectsCsv } from './derive-subjects.js';
import type { ProvenLedger } from '../check-ledger.js';
import { replayEntries, type ReplayedIndex } from './replay.js';
import { checkRevealRule } from './check-reveals.js';

export interface ProcessInput {
  ledger: ProvenLedger;
  /** The signed checkpoint (check 3); undefined when none could be read. */
  checkpoint: { tree_size: number; root: string } | undefined;
  /** Bag path -> bytes, for every file under data/tables/. */
  tables: ReadonlyMap<string, Uint8Array>;
  /** Every other file of the bag (to name what is not derived). */
  files: readonly string[];
}

/** One derived JSON document beside the bag's, for `--explain`. */
export interface ExplainedDocument {
  bag: unknown;
  derived: unknown;
  /** The ledger entries (seqs) a pointer into the document rests on. */
  entries(pointer: string): number[];
}

export interface ProcessReport {
  /** Files and fields the ledger does not determine ("not covered by the signature"). */
  notCovered: string[];
  full: boolean;
  /** Bag path -> documents, for `--explain`. */
  documents: Map<string, ExplainedDocument>;
  entries: ReadonlyMap<number, LedgerEntry>;
  proven: ReadonlySet<number>;
  detail: string;
}

const DERIVED_TABLES = new Set(['items', 'subjects', 'examinations', 'decisions']);

export function checkProcess(input: ProcessInput, out: StepFindings): ProcessReport {
  const index = replayEntries(input.ledger.entries);
  const documents = new Map<string, ExplainedDocument>();
  const parsed = new Map<string, unknown>();
  const json = (path: string): unknown => {
    if (parsed.has(path)) return parsed.get(path);
    const bytes = input.tables.get(path);
    let value: unknown;
    if (bytes !== undefined) {
      try {
        value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
      } catch {
        out.error('EXPORT_LAYOUT_INVALID', `${path} is not valid UTF-8 JSON`, path);
      }
    }
    parsed.set(path, value);
    return value;
  };
  const text = (path: string): string | undefined => {
    const bytes = input.tables.get(path);
    return bytes === undefined ? undefined : new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  };
  const rowsOf = (v: unknown): Row[] => (Array.isArray(v) ? v.filter((r): r is Row => typeof r === 'object' && r !== null && !Array.isArray(r)) : []);
  // Plans the bag describes whose entries custody/ledger.jsonl does not carry: one finding each,
  // not one per row of every table built on them.
  const bagPlans = rowsOf(json('data/tables/samples.json')).map((s) => String(s.id));
  const absent = bagPlans.filter((id) => !index.samples.has(id));
  const underAbsentPlan = (table: string, row: string): boolean =>
    absent.some((id) => table === `data/tables/statistics-${id}.json` || (table.startsWith('data/tables/examinations.') && row.startsWith(`${id}/`)));
  const mismatch = (table: string, m: CellMismatch): void => {
    if (underAbsentPlan(table, m.row)) return;
    const what = m.column === null ? `row ${m.row} is ${m.bag === null ? 'missing from the bag' : 'not derived from the ledger'}` : `row ${m.row}, ${m.column}: the bag has ${show(m.bag)}, the ledger gives ${show(m.derived)}`;
    out.error('EXPORT_TABLE_MISMATCH', `${table}: ${what}`, table, { table, row: m.row, column: m.column, bag: m.bag ?? null, derived: m.derived ?? null });
  };

  // Items.
  const bagItems = rowsOf(json('data/tables/items.json'));
  const itemIds = bagItems.map((r) => String(r.item_id));
  const items = deriveItems(index, bagItems);
  for (const m of compareRows(bagItems, items, (r) => String(r.item_id), DERIVED_ITEM_COLUMNS)) mismatch('data/tables/items.json', m);
  compareCsvTable(text('data/tables/items.csv'), itemsCsv(items), 1, 'data/tables/items.csv', mismatch, out);
  documents.set('data/tables/items.json', aligned(bagItems, items, (r) => String(r.item_id), (r) => itemEntries(index, String(r.item_id))));

  // Subjects.
  const bagSubjects = rowsOf(json('data/tables/subjects.json'));
  const subjects = deriveSubjects(index, itemIds);
  for (const m of compareRows(bagSubjects, subjects, (r) => String(r.subject_id), SUBJECT_COLUMNS.filter((c) => c !== 'subject_id'))) mismatch('data/tables/subjects.json', m);
  compareCsvTable(text('data/tables/subjects.csv'), subjectsCsv(subjects), 1, 'data/tables/subjects.csv', mismatch, out);
  documents.set('data/tables/subjects.json', aligned(bagSubjects, subjects, (r) => String(r.subject_id), (r) => subjectEntries(index, String(r.subject_id))));

  // Decisions that name an exported object.
  if (input.tables.has('data/tables/decisions.json')) {
    const bagDecisions = rowsOf(json('data/tables/decisions.json'));
    const decisions = deriveDecisions(index, new Set(bagItems.map((r) => String(r.sha256))));
    const key = (r: Row): string => String(r.seq);
    for (const m of compareRows(bagDecisions, decisions, key, ['subject', 'objects', 'decision', 'note', 'actor', 'time'])) mismatch('data/tables/decisions.json', m);
    documents.set('data/tables/decisions.json', aligned(bagDecisions, decisions, key, (r) => [Number(r.seq)]));
  }

  // Reveals against their commitments.
  const broken = checkCommitments(index);
  for (const c of broken)
    out.error('EXPORT_COMMITMENT_MISMATCH', `plan ${c.sample}, case ${c.case}: ${c.examiner}'s answer revealed in entry ${c.reveal_seq} does not open the commitment of entry ${c.submit_seq}`, 'custody/ledger.jsonl', { ...c });
  // Each reveal follows its rule (a system act: no person signs it).
  for (const r of checkRevealRule(index)) {
    if (r.kind === 'commitments' && broken.some((c) => c.sample === r.sample && c.case === r.case)) continue;
    out.error(r.kind === 'early' ? 'EXPORT_REVEAL_EARLY' : 'EXPORT_COMMITMENT_MISMATCH', `plan ${r.sample}, case ${r.case}: ${r.message}`, 'custody/ledger.jsonl', { sample: r.sample, case: r.case, reveal_seq: r.reveal_seq });
  }

  // Samples: which plans, their description, the members redrawn.
  const plans = exportedSamples(index, itemIds);
  const bagSamples = rowsOf(json('data/tables/samples.json'));
  const sampleDocs: Row[] = [];
  for (const sample of plans) {
    const at = bagSamples.findIndex((s) => s.id === sample.id);
    const derived = deriveSampleRow(index, sample);
    sampleDocs.push(derived);
    if (at < 0) {
      mismatch('data/tables/samples.json', { row: sample.id, column: null, bag: null, derived });
      continue;
    }
    const bag = bagSamples[at] as Row;
    // The members' ids are checked against the redraw below (EXPORT_SAMPLE_MISMATCH), not twice.
    for (const d of compareJson(bag, derived, `/${at}`).filter((x) => !/\/members\/\d+\/case$/.test(x.pointer))) {
      const { row, column } = rowAndColumn(d.pointer);
      mismatch('data/tables/samples.json', { row, column, bag: d.bag, derived: d.derived });
    }
    checkRedraw(index, sample, bag, out);
  }
  for (const [i, s] of bagSamples.entries()) {
    if (plans.some((p) => p.id === s.id)) continue;
    if (absent.includes(String(s.id)))
      out.error(
        'EXPORT_TABLE_MISMATCH',
        `data/tables/samples.json: plan ${String(s.id)}: custody/ledger.jsonl does not carry its entries (sample.frame, sample.seed, sample.manifest, examination.*), so neither it nor its answers and statistics can be derived from the ledger`,
        'data/tables/samples.json',
        { table: 'data/tables/samples.json', row: `/${i}`, column: null, bag: s, derived: null },
      );
    else mismatch('data/tables/samples.json', { row: `/${i}`, column: null, bag: s, derived: null });
  }
  documents.set('data/tables/samples.json', {
    bag: bagSamples,
    derived: bagSamples.map((s) => sampleDocs.find((d) => d.id === s.id) ?? null),
    entries: (pointer) => {
      const plan = plans.find((p) => p.id === bagSamples[Number((pointer.split('/')[1] ?? ''))]?.id);
      return plan === undefined ? [] : [plan.frame_seq, plan.seed_seq ?? -1, plan.manifest_seq ?? -1].filter((s) => s >= 0);
    },
  });

  // Revealed and final answers.
  const outcomes = new Map<string, CaseOutcome[]>(plans.map((p) => [p.id, safeOutcomes(index, p, out)]));
  let exam: { columns: string[]; rows: Row[] } = { columns: [...EXAMINATION_HEADER], rows: [] };
  try {
    exam = deriveExaminations(index, plans.map((sample) => ({ sample, outcomes: outcomes.get(sample.id) ?? [] })));
  } catch (e) {
    out.error('EXPORT_TABLE_MISMATCH', `data/tables/examinations.json: the answers cannot be derived from the ledger (${e instanceof Error ? e.message : String(e)})`, 'data/tables/examinations.json', { table: 'data/tables/examinations.json', row: null, column: null, bag: null, derived: null });
  }
  const bagExam = rowsOf(json('data/tables/examinations.json'));
  for (const m of compareRows(bagExam, exam.rows, examinationKey, exam.columns.slice(3))) mismatch('data/tables/examinations.json', m);
  const onlyAbsent = bagExam.length > 0 && bagExam.every((r) => absent.includes(String(r.sample)));
  if (!onlyAbsent && (exam.rows.length > 0 || input.tables.has('data/tables/examinations.csv')))
    compareCsvTable(text('data/tables/examinations.csv'), examinationsCsv(exam.columns, exam.rows), 3, 'data/tables/examinations.csv', mismatch, out);
  documents.set('data/tables/examinations.json', aligned(bagExam, exam.rows, examinationKey, (r) => examinationEntries(index, r)));

  // Statistics, recomputed.
  const notCovered: string[] = [];
  const checkpoint = input.checkpoint;
  for (const sample of plans) {
    const path = `data/tables/statistics-${sample.id}.json`;
    const bag = json(path);
    const bagDoc = typeof bag === 'object' && bag !== null && !Array.isArray(bag) ? (bag as Row) : undefined;
    if (checkpoint === undefined) continue; // check 3 reports it; nothing to tie the figures to
    let derived: Row;
    try {
      derived = deriveStatistics(index, sample, outcomes.get(sample.id) ?? [], checkpoint, bagDoc, input.ledger.full);
    } catch (e) {
      out.error('EXPORT_TABLE_MISMATCH', `${path}: the statistics cannot be recomputed from the ledger (${e instanceof Error ? e.message : String(e)})`, path, { table: path, row: null, column: null, bag: null, derived: null });
      continue;
    }
    notCovered.push(...STATISTICS_NOT_DERIVED.map((p) => `${path}#${p}`), ...(input.ledger.full ? [] : [`${path}#${ATTRIBUTION_POINTER}`]));
    if (bagDoc === undefined) {
      mismatch(path, { row: '', column: null, bag: null, derived: 'the plan\'s statistics' });
      continue;
    }
    // Without the full ledger, a partial selection may not carry the cataloguing entries of every
    // sampled subject: the breakdowns by unit and month then rest on entries the bag lacks.
    const lacking = input.ledger.full ? 0 : membersLackingCatalogue(index, sample);
    const byGroup = /^\/findings\/\d+\/breakdowns\/(unit|month)(\/|$)/;
    if (lacking > 0) notCovered.push(`${path}#/findings/*/breakdowns/unit|month (the bag's ledger lacks the cataloguing entries of ${lacking} sampled case(s); export with the full ledger)`);
    for (const d of compareJson(bagDoc, derived)) {
      if (lacking > 0 && byGroup.test(d.pointer)) continue;
      const { row, column } = rowAndColumn(d.pointer);
      mismatch(path, { row, column, bag: d.bag, derived: d.derived });
    }
    documents.set(path, { bag: bagDoc, derived, entries: () => statisticsEntries(index, sample) });
  }
  for (const path of input.tables.keys())
    if (/^data\/tables\/statistics-.*\.json$/.test(path) && !plans.some((p) => path === `data/tables/statistics-${p.id}.json`))
      mismatch(path, { row: '', column: null, bag: 'a statistics table', derived: null });

  // What is not derived.
  for (const path of [...input.tables.keys()].sort()) {
    const name = /^data\/tables\/([^/.]+)\.(csv|json)$/.exec(path)?.[1] ?? '';
    if (!DERIVED_TABLES.has(name) && name !== 'samples' && !name.startsWith('statistics-')) notCovered.push(path);
  }
  notCovered.push('data/tables/items.json#bag_path,withheld (checked against the files and custody/withheld.json, not the ledger)');
  for (const f of input.files) if (f === 'custody/events.json') notCovered.push(f);

  const detail =
    `${3 + (exam.rows.length > 0 ? 1 : 0) + plans.length * 2} tables re-derived from ${input.ledger.entries.length} ledger entries agree cell by cell` +
    `; ${plans.length} sample(s) redrawn from frame and seed; ${index.submissions.filter((s) => s.reveal_seq !== null).length} revealed answer(s) open their commitments` +
    `; statistics recomputed${input.ledger.full ? ' (full ledger)' : ' (not the full ledger: complete only as far as the entries shown)'}` +
    `${index.skipped.length > 0 ? `; ${index.skipped.length} entr${index.skipped.length === 1 ? 'y does' : 'ies do'} not project and were skipped` : ''}`;
  return { notCovered, full: input.ledger.full, documents, entries: index.bySeq, proven: input.ledger.proven, detail };
}

function checkRedraw(index: ReplayedIndex, sample: SamplesTable, bag: Row, out: StepFindings): void {
  const redraw = redrawSample(index, sample);
  const fail = (position: number | null, bagValue: unknown, derived: unknown, message: string): void =>
    out.error('EXPORT_SAMPLE_MISMATCH', `plan ${sample.name} (${sample.id}): ${message}`, 'data/tables/samples.json', { sample: sample.id, position, bag: bagValue ?? null, derived: derived ?? null });
  if (redraw.members === null) {
    fail(null, null, null, redraw.problem ?? 'cannot be redrawn');
    return;
  }
  if (redraw.frameDigest !== sample.frame_digest) fail(null, sample.frame_digest, redraw.frameDigest, `the frame entry's units give frame digest ${redraw.frameDigest ?? ''}, not the ${sample.frame_digest} it records`);
  if (redraw.manifestDigest !== sample.manifest_digest) fail(null, sample.manifest_digest, redraw.manifestDigest, `the redraw gives manifest digest ${redraw.manifestDigest ?? ''}, not the ${sample.manifest_digest ?? 'none'} of the manifest entry`);
  const sources: [string, readonly unknown[]][] = [
    ['the manifest entry', manifestMembers(index, sample)],
    ['samples.json', Array.isArray(bag.members) ? bag.members.map((m: unknown) => (typeof m === 'object' && m !== null ? (m as Row).case : m)) : []],
  ];
  for (const [where, members] of sources) {
    for (let i = 0; i < Math.max(members.length, redraw.members.length); i++) {
      if (members[i] !== redraw.members[i]) {
        fail(i, members[i], redraw.members[i], `member ${i + 1} is ${show(members[i])} in ${where}; drawn again from the frame and the seed it is ${show(redraw.members[i])}`);
        break; // the first difference says it; the rest follow from it
      }
    }
  }
}

/** Members of the plan whose catalogue record (subject, or item and its subject link) the replayed ledger lacks. */
function membersLackingCatalogue(index: ReplayedIndex, sample: SamplesTable): number {
  const members = index.members.filter((m) => m.sample_id === sample.id).map((m) => m.member_id);
  return members.filter((m) => (sample.unit_kind === 'items' ? !index.items.has(m) : !index.subjects.has(m))).length;
}

function safeOutcomes(index: ReplayedIndex, sample: SamplesTable, out: StepFindings): CaseOutcome[] {
  try {
    return deriveOutcomes(index, sample);
  } catch (e) {
    out.error('EXPORT_TABLE_MISMATCH', `plan ${sample.id}: its answers cannot be derived from the ledger (${e instanceof Error ? e.message : String(e)})`, 'data/tables/examinations.json', { table: 'data/tables/examinations.json', row: null, column: null, bag: null, derived: null });
    return [];
  }
}

function compareCsvTable(
  bagText: string | undefined,
  derivedText: string,
  keyColumns: number,
  path: string,
  mismatch: (table: string, m: CellMismatch) => void,
  out: StepFindings,
  fromBag: readonly string[] = [],
): void {
  if (bagText === undefined) {
    if (derivedText.split('\r\n').length <= 2) return; // a header alone: nothing the bag lacks
    out.error('EXPORT_TABLE_MISMATCH', `${path} is missing`, path, { table: path, row: null, column: null, bag: null, derived: 'the table' });
    return;
  }
  const result = compareCsv(bagText, derivedText, keyColumns);
  if (typeof result === 'string') {
    out.error('EXPORT_TABLE_MISMATCH', `${path}: ${result}`, path, { table: path, row: null, column: null, bag: null, derived: null });
    return;
  }
  for (const m of result) if (m.column === null || !fromBag.includes(m.column)) mismatch(path, m);
}

/** The derived rows in the bag's row order (null where the ledger gives no such row). */
function aligned(bag: readonly Row[], derived: readonly Row[], key: (r: Row) => string, entries: (r: Row) => number[]): ExplainedDocument {
  const byKey = new Map(derived.map((r) => [key(r), r]));
  return {
    bag,
    derived: bag.map((r) => byKey.get(key(r)) ?? null),
    entries: (pointer) => {
      const row = bag[Number(pointer.split('/')[1] ?? '')];
      return row === undefined ? [] : entries(row);
    },
  };
}

function itemEntries(index: ReplayedIndex, id: string): number[] {
  const item = index.items.get(id);
  if (item === undefined) return [];
  const opened = index.deliveries.get(item.delivery_id)?.opened_seq;
  return [...(opened === undefined ? [] : [opened]), item.seq];
}

function subjectEntries(index: ReplayedIndex, id: string): number[] {
  const out: number[] = [];
  for (const e of index.entries) {
    if (e.type !== 'cataloguing' || typeof e.details.action !== 'string' || !e.details.action.startsWith('subject.')) continue;
    const named = [obj(e.details.subject).id, obj(e.details.new_subject).id, ...(Array.isArray(e.details.merged) ? e.details.merged : [])];
    if (named.includes(id)) out.push(e.seq);
  }
  return out;
}

function examinationEntries(index: ReplayedIndex, row: Row): number[] {
  const sample = String(row.sample);
  const kase = String(row.case);
  const subs = index.submissions.filter((s) => s.sample_id === sample && s.case_id === kase);
  const own = subs.filter((s) => s.examiner === row.examiner);
  const chosen = own.length > 0 ? own : subs;
  const adj = own.length > 0 ? [] : index.adjudications.filter((a) => a.sample_id === sample && a.case_id === kase).map((a) => a.seq);
  return [...new Set([...chosen.flatMap((s) => [s.submit_seq, ...(s.reveal_seq === null ? [] : [s.reveal_seq])]), ...adj])].sort((a, b) => a - b);
}

function statisticsEntries(index: ReplayedIndex, sample: SamplesTable): number[] {
  const members = new Set(index.members.filter((m) => m.sample_id === sample.id).map((m) => m.member_id));
  const subjects = new Set(sample.unit_kind === 'items' ? [...members].map((i) => index.subjectItems.get(i)?.subject_id ?? '') : members);
  return index.entries
    .filter((e) => (e.type === 'examination' && e.details.sample === sample.id) || (e.seq === sample.frame_seq) || subjectEntriesOf(e, subjects))
    .map((e) => e.seq);
}

function subjectEntriesOf(e: LedgerEntry, subjects: ReadonlySet<string>): boolean {
  if (e.type !== 'cataloguing') return false;
  const id = obj(e.details.subject).id;
  return typeof id === 'string' && subjects.has(id);
}

function obj(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

export { EXAMINATION_HEADER };
