// Review of report↔subject links (issue 15, "Review"): a reviewer accepts or rejects a proposed
// candidate subject for a report, with a reason, and raises an accepted link's evidence level:
// `recognised` from a viewing in which the family recognised a photograph (viewing.service.ts),
// `confirmed` from a recognition plus at least one independent corroboration (number record, DNA,
// document). Every decision is one ledger entry. The reason and the references may be personal:
// they are sealed under the report's own data key (report-seal.ts, with the entry's purpose in
// the additional data), so that erasing the report (destroying its key) erases them too. In clear
// the entry holds only the report and subject ids, the decision or level, the viewing it rests on
// and the kinds of corroboration.
import { canonicalBytes, hint, type JsonValue, type RequestField } from '../../core/index.js';
import type { MissingReportsTable, MissingSubjectEventsTable } from '../../db/index.js';
import { IdentificationError } from '../errors.js';
import type { SubjectLinkPorts } from './ports.js';
import type { ReportContent } from './report-content.js';
import { openForViewer, withDataKey } from './reports.service.js';
import { openReport, parseSealed, sealedDigest, sealReport } from './report-seal.js';
import {
  ACTION_LEVEL,
  ACTION_REVIEW,
  ACTION_VIEWING,
  CORROBORATION_KINDS,
  foldSubjectLinks,
  levelRefusal,
  parseFacts,
  recognisedAny,
  SUBJECT_DECISIONS,
  type CorroborationKind,
  type EvidenceLevel,
  type LevelFacts,
  type SubjectDecision,
  type SubjectLinkState,
  type ViewingFacts,
} from './subject-link-state.js';

const MAX_TEXT = 2000;
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

export function invalid(message: string, field?: RequestField, code: 'MISSING_SUBJECT_LINK_INVALID' | 'MISSING_VIEWING_INVALID' = 'MISSING_SUBJECT_LINK_INVALID'): IdentificationError {
  return new IdentificationError(code, message, field === undefined ? {} : { details: hint({ field }) });
}

/** A free text that is recorded (sealed): trimmed, 1–2000 characters, no control characters. */
export function checkText(v: unknown, what: string, field: RequestField, max = MAX_TEXT, code?: 'MISSING_VIEWING_INVALID'): string {
  const t = typeof v === 'string' ? v.trim() : '';
  if (t === '') throw invalid(`say ${what}: it is recorded (sealed under the report's key)`, field, code);
  if ([...t].length > max || UNPRINTABLE.test(t.replace(/[\n\t]/g, ' '))) throw invalid(`${what} must be at most ${max} printable characters`, field, code);
  return t;
}

export interface LinkContext {
  row: MissingReportsTable;
  content: ReportContent;
  events: MissingSubjectEventsTable[];
  state: SubjectLinkState | undefined;
}

/**
 * The report (within the caller's consent scope, not erased), the subject (which must exist), and
 * the link's state from the report's events.
 */
export async function linkContext(ports: SubjectLinkPorts, reportId: string, subjectId: string): Promise<LinkContext> {
  const row = await ports.getReport(reportId);
  if (row === undefined) throw new IdentificationError('MISSING_REPORT_NOT_FOUND', `no report ${reportId}: nothing was recorded`, { details: { report: reportId } });
  const content = await openForViewer(ports, row);
  if ((await ports.getSubject(subjectId)) === undefined)
    throw new IdentificationError('MISSING_SUBJECT_NOT_FOUND', `no subject ${subjectId}: nothing was recorded`, { details: { subject: subjectId } });
  const events = await ports.listSubjectEvents(reportId);
  return { row, content, events, state: foldSubjectLinks(events).get(subjectId) };
}

/** Seals a note about a report under its data key, bound to the entry's action and subject. */
export async function sealNote(ports: SubjectLinkPorts, row: MissingReportsTable, action: string, subject: string, note: { [k: string]: JsonValue }): Promise<{ sealed: { [k: string]: JsonValue }; digest: string }> {
  return withDataKey(ports, row, (dataKey) => {
    const { sealed, digest } = sealReport(dataKey, row.id, row.org, canonicalBytes(note), [action, subject]);
    return { sealed: { ...sealed }, digest };
  });
}

