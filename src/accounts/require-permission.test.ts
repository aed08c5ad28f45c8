import { describe, expect, it } from 'vitest';
import { CustodyError } from '../core/index.js';
import { addAccount, changePassword, changeRole, disableAccount } from './accounts.service.js';
import { can, PERMISSIONS, ROLES, type Role } from './permissions.js';
import type { AccountsPorts } from './ports.js';
import { requirePermission } from './require-permission.js';

function ports(role: Role, commits: unknown[]): AccountsPorts {
  return {
    actor: 'someone',
    role,
    newId: () => '01j00000000000000000000000',
    sealingKey: Buffer.alloc(32, 7),
    listAccounts: () => Promise.resolve([]),
    getPasswordHash: () => Promise.resolve(undefined),
    setPasswordHash: () => Promise.resolve(),
    commit: (d) => {
      commits.push(d);
      return Promise.resolve(1);
    },
  };
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as CustodyError).code;
  }
}

describe('requirePermission: the matrix enforced in the services', () => {
  it('refuses exactly what the matrix refuses (ACCOUNT_FORBIDDEN), for every role and permission', () => {
    for (const role of ROLES)
      for (const p of PERMISSIONS)
        expect(codeOf(() => requirePermission({ role }, p)), `${role} ${p}`).toBe(
          can(role, p) ? undefined : 'ACCOUNT_FORBIDDEN',
        );
  });

  it('the accounts service refuses every role but the administrator account management, before anything is written', async () => {
    for (const role of ROLES.filter((r) => r !== 'administrator')) {
      const commits: unknown[] = [];
      const p = ports(role, commits);
      for (const run of [
        () => addAccount(p, { name: 'New Person', role: 'examiner', org: null, password: 'long-enough-pw' }),
        () => changePassword(p, 'Someone', 'long-enough-pw'),
        () => changeRole(p, 'Someone', 'auditor', 'reason'),
        () => disableAccount(p, 'Someone', 'reason'),
      ])
        await expect(run(), role).rejects.toMatchObject({ code: 'ACCOUNT_FORBIDDEN' });
      expect(commits).toEqual([]);
    }
    const commits: unknown[] = [];
    await addAccount(ports('administrator', commits), {
      name: 'New Person',
      role: 'examiner',
      org: null,
      password: 'long-enough-pw',
    });
    expect(commits).toHaveLength(1);
  });
});
