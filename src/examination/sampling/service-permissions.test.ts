// Issue 12: the sampling services enforce the permission matrix themselves (requireActing): a
// role without sample.manage is refused before anything is read or written; a role with it, and
// the CLI (no role), go past the check (to their input, here a placeholder).
import { describe, expect, it } from 'vitest';
import { can, ROLES, type Role } from '../../accounts/index.js';
import type { SamplesTable } from '../../db/index.js';
import { commitDraw, drawPlan, recordFrame, type PlanInput } from './plan.service.js';
import { fixSeed } from './steps.service.js';

/** The archive handle the services take (src/app.ts is not imported outside cli/, http/ and the root). */
type Archive = Parameters<typeof drawPlan>[0];

/** An archive acting as `role` (undefined: the CLI) that throws on any other use. */
function stubArchive(role: Role | undefined): Archive {
  return new Proxy({} as Archive, {
    get(_t, prop) {
      if (prop === 'acting') return role === undefined ? undefined : { role };
      if (prop === 'then') return undefined;
      throw new Error('the service reached the archive');
    },
  });
}

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
const CALLS: [string, (a: Archive) => Promise<unknown>][] = [
  ['drawPlan', (a) => drawPlan(a, input)],
  ['recordFrame', (a) => recordFrame(a, input)],
  ['commitDraw', (a) => commitDraw(a, 'S', {}, 'seed')],
  ['fixSeed', (a) => fixSeed(a, {} as SamplesTable, {} as never, {} as never, '/nowhere')],
];

describe('the sampling services enforce the permission matrix themselves', () => {
  for (const [name, call] of CALLS)
    it(`${name}: refused (ACCOUNT_FORBIDDEN) to every role without sample.manage, before anything is read; the others and the CLI get past the check`, async () => {
      for (const role of ROLES)
        expect(await outcome(() => call(stubArchive(role))), role).toBe(can(role, 'sample.manage') ? 'past the check' : 'ACCOUNT_FORBIDDEN');
      expect(await outcome(() => call(stubArchive(undefined))), 'CLI').toBe('past the check');
    });
});