/** Opens the sealed note of an event (the index row is checked against its digest first). */
export async function openNote(ports: SubjectLinkPorts, row: MissingReportsTable, e: MissingSubjectEventsTable): Promise<{ [k: string]: JsonValue }> {
  const sealed = parseSealed(e.sealed_json);
  if (sealedDigest(sealed) !== e.digest)
    throw new IdentificationError('MISSING_REPORT_KEY_INVALID', `the sealed note of entry ${String(e.seq)} in the index does not match its digest`, { details: hint({ remedy: ['verify'] }) });
  return withDataKey(ports, row, (dataKey) => JSON.parse(openReport(dataKey, row.id, row.org, sealed, [e.action, e.subject_id]).toString('utf8')) as { [k: string]: JsonValue });
}

/** Records a reviewer's decision on a proposed report↔subject link: one ledger entry, the reason sealed. */
export async function reviewSubjectLink(
  ports: SubjectLinkPorts,
  reportId: string,
  subjectId: string,
  decision: SubjectDecision,
  reason: string,
): Promise<{ report: string; subject: string; decision: SubjectDecision; level: EvidenceLevel | null; seq: number }> {
  if (!(SUBJECT_DECISIONS as readonly string[]).includes(decision)) throw invalid(`a decision is accept or reject, got ${String(decision)}`, 'decision');
  const why = checkText(reason, 'why', 'reason');
  const { row } = await linkContext(ports, reportId, subjectId);
  const note = await sealNote(ports, row, ACTION_REVIEW, subjectId, { reason: why });
  const [seq = -1] = await ports.commit([{ action: ACTION_REVIEW, report: reportId, subject: subjectId, decision, ...note }]);
  return { report: reportId, subject: subjectId, decision, level: decision === 'accept' ? 'candidate' : null, seq };
}

export interface CorroborationRef {
  kind: CorroborationKind;
  reference: string;
}

/** Checks corroboration references given by a person (untrusted). */
export function checkReferences(refs: unknown): CorroborationRef[] {
  if (!Array.isArray(refs)) throw invalid('references are a list of {kind, reference}', 'reference');
  return refs.map((r: unknown) => {
    const o = (r ?? {}) as { kind?: unknown; reference?: unknown };
    if (typeof o.kind !== 'string' || !(CORROBORATION_KINDS as readonly string[]).includes(o.kind))
      throw invalid(`a corroboration is one of ${CORROBORATION_KINDS.join(', ')}, got ${JSON.stringify(o.kind ?? null)}`, 'reference');
    return { kind: o.kind as CorroborationKind, reference: checkText(o.reference, 'what the corroboration is (its reference)', 'reference', 500) };
  });
}

export type LevelRequest = { level: 'recognised'; viewing: number; reason: string } | { level: 'confirmed'; references: readonly CorroborationRef[]; reason: string };

/**
 * Raises an accepted link's evidence level, refusing with the code of the rule it breaks
 * (subject-link-state.ts, levelRefusal). The reason and the references are sealed.
 */
export async function raiseLevel(ports: SubjectLinkPorts, reportId: string, subjectId: string, req: LevelRequest): Promise<{ report: string; subject: string; level: EvidenceLevel; seq: number }> {
  if (req.level !== 'recognised' && req.level !== 'confirmed') throw invalid(`a level is raised to recognised or confirmed, got ${String((req as { level: unknown }).level)}`, 'level');
  const why = checkText(req.reason, 'why', 'reason');
  const references = req.level === 'confirmed' ? checkReferences(req.references) : [];
  if (req.level === 'recognised' && !Number.isSafeInteger(req.viewing)) throw invalid('name the viewing (its ledger entry) in which the family recognised the subject', 'viewing');
  const { row, state } = await linkContext(ports, reportId, subjectId);
  const facts: LevelFacts = { viewing: req.level === 'recognised' ? req.viewing : null, corroboration: references.map((r) => r.kind) };
  const refusal = levelRefusal(state, req.level, facts);
  if (refusal !== null) throw levelError(refusal, reportId, subjectId, req.level, state);
  // The index only proposes what the level rests on: the ledger must record it.
  await inLedger(ports, state?.decided_seq ?? -1, { action: ACTION_REVIEW, report: reportId, subject: subjectId, decision: 'accept' }, 'MISSING_SUBJECT_LINK_NOT_ACCEPTED');
  if (facts.viewing !== null) await inLedger(ports, facts.viewing, { action: ACTION_VIEWING, report: reportId, subject: subjectId }, 'MISSING_LEVEL_NEEDS_RECOGNITION', recognisedAny);
  else await inLedger(ports, state?.level_seq ?? -1, { action: ACTION_LEVEL, report: reportId, subject: subjectId, level: 'recognised' }, 'MISSING_LEVEL_NEEDS_RECOGNITION');
  const note = await sealNote(ports, row, ACTION_LEVEL, subjectId, { reason: why, references: references.map((r) => ({ ...r })) });
  const [seq = -1] = await ports.commit([{ action: ACTION_LEVEL, report: reportId, subject: subjectId, level: req.level, viewing: facts.viewing, corroboration: facts.corroboration, ...note }]);
  return { report: reportId, subject: subjectId, level: req.level, seq };
}

