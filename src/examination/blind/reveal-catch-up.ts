// The reveal is a consequence, not an event that can be missed. A run killed between a case's last
// submission and its reveal entry (or any other way the reveal went missing) leaves every answer in,
// sealed, with resubmission refused: nothing would ever reveal it. So every open for writing looks
// for such cases and reveals them, under a system actor and with the reason in the entry.
import { sameActor, CustodyError } from '../../core/index.js';
import { revealCase, type RevealPorts } from './examination.service.js';
import type { ExaminationReads } from '../ports.js';
import { loadSample } from './outcomes.js';
import { SYSTEM_ACTOR } from './reveal-rule.js';
export const CATCH_UP_REASON =
  'every assigned examiner had submitted but the reveal entry was missing (an interrupted run): revealed when the archive was next opened for writing';

export interface CatchUpResult {
  revealed: { sample: string; case: string }[];
  /** Cases complete but not revealable here (a sealed answer that does not open): `verify` reports them. */
  failed: { sample: string; case: string; code: string; message: string }[];
}

/** What the catch-up reads (the plans, their assignments and submissions) and a reveal's ports; an open Archive implements it as it is. */
export type CatchUpPorts = ExaminationReads<'listSamples' | 'findSample' | 'assignments' | 'submissions'> & RevealPorts;

/** Reveals every case whose assigned examiners have all submitted and whose reveal is missing. */
export async function revealCompletedCases(archive: CatchUpPorts): Promise<CatchUpResult> {
  const out: CatchUpResult = { revealed: [], failed: [] };
  for (const sample of await archive.examinations.listSamples()) {
    const sealed = (await archive.examinations.submissions(sample.id)).filter((s) => s.reveal_seq === null);
    for (const caseId of [...new Set(sealed.map((s) => s.case_id))]) {
      const assigned = await archive.examinations.assignments(sample.id, caseId);
      const submitted = await archive.examinations.submissions(sample.id, caseId);
      const complete = assigned.length > 0 && assigned.every((a) => submitted.some((s) => sameActor(s.examiner, a.examiner)));
      if (!complete) continue;
      try {
        // A system act, under the system actor: no account's role to check.
        await revealCase(archive, { role: undefined }, await loadSample(archive, sample.id), caseId, { actor: SYSTEM_ACTOR, reason: CATCH_UP_REASON });
        out.revealed.push({ sample: sample.id, case: caseId });
      } catch (e) {
        // A sealed answer that will not open (SEAL_BROKEN) or does not match its commitment: the
        // ledger or the key is not what it was. Nothing is appended; `verify` names the case.
        const code = e instanceof CustodyError ? String(e.code) : '';
        if (!['SEAL_BROKEN', 'SEAL_KEY_MISSING', 'EXAMINATION_REVEAL_MISMATCH'].includes(code)) throw e;
        out.failed.push({ sample: sample.id, case: caseId, code, message: (e as Error).message });
      }
    }
  }
  return out;
}
