// Consented family viewings (issue 15, "Consented viewing"). The family liaison records a
// session: who attended, under which consent, which photographs of the subject were shown, in
// which order, whether each was shown blurred first, and the family's answer for each.
//
// Refused unless:
// - the report is within the caller's consent scope and not erased (openForViewer);
// - a reviewer has accepted the report↔subject link (a family is never shown the photographs of an
//   unreviewed candidate): MISSING_SUBJECT_LINK_NOT_ACCEPTED;
// - the family's consent allows photographs to be shown (MISSING_VIEWING_NO_CONSENT);
// - the one recording is the liaison the consent names (MISSING_VIEWING_WRONG_LIAISON);
// - every photograph is an item linked to the subject (MISSING_VIEWING_INVALID).
//
// One ledger entry per session, written after it, not one per photograph: a session is one act
// under one consent, its order is the order of the list, and a session cut short is recorded as
// what was shown; entries per step would leave half-sessions in a ledger that is never rewritten.
// The attendees are family members: sealed under the report's key with the liaison's notes. In
// clear: the ids, the report's digest (the consent as it stood), and per photograph the item,
// blurred-first and the outcome, which drive the evidence level and name no one.
import { actorKey, hint, type RequestField } from '../../core/index.js';
import { IdentificationError } from '../errors.js';
import type { SubjectLinkPorts } from './ports.js';
import { checkText, inLedger, linkContext, sealNote } from './subject-link.service.js';
import { ACTION_REVIEW, ACTION_VIEWING, recognisedAny, VIEWING_OUTCOMES, type ShownPhotograph, type ViewingFacts } from './subject-link-state.js';

export interface Attendee {
  name: string;
  relation: string | null;
}

export interface ViewingRequest {
  attendees: readonly Attendee[];
  photographs: readonly ShownPhotograph[];
  notes?: string | null;
}

function bad(message: string, field: RequestField): IdentificationError {
  return new IdentificationError('MISSING_VIEWING_INVALID', message, { details: hint({ field }) });
}

/** Checks a session as a person gave it (untrusted input: typed by the caller, checked here all the same). */
function checkSession(req: ViewingRequest): { attendees: Attendee[]; photographs: ShownPhotograph[]; notes: string | null } {
  const given = req as { attendees?: unknown; photographs?: unknown; notes?: unknown };
  const attendeeList: unknown[] = Array.isArray(given.attendees) ? (given.attendees as unknown[]) : [];
  if (attendeeList.length === 0) throw bad('say who attended: at least one person', 'attendee');
  const attendees = attendeeList.map((x) => {
    const a = (x ?? {}) as { name?: unknown; relation?: unknown };
    const relation = typeof a.relation === 'string' && a.relation.trim() !== '' ? checkText(a.relation, 'the relation', 'attendee', 100, 'MISSING_VIEWING_INVALID') : null;
    return { name: checkText(a.name, 'who attended', 'attendee', 200, 'MISSING_VIEWING_INVALID'), relation };
  });
  const photoList: unknown[] = Array.isArray(given.photographs) ? (given.photographs as unknown[]) : [];
  if (photoList.length === 0) throw bad('say which photographs were shown, in order', 'photograph');
  const seen = new Set<string>();
  const photographs = photoList.map((x): ShownPhotograph => {
    const p = (x ?? {}) as { item?: unknown; blurred_first?: unknown; outcome?: unknown };
    if (typeof p.item !== 'string' || p.item.trim() === '') throw bad('each photograph is an item id', 'photograph');
    const item = p.item.trim().toUpperCase();
    if (seen.has(item)) throw bad(`photograph ${item} is listed twice`, 'photograph');
    seen.add(item);
    if (typeof p.blurred_first !== 'boolean') throw bad(`say whether ${item} was shown blurred first`, 'photograph');
    const outcome = VIEWING_OUTCOMES.find((o) => o === p.outcome);
    if (outcome === undefined) throw bad(`the outcome for ${item} is one of ${VIEWING_OUTCOMES.join(', ')}, got ${JSON.stringify(p.outcome ?? null)}`, 'photograph');
    return { item, blurred_first: p.blurred_first, outcome };
  });
  const notes = typeof given.notes === 'string' && given.notes.trim() !== '' ? checkText(given.notes, 'the notes', 'notes', 2000, 'MISSING_VIEWING_INVALID') : null;
  return { attendees, photographs, notes };
}

export interface ViewingResult {
  report: string;
  subject: string;
  seq: number;
  photographs: ShownPhotograph[];
  /** Whether the family recognised any photograph: the viewing a `recognised` level may rest on. */
  recognised: boolean;
}

/** Records a family-viewing session for a report and a subject: one ledger entry, attendees sealed. */
export async function recordViewing(ports: SubjectLinkPorts, reportId: string, subjectId: string, req: ViewingRequest): Promise<ViewingResult> {
  const session = checkSession(req);
  const { row, content, state } = await linkContext(ports, reportId, subjectId);
  if (state?.status !== 'accept')
    throw new IdentificationError('MISSING_SUBJECT_LINK_NOT_ACCEPTED', `no reviewer has accepted subject ${subjectId} for report ${reportId}: a family is never shown an unreviewed candidate; nothing was recorded`, {
      details: { report: reportId, subject: subjectId },
    });
  if (content.consent.photographs !== 'yes')
    throw new IdentificationError('MISSING_VIEWING_NO_CONSENT', `the family's consent for report ${reportId} does not allow photographs to be shown; nothing was recorded`, { details: { report: reportId } });
  const liaison = content.consent.liaison;
  if (liaison === null || !ports.actorNames.some((n) => actorKey(n) === actorKey(liaison)))
    // The liaison's name is the family's choice: it is not repeated in the refusal.
    throw new IdentificationError('MISSING_VIEWING_WRONG_LIAISON', `the family's consent for report ${reportId} names another liaison: only they record a viewing; nothing was recorded`, {
      details: { report: reportId },
    });
  await inLedger(ports, state.decided_seq, { action: ACTION_REVIEW, report: reportId, subject: subjectId, decision: 'accept' }, 'MISSING_SUBJECT_LINK_NOT_ACCEPTED');
  const items = new Set((await ports.subjectItems(subjectId)).map((s) => s.item_id));
  const foreign = session.photographs.filter((p) => !items.has(p.item)).map((p) => p.item);
  if (foreign.length > 0) throw bad(`not photographs of subject ${subjectId}: ${foreign.join(', ')}; nothing was recorded`, 'photograph');
  const facts: ViewingFacts = { report_digest: row.digest, photographs: session.photographs };
  const note = await sealNote(ports, row, ACTION_VIEWING, subjectId, { attendees: session.attendees.map((a) => ({ ...a })), notes: session.notes });
  const [seq = -1] = await ports.commit([
    { action: ACTION_VIEWING, report: reportId, subject: subjectId, report_digest: facts.report_digest, photographs: facts.photographs.map((p) => ({ ...p })), ...note },
  ]);
  return { report: reportId, subject: subjectId, seq, photographs: session.photographs, recognised: recognisedAny(facts) };
}
