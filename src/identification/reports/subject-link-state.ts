// The state of a report's links to subjects (issue 15, "Review"), folded from its ledger events in
// order. Pure: the services check a new decision against this fold, and the same fold reads the
// index (which the ledger rebuilds), so what a write refuses is exactly what a read would not show.
//
// The rules, one place:
// - `accept` makes the link a candidate (level `candidate`); `reject` ends it (no level). The
//   latest decision stands; a link accepted again starts again at `candidate`.
// - `recognised` only from a viewing of this report and subject, recorded while the current
//   acceptance stands, in which the family recognised at least one photograph.
// - `confirmed` only over `recognised`, with at least one corroboration (number record, DNA or
//   document) recorded as a reference.
import type { MissingSubjectEventsTable } from '../../db/index.js';

export const SUBJECT_DECISIONS = ['accept', 'reject'] as const;
export type SubjectDecision = (typeof SUBJECT_DECISIONS)[number];
export const EVIDENCE_LEVELS = ['candidate', 'recognised', 'confirmed'] as const;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];
export const CORROBORATION_KINDS = ['number-record', 'dna', 'document'] as const;
export type CorroborationKind = (typeof CORROBORATION_KINDS)[number];
export const VIEWING_OUTCOMES = ['recognised', 'not-recognised', 'unsure'] as const;
export type ViewingOutcome = (typeof VIEWING_OUTCOMES)[number];

export const ACTION_REVIEW = 'missing.subject-review';
export const ACTION_LEVEL = 'missing.subject-level';
export const ACTION_VIEWING = 'missing.viewing';

/** One photograph shown in a viewing, in the order shown. Not family data: an item and an outcome. */
export interface ShownPhotograph {
  item: string;
  /** Shown blurred first, then unblurred only if the family chose to look. */
  blurred_first: boolean;
  outcome: ViewingOutcome;
}

/** The clear facts of each action (the index's facts_json). */
export interface ViewingFacts {
  report_digest: string;
  photographs: ShownPhotograph[];
}
export interface LevelFacts {
  viewing: number | null;
  corroboration: CorroborationKind[];
}

export interface SubjectLinkState {
  subject: string;
  status: SubjectDecision;
  /** Null once rejected. */
  level: EvidenceLevel | null;
  /** The entry of the decision that stands. */
  decided_seq: number;
  /** The entry that set the level (the acceptance itself for `candidate`). */
  level_seq: number | null;
  /** Viewings of this report and subject while the current acceptance stands. */
  viewings: number[];
  /** Those of them in which the family recognised a photograph. */
  recognised_in: number[];
}

export function parseFacts<T>(row: Pick<MissingSubjectEventsTable, 'facts_json'>): T {
  return JSON.parse(row.facts_json) as T;
}

/** Whether a viewing's photographs include one the family recognised. */
export function recognisedAny(facts: ViewingFacts): boolean {
  return facts.photographs.some((p) => p.outcome === 'recognised');
}

/** Folds a report's events (any order; sorted by seq here) into the state of each subject link. */
export function foldSubjectLinks(events: readonly MissingSubjectEventsTable[]): Map<string, SubjectLinkState> {
  const out = new Map<string, SubjectLinkState>();
  for (const e of [...events].sort((x, y) => Number(x.seq) - Number(y.seq))) {
    const seq = Number(e.seq);
    const cur = out.get(e.subject_id);
    if (e.action === ACTION_REVIEW) {
      const accepted = e.value === 'accept';
      out.set(e.subject_id, { subject: e.subject_id, status: accepted ? 'accept' : 'reject', level: accepted ? 'candidate' : null, decided_seq: seq, level_seq: accepted ? seq : null, viewings: [], recognised_in: [] });
    } else if (e.action === ACTION_VIEWING) {
      // A viewing is recorded only over an accepted link; one that is not is left out of the state.
      if (cur?.status !== 'accept') continue;
      cur.viewings.push(seq);
      if (recognisedAny(parseFacts<ViewingFacts>(e))) cur.recognised_in.push(seq);
    } else if (e.action === ACTION_LEVEL && cur !== undefined) {
      const facts = parseFacts<LevelFacts>(e);
      if (levelRefusal(cur, e.value as EvidenceLevel, facts) === null) Object.assign(cur, { level: e.value, level_seq: seq });
    }
  }
  return out;
}

export type LevelRefusal = 'MISSING_SUBJECT_LINK_NOT_ACCEPTED' | 'MISSING_LEVEL_NEEDS_RECOGNITION' | 'MISSING_LEVEL_NEEDS_CORROBORATION' | 'MISSING_SUBJECT_LINK_INVALID';

/** Why a link in state `cur` cannot be raised to `level` with these facts; null when it can. */
export function levelRefusal(cur: SubjectLinkState | undefined, level: EvidenceLevel, facts: LevelFacts): LevelRefusal | null {
  if (cur?.status !== 'accept') return 'MISSING_SUBJECT_LINK_NOT_ACCEPTED';
  if (level === 'recognised') return facts.viewing !== null && cur.recognised_in.includes(facts.viewing) ? null : 'MISSING_LEVEL_NEEDS_RECOGNITION';
  if (level === 'confirmed') {
    if (cur.level !== 'recognised' && cur.level !== 'confirmed') return 'MISSING_LEVEL_NEEDS_RECOGNITION';
    return facts.corroboration.length > 0 ? null : 'MISSING_LEVEL_NEEDS_CORROBORATION';
  }
  // `candidate` is what an acceptance gives; it is never raised to.
  return 'MISSING_SUBJECT_LINK_INVALID';
}
