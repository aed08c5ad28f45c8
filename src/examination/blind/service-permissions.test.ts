// Issue 12: "The permission matrix … is enforced in the services, not only at the routes." Each
// examination service (plans, assignment, submission, reveal, adjudication) is called directly,
// as a server request's archive would carry a role (archiveFor), for every role: a role without
// the permission is refused (ACCOUNT_FORBIDDEN) before the service reads or writes anything; a
// role with it, and the CLI (no role), get past the check to the archive.
import { describe, expect, it } from 'vitest';
import { can, ROLES, type Permission, type Role } from '../../accounts/index.js';
import type { SamplesTable } from '../../db/index.js';
import { adjudicateCases, submitAnswers } from './batch.service.js';
import {
  adjudicateCase,
  assignExaminers,
  caseForm,
  closePlan,
  commitAdjudication,
  commitSubmission,
  prepareAdjudication,
  prepareSubmission,
  revealCase,
  revealedCase,
  submitAnswer,
} from './examination.service.js';

/** The archive handle the services take (src/app.ts is not imported outside cli/, http/ and the root). */
type Archive = Parameters<typeof assignExaminers>[0];

const REACHED = 'the service reached the archive';

/** An archive acting as `role` (undefined: the CLI) that throws REACHED on any other use. */
function stubArchive(role: Role | undefined): Archive {
  return new Proxy({} as Archive, {
    get(_t, prop) {
      if (prop === 'acting') return role === undefined ? undefined : { role };
      if (prop === 'then') return undefined;
      throw new Error(REACHED);
    },
  });
}

const sample = { id: 'S', name: 'plan' } as SamplesTable;
const prepared = {} as never;

const EXAMINATION_CALLS: [string, Permission, (a: Archive) => Promise<unknown>][] = [
  ['assignExaminers', 'sample.manage', (a) => assignExaminers(a, 'plan', ['x', 'y'])],
  ['closePlan', 'sample.manage', (a) => closePlan(a, 'plan')],
  ['caseForm', 'examination.submit', (a) => caseForm(a, 'plan', 'k-1', 'x')],
  ['prepareSubmission', 'examination.submit', (a) => prepareSubmission(a, 'plan', 'k-1', 'x', {})],
  ['commitSubmission', 'examination.submit', (a) => commitSubmission(a, prepared)],
  ['submitAnswer', 'examination.submit', (a) => submitAnswer(a, 'plan', 'k-1', 'x', {})],
  ['submitAnswers', 'examination.submit', (a) => submitAnswers(a, 'plan', 'x', [])],
  ['revealCase', 'examination.submit', (a) => revealCase(a, sample, 'c')],
  ['revealedCase', 'evidence.read', (a) => revealedCase(a, 'plan', 'k-1', 'x')],
  ['prepareAdjudication', 'examination.adjudicate', (a) => prepareAdjudication(a, 'plan', 'k-1', [], 'x')],
  ['commitAdjudication', 'examination.adjudicate', (a) => commitAdjudication(a, prepared)],
  ['adjudicateCase', 'examination.adjudicate', (a) => adjudicateCase(a, 'plan', 'k-1', [], 'x')],
  ['adjudicateCases', 'examination.adjudicate', (a) => adjudicateCases(a, 'plan', 'x', [])],
];

async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'returned';
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    return (e as Error).message === REACHED ? 'reached' : `threw ${(e as Error).message}`;
  }
}

describe('the examination services enforce the permission matrix themselves', () => {
  for (const [name, permission, call] of EXAMINATION_CALLS)
    it(`${name}: refused (ACCOUNT_FORBIDDEN) to every role without ${permission}, before anything is read; the others and the CLI get past the check`, async () => {
      for (const role of ROLES)
        expect(await outcome(() => call(stubArchive(role))), role).toBe(can(role, permission) ? 'reached' : 'ACCOUNT_FORBIDDEN');
      expect(await outcome(() => call(stubArchive(undefined))), 'CLI').toBe('reached');
    });
});
