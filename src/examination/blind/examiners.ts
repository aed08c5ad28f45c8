// Who may examine and adjudicate (issue 12). In an archive with accounts, examiners and
// adjudicators are accounts, named by account id (the CLI resolves a name to its id first): an
// examiner must hold the examiner role and an adjudicator the adjudicator role, and an
// administrator (whose role includes the archive key: `init --admin`) is refused either way, with
// ASSIGNMENT_ROLE_REFUSED: whoever can unseal the answers or rewrite accounts must not also give
// them. An archive without accounts keeps the free-text names of the old workflow.
import { ActorError, normaliseActor } from '../../core/index.js';
import type { AccountsTable } from '../../db/index.js';
import { ExamError } from './examination-errors.js';

export type ExamRole = 'examiner' | 'adjudicator';

/** The recorded name of an examiner or adjudicator: an account id, or (no accounts) a normalised free-text name. */
export function checkStaff(accounts: readonly AccountsTable[], raw: string, as: ExamRole): string {
  if (accounts.length === 0) {
    try {
      return normaliseActor(raw, as === 'examiner' ? 'an examiner name' : 'an adjudicator name');
    } catch (e) {
      if (e instanceof ActorError) throw new ExamError('EXAMINATION_ASSIGN_INVALID', e.message, { cause: e });
      throw e;
    }
  }
  const id = raw.trim();
  const account = accounts.find((a) => a.id === id);
  if (account === undefined)
    throw new ExamError('EXAMINATION_ASSIGN_INVALID', `this archive has accounts: an ${as} is named by an account (no account ${JSON.stringify(id)})`, { details: { field: as, value: id } });
  if (account.disabled_seq !== null) throw new ExamError('EXAMINATION_ASSIGN_INVALID', `account ${id} is disabled`, { details: { field: as, value: id } });
  if (account.role === 'administrator')
    throw new ExamError('ASSIGNMENT_ROLE_REFUSED', `account ${id} is an administrator, who holds the archive key, and cannot be an ${as}`, { details: { account: id, role: account.role, as } });
  if (account.role !== as)
    throw new ExamError('ASSIGNMENT_ROLE_REFUSED', `account ${id} has the ${account.role} role, not the ${as} role`, { details: { account: id, role: account.role, as } });
  return account.id;
}
