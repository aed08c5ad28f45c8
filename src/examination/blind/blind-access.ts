// Blindness, enforced (issue 12, "Blinded cases"). An examiner assigned to a plan may not read
// the catalogue (number, unit, dates, sex, age, names), the ledger, the proofs, the item details
// or the near-duplicates of that plan's subjects and items until they have submitted every case
// assigned to them in it. The services check it here, from the index, for whichever way in (the
// CLI now, the server later): `blindScope` once per request or command, then
// `assertMayReadSubject` / `assertMayReadItem` per record, or `assertNotBlinded` for what cannot
// be narrowed to records (lists, the ledger, statistics).
//
// Who is an examiner: the actor, an account id. Blindness needs identity, so it is enforced in
// archives with accounts (where assignments name account ids). An archive without accounts keeps
// the free-text actors of earlier versions, which anyone can claim, and their old behaviour.
import { sameActor } from '../../core/index.js';
import type { ExamAssignmentsTable, ExamSubmissionsTable, SampleMembersTable, SamplesTable, SubjectItemsTable } from '../../db/index.js';
import { ExamError } from './examination-errors.js';

/** What blindness reads: the plans, their assignments and submissions, and subject ↔ item links. */
export interface BlindPorts {
  listAccounts(): Promise<readonly { id: string }[]>;
  listSamples(): Promise<SamplesTable[]>;
  members(sampleId: string): Promise<SampleMembersTable[]>;
  assignments(sampleId: string): Promise<ExamAssignmentsTable[]>;
  submissions(sampleId: string): Promise<ExamSubmissionsTable[]>;
  allSubjectItems(): Promise<SubjectItemsTable[]>;
}

export interface BlindScope {
  readonly actor: string;
  /** Plans in which the actor still has cases to submit. */
  readonly plans: readonly { id: string; name: string; left: number }[];
  /** Subjects and items of those plans (a subject's items; an item plan's items and their subjects). */
  readonly subjects: ReadonlySet<string>;
  readonly items: ReadonlySet<string>;
}

/** The actor's blind scope, or null when the actor has no unfinished case in any plan. */
export async function blindScope(ports: BlindPorts, actor: string): Promise<BlindScope | null> {
  if ((await ports.listAccounts()).length === 0) return null;
  const plans: { id: string; name: string; left: number }[] = [];
  const subjects = new Set<string>();
  const items = new Set<string>();
  let links: SubjectItemsTable[] | null = null;
  for (const sample of await ports.listSamples()) {
    const mine = (await ports.assignments(sample.id)).filter((a) => sameActor(a.examiner, actor));
    if (mine.length === 0) continue;
    const done = new Set((await ports.submissions(sample.id)).filter((s) => sameActor(s.examiner, actor)).map((s) => s.case_id));
    const left = mine.filter((a) => !done.has(a.case_id)).length;
    if (left === 0) continue;
    plans.push({ id: sample.id, name: sample.name, left });
    links ??= await ports.allSubjectItems();
    const members = new Set((await ports.members(sample.id)).map((m) => m.member_id));
    for (const m of members) (sample.unit_kind === 'items' ? items : subjects).add(m);
    for (const l of links) {
      if (sample.unit_kind === 'items' ? members.has(l.item_id) : members.has(l.subject_id)) {
        items.add(l.item_id);
        subjects.add(l.subject_id);
      }
    }
  }
  return plans.length === 0 ? null : { actor, plans, subjects, items };
}

function refused(scope: BlindScope, what: string): ExamError {
  const names = scope.plans.map((p) => p.name).join(', ');
  return new ExamError('BLIND_REFUSED', `${what} is withheld from ${scope.actor} until they have submitted every case assigned to them in plan ${names}`, {
    details: { plans: scope.plans.map((p) => ({ plan: p.name, cases_left: p.left })) },
  });
}

/** Refuses a read that cannot be narrowed to records (a list, the ledger, statistics) while blinded. */
export function assertNotBlinded(scope: BlindScope | null, what: string): void {
  if (scope !== null) throw refused(scope, what);
}

export function assertMayReadSubject(scope: BlindScope | null, subjectId: string): void {
  if (scope?.subjects.has(subjectId) === true) throw refused(scope, `subject ${subjectId}`);
}

export function assertMayReadItem(scope: BlindScope | null, itemId: string): void {
  if (scope?.items.has(itemId) === true) throw refused(scope, `item ${itemId}`);
}

/** For lists the server filters rather than refuses: is this subject hidden from the actor? */
export function subjectHidden(scope: BlindScope | null, subjectId: string): boolean {
  return scope?.subjects.has(subjectId) === true;
}

export function itemHidden(scope: BlindScope | null, itemId: string): boolean {
  return scope?.items.has(itemId) === true;
}
