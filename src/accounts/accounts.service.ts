import { actorKey, normaliseActor, type JsonValue } from '../core/index.js';
import { AccountError } from './errors.js';
import { hashPassword } from './password.js';
import { isRole, ROLES, type Role } from './permissions.js';
import type { AccountRecord, AccountsPorts } from './ports.js';
import { requirePermission } from './require-permission.js';
import { openStaffName, sealStaffName } from './staff-name-seal.js';

export interface AccountView {
  id: string;
  name: string;
  role: string;
  org: string | null;
  disabled: boolean;
  disabled_reason: string | null;
  has_password: boolean;
}

const MIN_PASSWORD = 10;

/** The archive's sealing key, which staff names are sealed under (staff-name-seal.ts). */
function sealingKey(ports: AccountsPorts): Buffer {
  if (ports.sealingKey === null)
    throw new AccountError('ACCOUNT_KEY_REQUIRED', 'staff names are sealed: this needs the archive key');
  return ports.sealingKey;
}

/** The name enters the ledger only as ciphertext bound to the account id, never in clear. */
function openName(ports: AccountsPorts, a: AccountRecord): string {
  return openStaffName(sealingKey(ports), a.id, a.name_sealed);
}

function role(raw: string): Role {
  if (!isRole(raw))
    throw new AccountError('ACCOUNT_ROLE_UNKNOWN', `no role ${JSON.stringify(raw)}: one of ${ROLES.join(', ')}`, {
      details: { role: raw, roles: [...ROLES] },
    });
  return raw;
}

function checkPassword(password: string): void {
  if ([...password].length < MIN_PASSWORD)
    throw new AccountError('ACCOUNT_PASSWORD_WEAK', `a password has at least ${MIN_PASSWORD} characters`);
}

function validName(raw: string): string {
  try {
    return normaliseActor(raw, 'the account name');
  } catch (e) {
    throw new AccountError('ACCOUNT_INVALID', (e as Error).message, { cause: e });
  }
}

async function opened(ports: AccountsPorts): Promise<{ record: AccountRecord; name: string }[]> {
  return (await ports.listAccounts()).map((record) => ({ record, name: openName(ports, record) }));
}

async function find(ports: AccountsPorts, name: string): Promise<AccountRecord> {
  const key = actorKey(validName(name));
  const hit = (await opened(ports)).find((a) => actorKey(a.name) === key);
  if (hit === undefined) throw new AccountError('ACCOUNT_NOT_FOUND', `no account ${name}`);
  return hit.record;
}

/**
 * The account id a person is named by: an id as given, or a name (opened with the archive key, so
 * in write mode). Unchanged when the archive has no accounts (the free-text names of before).
 */
export async function resolveAccountId(ports: Pick<AccountsPorts, 'listAccounts' | 'sealingKey'>, nameOrId: string): Promise<string> {
  const accounts = await ports.listAccounts();
  const raw = nameOrId.trim();
  if (accounts.length === 0 || accounts.some((a) => a.id === raw) || ports.sealingKey === null) return nameOrId;
  const key = actorKey(raw);
  const hit = accounts.find((a) => actorKey(openName(ports as AccountsPorts, a)) === key);
  return hit === undefined ? nameOrId : hit.id;
}

/** Checks a new account's name, role and password without touching anything (init checks first). */
export function validateNewAccount(input: { name: string; role: string; password: string }): { name: string; role: Role } {
  const name = validName(input.name);
  const r = role(input.role);
  checkPassword(input.password);
  return { name, role: r };
}

/** Creates an account; the ledger gets its id, role, organisation and sealed name. */
export async function addAccount(
  ports: AccountsPorts,
  input: { name: string; role: string; org: string | null; password: string },
): Promise<{ id: string; role: Role; seq: number }> {
  requirePermission(ports, 'accounts.manage');
  const { name, role: r } = validateNewAccount(input);
  const key = actorKey(name);
  if ((await opened(ports)).some((a) => actorKey(a.name) === key))
    throw new AccountError('ACCOUNT_EXISTS', 'an account of that name exists');
  const id = ports.newId();
  const sealed = sealStaffName(sealingKey(ports), id, name);
  const hash = await hashPassword(input.password);
  const seq = await ports.commit({
    action: 'account.add',
    account: id,
    role: r,
    org: input.org,
    name: sealed as unknown as JsonValue,
  });
  await ports.setPasswordHash(id, hash);
  return { id, role: r, seq };
}

/** Sets a new password. The change is a ledger entry; the hash is not in it. */
export async function changePassword(ports: AccountsPorts, name: string, password: string): Promise<{ id: string; seq: number }> {
  requirePermission(ports, 'accounts.manage');
  checkPassword(password);
  const a = await find(ports, name);
  if (a.disabled_seq !== null) throw new AccountError('ACCOUNT_DISABLED', 'the account is disabled');
  const hash = await hashPassword(password);
  const seq = await ports.commit({ action: 'account.passwd', account: a.id });
  await ports.setPasswordHash(a.id, hash);
  return { id: a.id, seq };
}

export async function changeRole(ports: AccountsPorts, name: string, newRole: string, reason: string): Promise<{ id: string; role: Role; seq: number }> {
  requirePermission(ports, 'accounts.manage');
  const r = role(newRole);
  requireReason(reason);
  const a = await find(ports, name);
  if (a.disabled_seq !== null) throw new AccountError('ACCOUNT_DISABLED', 'the account is disabled');
  const seq = await ports.commit({ action: 'account.role', account: a.id, role: r, previous: a.role, reason });
  return { id: a.id, role: r, seq };
}

export async function disableAccount(ports: AccountsPorts, name: string, reason: string): Promise<{ id: string; seq: number }> {
  requirePermission(ports, 'accounts.manage');
  requireReason(reason);
  const a = await find(ports, name);
  if (a.disabled_seq !== null) throw new AccountError('ACCOUNT_DISABLED', 'the account is already disabled');
  const seq = await ports.commit({ action: 'account.disable', account: a.id, reason });
  return { id: a.id, seq };
}

export async function listAccounts(ports: AccountsPorts): Promise<AccountView[]> {
  const out: AccountView[] = [];
  for (const { record: a, name } of await opened(ports)) {
    out.push({
      id: a.id,
      name,
      role: a.role,
      org: a.org,
      disabled: a.disabled_seq !== null,
      disabled_reason: a.disabled_reason,
      has_password: (await ports.getPasswordHash(a.id)) !== undefined,
    });
  }
  return out;
}

function requireReason(reason: string): void {
  if (reason.trim() === '')
    throw new AccountError('ACCOUNT_INVALID', 'say why: the reason is recorded', { details: { field: 'reason' } });
}
