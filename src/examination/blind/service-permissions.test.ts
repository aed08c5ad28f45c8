// Issue 12: "The permission matrix … is enforced in the services, not only at the routes." Each
// examination service (plans, assignment, submission, reveal, adjudication) is called directly,
// with a server request's context carrying a role (http/request-context.ts), for every role: a role without
// the permission is refused (ACCOUNT_FORBIDDEN) before the service reads or writes anything; a
// role with it, and the CLI (no role), get past the check to the archive.
import { describe, expect, it } from 'vitest';
import { can, ROLES, type Permission, type Role } from '../../accounts/index.js';
import type { SamplesTable } from '../../db/index.js';
import type { ActingContext } from '../ports.js';
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

/** The context of a request acting as `role` (undefined: the CLI). */
type Ctx = ActingContext;

const REACHED = 'the service reached the archive';

/** Ports that throw REACHED on any use. */
function stubPorts(): never {
  return new Proxy({}, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      throw new Error(REACHED);
    },
  }) as never;
}

const ctxOf = (role: Role | undefined): Ctx => ({ actor: 'x', role, clock: () => new Date(0), newId: () => 'ID' });

const sample = { id: 'S', name: 'plan' } as SamplesTable;
const prepared = {} as never;

const EXAMINATION_CALLS: [string, Permission, (a: never, c: Ctx) => Promise<unknown>][] = [
  ['assignExaminers', 'sample.manage', (a, c) => assignExaminers(a, c, 'plan', ['x', 'y'])],
  ['closePlan', 'sample.manage', (a, c) => closePlan(a, c, 'plan')],
  ['caseForm', 'examination.submit', (a, c) => caseForm(a, c, 'plan', 'k-1', 'x')],
  ['prepareSubmission', 'examination.submit', (a, c) => prepareSubmission(a, c, 'plan', 'k-1', 'x', {})],
  ['commitSubmission', 'examination.submit', (a, c) => commitSubmission(a, c, prepared)],
  ['submitAnswer', 'examination.submit', (a, c) => submitAnswer(a, c, 'plan', 'k-1', 'x', {})],
  ['submitAnswers', 'examination.submit', (a, c) => submitAnswers(a, c, 'plan', 'x', [])],
  ['revealCase', 'examination.submit', (a, c) => revealCase(a, c, sample, 'c')],
  ['revealedCase', 'evidence.read', (a, c) => revealedCase(a, c, 'plan', 'k-1', 'x')],
  ['prepareAdjudication', 'examination.adjudicate', (a, c) => prepareAdjudication(a, c, 'plan', 'k-1', [], 'x')],
  ['commitAdjudication', 'examination.adjudicate', (a, c) => commitAdjudication(a, c, prepared)],
  ['adjudicateCase', 'examination.adjudicate', (a, c) => adjudicateCase(a, c, 'plan', 'k-1', [], 'x')],
  ['adjudicateCases', 'examination.adjudicate', (a, c) => adjudicateCases(a, c, 'plan', 'x', [])],
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
        expect(await outcome(() => call(stubPorts(), ctxOf(role))), role).toBe(can(role, permission) ? 'reached' : 'ACCOUNT_FORBIDDEN');
      expect(await outcome(() => call(stubPorts(), ctxOf(undefined))), 'CLI').toBe('reached');
    });
});