/**
 * Checks that ledger entry `seq` is what the index says it is (the index is untrusted: anyone with
 * the database can plant a row). Refuses with `code`, pointing at verify, when it is not.
 */
export async function inLedger(
  ports: SubjectLinkPorts,
  seq: number,
  expected: { [k: string]: string },
  code: 'MISSING_SUBJECT_LINK_NOT_ACCEPTED' | 'MISSING_LEVEL_NEEDS_RECOGNITION',
  also?: (facts: ViewingFacts) => boolean,
): Promise<void> {
  const d = await ports.ledgerDetails(seq);
  const matches = d !== null && Object.entries(expected).every(([k, v]) => d[k] === v) && (also === undefined || (Array.isArray(d.photographs) && also(d as unknown as ViewingFacts)));
  if (!matches)
    throw new IdentificationError(code, `the index names ledger entry ${seq} for this link, but the ledger does not record it so: nothing was recorded`, {
      details: { seq, ...hint({ remedy: ['verify'] }) },
    });
}

function levelError(code: NonNullable<ReturnType<typeof levelRefusal>>, report: string, subject: string, level: EvidenceLevel, state: SubjectLinkState | undefined): IdentificationError {
  const details = { report, subject, level, current: state?.status === 'accept' ? state.level : (state?.status ?? null) };
  switch (code) {
    case 'MISSING_SUBJECT_LINK_NOT_ACCEPTED':
      return new IdentificationError(code, `no reviewer has accepted subject ${subject} for report ${report}: accept the link first; nothing was recorded`, { details });
    case 'MISSING_LEVEL_NEEDS_RECOGNITION':
      return new IdentificationError(
        code,
        level === 'recognised'
          ? `recognised needs a viewing of report ${report} and subject ${subject}, recorded since the link was accepted, in which the family recognised a photograph; nothing was recorded`
          : `confirmed needs a recognition by the family first (level recognised); nothing was recorded`,
        { details: { ...details, viewings: state?.viewings ?? [], recognised_in: state?.recognised_in ?? [] } },
      );
    case 'MISSING_LEVEL_NEEDS_CORROBORATION':
      return new IdentificationError(code, 'confirmed needs at least one independent corroboration: a number record, DNA or a document, given as a reference; nothing was recorded', {
        details: { ...details, ...hint({ field: 'reference' }) },
      });
    case 'MISSING_SUBJECT_LINK_INVALID':
      return invalid(`a link is raised to recognised or confirmed, not ${level}`, 'level');
  }
}

export interface SubjectLinkEventView {
  seq: number;
  action: string;
  value: string | null;
  facts: { [k: string]: JsonValue };
  actor: string;
  time: string;
  /** The sealed note opened (reason, references, attendees). */
  note: { [k: string]: JsonValue };
}

export interface SubjectLinksView {
  report: string;
  links: (SubjectLinkState & { events: SubjectLinkEventView[] })[];
}

/** A report's links to subjects with their decisions, levels and viewings, the sealed notes opened. */
export async function subjectLinksOf(ports: SubjectLinkPorts, reportId: string): Promise<SubjectLinksView> {
  const row = await ports.getReport(reportId);
  if (row === undefined) throw new IdentificationError('MISSING_REPORT_NOT_FOUND', `no report ${reportId}`);
  await openForViewer(ports, row);
  const events = await ports.listSubjectEvents(reportId);
  const views: SubjectLinkEventView[] = [];
  for (const e of events)
    views.push({ seq: Number(e.seq), action: e.action, value: e.value, facts: parseFacts(e), actor: e.actor, time: e.time, note: await openNote(ports, row, e) });
  const links = [...foldSubjectLinks(events).values()].map((s) => ({ ...s, events: views.filter((v) => events.find((e) => Number(e.seq) === v.seq)?.subject_id === s.subject) }));
  return { report: reportId, links: links.sort((a, b) => (a.subject < b.subject ? -1 : 1)) };
}
