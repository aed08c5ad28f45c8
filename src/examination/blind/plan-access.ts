// A plan's keys and case codes, as the examination services need them: the sealing key of its
// answers (the plan key's, or the archive's derived key for a plan assigned before plan keys),
// and the case a reference names (a code; a subject or item id only where nobody is blinded by
// accounts).
import type { AccountsTable, ExamAssignmentsTable, SampleMembersTable, SamplesTable } from '../../db/index.js';
import { openPlanKey, planSealingKey, type Kek } from './plan-key.js';

/** What this file reads: an open archive fits, and so does a server's request context. */
export interface PlanPorts {
  /** The archive's derived sealing key (plans assigned before plan keys), null in read mode. */
  readonly sealingKey: Buffer | null;
  examinationKek(): Promise<Kek | null>;
  readonly examinations: {
    assignments(sampleId: string): Promise<ExamAssignmentsTable[]>;
    members(sampleId: string): Promise<SampleMembersTable[]>;
  };
  readonly index: { listAccounts(): Promise<AccountsTable[]> };
}

/** The key that seals and opens this plan's answers (write mode; null in read mode). */
export async function planAnswerKey(archive: Pick<PlanPorts, 'sealingKey' | 'examinationKek'>, sample: SamplesTable): Promise<Buffer | null> {
  if (sample.plan_key_json === null) return archive.sealingKey; // assigned before plan keys: the old sealing
  return planSealingKey(openPlanKey(await archive.examinationKek(), sample.id, sample.plan_key_json));
}

export interface CaseRefs {
  /** The case (subject or item id) a reference names, or undefined. */
  resolve(ref: string): string | undefined;
  /** What an examiner is shown for a case: its code, or its id for a plan without codes. */
  shown(caseId: string): string;
  /** The case's code whatever the archive (its id for a plan without codes): what signatures cover. */
  code(caseId: string): string;
  /**
   * How the plan's ledger entries name the case: its code for a plan assigned with sealed case
   * ids (assignment version 2), its id before. A subject or item id is never written in clear
   * into an entry of a version-2 plan before its close.
   */
  entry(caseId: string): string;
}

/** How the ledger names a case, from its assignment rows (any examiner's): the code once ids are sealed. */
export function entryCaseOf(assignments: readonly Pick<ExamAssignmentsTable, 'case_id' | 'code' | 'sealed_case'>[], caseId: string): string {
  const a = assignments.find((r) => r.case_id === caseId);
  return a !== undefined && a.sealed_case !== null && a.code !== null ? a.code : caseId;
}

/**
 * How cases are named to examiners. A code always resolves. In an archive with accounts cases are
 * shown by code, and a subject or item id does not resolve: an examiner never learns, even by a
 * refusal's wording, which subject is in a plan. An archive without accounts (the free-text
 * workflow of earlier versions) shows and accepts ids as before, and accepts codes too.
 */
export async function caseRefs(archive: Pick<PlanPorts, 'examinations' | 'index'>, sample: SamplesTable): Promise<CaseRefs> {
  const assignments = await archive.examinations.assignments(sample.id);
  const byCode = new Map<string, string>();
  const codeOf = new Map<string, string>();
  const sealed = new Set<string>();
  for (const a of assignments)
    if (a.code !== null) {
      byCode.set(a.code, a.case_id);
      codeOf.set(a.case_id, a.code);
      if (a.sealed_case !== null) sealed.add(a.case_id);
    }
  // An archive without accounts keeps showing ids, as before codes (its actors are free text).
  const team = (await archive.index.listAccounts()).length > 0;
  const idsAllowed = byCode.size === 0 || !team;
  const members = idsAllowed ? new Set((await archive.examinations.members(sample.id)).map((m) => m.member_id)) : new Set<string>();
  return {
    resolve: (ref) => byCode.get(ref) ?? (members.has(ref) ? ref : undefined),
    shown: (caseId) => (team ? (codeOf.get(caseId) ?? caseId) : caseId),
    code: (caseId) => codeOf.get(caseId) ?? caseId,
    entry: (caseId) => (sealed.has(caseId) ? (codeOf.get(caseId) ?? caseId) : caseId),
  };
}
