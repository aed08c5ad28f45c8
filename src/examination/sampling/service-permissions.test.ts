// Issue 12: the sampling services enforce the permission matrix themselves (requireActing): a
// role without sample.manage is refused before anything is read or written; a role with it, and
// the CLI (no role), go past the check (to their input, here a placeholder).
import { describe, expect, it } from 'vitest';
import { can, ROLES, type Role } from '../../accounts/index.js';
import type { SamplesTable } from '../../db/index.js';
import type { ActingContext } from '../ports.js';
import { commitDraw, drawPlan, recordFrame, type PlanInput } from './plan.service.js';
import { fixSeed } from './steps.service.js';

/** Ports that throw on any use. */
function stubPorts(): never {
  return new Proxy({}, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      throw new Error('the service reached the archive');
    },
  }) as never;
}

/** The context of a request acting as `role` (undefined: the CLI). */
const ctxOf = (role: Role | undefined): ActingContext => ({ actor: 'x', role, clock: () => new Date(0), newId: () => 'ID' });

/** The stable code a call ends with, else 'past the check' (it went on to its input or the archive). */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ACCOUNT_FORBIDDEN') return 'ACCOUNT_FORBIDDEN';
  }
  return 'past the check';
}

const input = {} as PlanInput;
const CALLS: [string, (a: never, c: ActingContext) => Promise<unknown>][] = [
  ['drawPlan', (a, c) => drawPlan(a, c, input)],
  ['recordFrame', (a, c) => recordFrame(a, c, input)],
  ['commitDraw', (a, c) => commitDraw(a, c, 'S', {}, 'seed')],
  ['fixSeed', (a, c) => fixSeed(a, c, {} as SamplesTable, {} as never, {} as never, '/nowhere')],
];

describe('the sampling services enforce the permission matrix themselves', () => {
  for (const [name, call] of CALLS)
    it(`${name}: refused (ACCOUNT_FORBIDDEN) to every role without sample.manage, before anything is read; the others and the CLI get past the check`, async () => {
      for (const role of ROLES)
        expect(await outcome(() => call(stubPorts(), ctxOf(role))), role).toBe(can(role, 'sample.manage') ? 'past the check' : 'ACCOUNT_FORBIDDEN');
      expect(await outcome(() => call(stubPorts(), ctxOf(undefined))), 'CLI').toBe('past the check');
    });
});
