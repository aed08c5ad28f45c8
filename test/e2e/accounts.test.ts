// Issue 12, "Accounts, roles, keys" (first slice): `custody user` and `custody init --admin`.
// Passwords are read from files, hashed with Argon2id into the index only; staff names enter the
// ledger only sealed; the accounts table is projected from the ledger (rebuild, verify).
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { verifyPassword } from '../../src/accounts/index.js';
import { cloneArchive, custodyInExpect, withIndexDb, type LogLine, type TestArchive } from '../support/archive-fixtures.js';
import { readTree } from '../support/export-bags.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

interface AccountJson {
  id: string;
  name: string;
  role: string;
  org: string | null;
  disabled: boolean;
  disabled_reason: string | null;
  has_password: boolean;
}

const NAME = 'Amira Haddad-Testname';
const PASSWORD = 'pw-Zq7-unique-secret-4411';
const PASSWORD2 = 'pw-Xk3-second-secret-9920';

describeDatabases('custody user: accounts and roles', (db) => {
  let base: string;
  let a: TestArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  /** Everything any command printed, to look for the password in. */
  let printed: string;

  const run = async (code: number, args: string[]) => {
    const r = await custodyInExpect(code, [...args, '--archive', a.dir], a.env);
    printed += r.stdout + r.stderr;
    return r;
  };
  const pwFile = async (name: string, password: string): Promise<string> => {
    const p = join(base, name);
    await writeFile(p, `${password}\n`, { mode: 0o600 });
    return p;
  };
  const list = async (): Promise<AccountJson[]> =>
    JSON.parse((await run(0, ['user', 'list', '--json'])).stdout) as AccountJson[];
  const ledger = (): Promise<Buffer> => readFile(join(a.dir, 'ledger', 'entries.jsonl'));
  const log = async (): Promise<LogLine[]> =>
    (await run(0, ['log', '--json'])).stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as LogLine);
  const add = async (name: string, role: string, extra: string[] = []) =>
    JSON.parse((await run(0, ['user', 'add', name, '--role', role, '--password-file', await pwFile('pw', PASSWORD), ...extra, '--json'])).stdout) as { id: string; seq: number };

  // `init` once per database; each test works on its own copy (the folder, and the index
  // database copied by CREATE DATABASE … TEMPLATE).
  let template: TestArchive;
  let dropTemplate: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    const made = await db.makeUrl();
    dropTemplate = made.cleanup;
    base = await makeTempDir(`accounts-${db.kind}`);
    a = template = { dir: join(base, 'archive'), origin: '', verifierKey: '', env: made.url === null ? {} : { DATABASE_URL: made.url } };
    printed = '';
    await run(0, ['init']);
  });
  afterAll(() => dropTemplate());

  beforeEach(async () => {
    const made = await db.copyUrl(template.env.DATABASE_URL ?? null);
    cleanup = made.cleanup;
    const copy = await cloneArchive(template, `accounts-${db.kind}`);
    base = dirname(copy.dir);
    a = { ...copy, env: made.url === null ? {} : { DATABASE_URL: made.url } };
    printed = '';
  });
  afterEach(() => cleanup());

  it('add, list, passwd, role and disable round trip, each a ledger entry naming the account id', async () => {
    const { id } = await add(NAME, 'examiner', ['--org', 'IFL']);
    await add('Second Person', 'auditor');
    expect(await list()).toEqual([
      { id, name: NAME, role: 'examiner', org: 'IFL', disabled: false, disabled_reason: null, has_password: true },
      expect.objectContaining({ name: 'Second Person', role: 'auditor' }),
    ]);
    await run(0, ['user', 'passwd', NAME, '--password-file', await pwFile('pw2', PASSWORD2)]);
    await run(0, ['user', 'role', NAME, 'adjudicator', '--reason', 'moved to adjudication']);
    await run(0, ['user', 'disable', 'second person', '--reason', 'left the team']);
    const after = await list();
    expect(after[0]).toMatchObject({ id, role: 'adjudicator', disabled: false });
    expect(after[1]).toMatchObject({ disabled: true, disabled_reason: 'left the team' });
    const accountEntries = (await log()).map((l) => l.entry).filter((e) => String(e.details.action).startsWith('account.'));
    expect(accountEntries.map((e) => [e.type, e.details.action])).toEqual([
      ['cataloguing', 'account.add'],
      ['cataloguing', 'account.add'],
      ['cataloguing', 'account.passwd'],
      ['cataloguing', 'account.role'],
      ['cataloguing', 'account.disable'],
    ]);
    expect(accountEntries[3]?.details).toMatchObject({ account: id, role: 'adjudicator', previous: 'examiner' });
    await withIndexDb(a, async (d) => {
      const [row] = await d.rows<{ hash: string }>('SELECT hash FROM account_passwords WHERE account_id = ?', [id]);
      expect(await verifyPassword(PASSWORD2, row?.hash ?? '')).toBe(true);
      expect(await verifyPassword(PASSWORD, row?.hash ?? '')).toBe(false);
    });
  });

  it('the password appears in no output, not in the ledger, and in the index only as an Argon2id string', async () => {
    const { id } = await add(NAME, 'analyst');
    await run(0, ['user', 'passwd', NAME, '--password-file', await pwFile('pw2', PASSWORD2)]);
    await list();
    await run(0, ['user', 'list']);
    const ledgerText = (await ledger()).toString('utf8');
    for (const pw of [PASSWORD, PASSWORD2]) {
      expect(printed).not.toContain(pw);
      expect(ledgerText).not.toContain(pw);
    }
    expect(ledgerText).not.toContain('$argon2id$');
    await withIndexDb(a, async (d) => {
      const tables = ['ledger_entries', 'accounts', 'account_passwords', 'meta'];
      const dump = JSON.stringify(await Promise.all(tables.map((t) => d.rows(`SELECT * FROM ${t}`))));
      for (const pw of [PASSWORD, PASSWORD2]) expect(dump).not.toContain(pw);
      const hashes = await d.rows<{ account_id: string; hash: string }>('SELECT * FROM account_passwords');
      expect(hashes).toEqual([{ account_id: id, hash: expect.stringMatching(/^\$argon2id\$v=19\$m=65536,t=3,p=4\$/) as unknown }]);
      expect(JSON.stringify(await d.rows('SELECT * FROM accounts'))).not.toContain('$argon2id$');
    });
  });

  it('a name already taken (case and spaces aside) is ACCOUNT_EXISTS, exit 1, nothing written', async () => {
    await add(NAME, 'examiner');
    const size = (await ledger()).length;
    const r = await run(1, ['user', 'add', `  ${NAME.toUpperCase()} `, '--role', 'lawyer', '--password-file', await pwFile('pw', PASSWORD)]);
    expect(r.stderr).toContain('[ACCOUNT_EXISTS]');
    expect((await ledger()).length).toBe(size);
    expect(await list()).toHaveLength(1);
  });

  it('an unknown role is ACCOUNT_ROLE_UNKNOWN, exit 2, nothing written', async () => {
    const size = (await ledger()).length;
    const r = await run(2, ['user', 'add', NAME, '--role', 'superuser', '--password-file', await pwFile('pw', PASSWORD)]);
    expect(r.stderr).toContain('[ACCOUNT_ROLE_UNKNOWN]');
    expect((await ledger()).length).toBe(size);
    await add(NAME, 'examiner');
    expect((await run(2, ['user', 'role', NAME, 'root', '--reason', 'x'])).stderr).toContain('[ACCOUNT_ROLE_UNKNOWN]');
    expect((await list())[0]?.role).toBe('examiner');
  });

  it('a password on the command line or in the environment is not taken; a short one is ACCOUNT_PASSWORD_WEAK', async () => {
    const r = await custodyInExpect(2, ['user', 'add', NAME, '--role', 'examiner', '--archive', a.dir], { ...a.env, CUSTODY_PASSWORD: PASSWORD, CUSTODY_PASSWORD_FILE: await pwFile('pw', PASSWORD) });
    expect(r.stderr).toContain('[USAGE]');
    expect((await run(2, ['user', 'add', NAME, '--role', 'examiner', '--password-file', await pwFile('short', 'short')])).stderr).toContain('[ACCOUNT_PASSWORD_WEAK]');
    expect(await list()).toEqual([]);
  });

  it('a disabled account cannot change role or password (ACCOUNT_DISABLED), and stays as it was', async () => {
    await add(NAME, 'examiner');
    await run(0, ['user', 'disable', NAME, '--reason', 'left']);
    const size = (await ledger()).length;
    expect((await run(1, ['user', 'role', NAME, 'administrator', '--reason', 'back'])).stderr).toContain('[ACCOUNT_DISABLED]');
    expect((await run(1, ['user', 'passwd', NAME, '--password-file', await pwFile('pw2', PASSWORD2)])).stderr).toContain('[ACCOUNT_DISABLED]');
    expect((await run(1, ['user', 'disable', NAME, '--reason', 'again'])).stderr).toContain('[ACCOUNT_DISABLED]');
    expect((await ledger()).length).toBe(size);
    expect((await list())[0]).toMatchObject({ role: 'examiner', disabled: true });
    expect((await run(1, ['user', 'passwd', 'nobody here', '--password-file', await pwFile('pw3', PASSWORD2)])).stderr).toContain('[ACCOUNT_NOT_FOUND]');
  });

  it('the ledger carries no plaintext staff name, and rebuild restores the accounts (passwords only while the index keeps them)', async () => {
    const { id } = await add(NAME, 'examiner', ['--org', 'IFL']);
    await run(0, ['user', 'role', NAME, 'analyst', '--reason', 'r']);
    const bytes = await ledger();
    for (const needle of [NAME, NAME.toLowerCase(), 'Haddad']) expect(bytes.includes(Buffer.from(needle)), needle).toBe(false);
    const entry = (await log()).find((l) => l.entry.details.action === 'account.add')?.entry;
    expect(entry?.details).toMatchObject({ account: id, role: 'examiner', org: 'IFL', name: { alg: 'AES-256-GCM' } });
    await withIndexDb(a, async (d) => {
      expect(JSON.stringify(await d.rows('SELECT * FROM accounts'))).not.toContain('Haddad');
      await d.exec('DELETE FROM accounts');
      await d.exec('DELETE FROM account_passwords');
    });
    await run(0, ['rebuild']);
    expect(await list()).toEqual([
      { id, name: NAME, role: 'analyst', org: 'IFL', disabled: false, disabled_reason: null, has_password: false },
    ]);
    expect((await run(0, ['user', 'list'])).stdout).toContain('[no password: user passwd]');
    await run(0, ['user', 'passwd', NAME, '--password-file', await pwFile('pw2', PASSWORD2)]);
    expect((await list())[0]?.has_password).toBe(true);
    const v = JSON.parse((await run(0, ['verify', '--json'])).stdout) as { ok: boolean };
    expect(v.ok).toBe(true);
  });

  it('verify reports an account row raised to administrator in the index (DB_ROW_CHANGED)', async () => {
    const { id } = await add(NAME, 'examiner');
    await withIndexDb(a, (d) => d.exec("UPDATE accounts SET role = 'administrator' WHERE id = ?", [id]));
    const v = JSON.parse((await run(1, ['verify', '--json'])).stdout) as { findings: { code: string; subject: string }[] };
    expect(v.findings).toContainEqual(expect.objectContaining({ code: 'DB_ROW_CHANGED', subject: `accounts/${id}` }));
  });

  it('init --admin creates the first administrator; a weak password creates no archive', async () => {
    const second = await db.makeUrl();
    try {
      const env: Record<string, string> = second.url === null ? {} : { DATABASE_URL: second.url };
      const dir = join(base, 'second');
      const r = await custodyInExpect(0, ['init', '--archive', dir, '--admin', 'First Admin', '--admin-password-file', await pwFile('apw', PASSWORD), '--json'], env);
      expect(r.stdout + r.stderr).not.toContain(PASSWORD);
      const id = (JSON.parse(r.stdout) as { administrator: string }).administrator;
      const accounts = JSON.parse((await custodyInExpect(0, ['user', 'list', '--json', '--archive', dir], env)).stdout) as AccountJson[];
      expect(accounts).toEqual([expect.objectContaining({ id, name: 'First Admin', role: 'administrator', has_password: true })]);
      const third = join(base, 'third');
      const w = await custodyInExpect(2, ['init', '--archive', third, '--admin', 'First Admin', '--admin-password-file', await pwFile('weak', 'weak')], env);
      expect(w.stderr).toContain('[ACCOUNT_PASSWORD_WEAK]');
      expect(existsSync(third)).toBe(false);
    } finally {
      await second.cleanup();
    }
  });

  it('export --redact withholds staff names except examiners\' and adjudicators\', which stay sealed', async () => {
    await add(NAME, 'examiner');
    await add('Lawyer Person', 'lawyer');
    const sealed = (await log()).filter((l) => l.entry.details.action === 'account.add').map((l) => (l.entry.details.name as { ciphertext: string }).ciphertext);
    const out = join(base, 'bag');
    await run(0, ['export', '--select', 'all', '--full-ledger', '--redact', '--out', out]);
    const bytes = Buffer.concat([...(await readTree(out)).values()]);
    expect(bytes.includes(Buffer.from(sealed[0] ?? 'x'))).toBe(true); // the examiner's, sealed
    expect(bytes.includes(Buffer.from(sealed[1] ?? 'x'))).toBe(false); // the lawyer's, withheld
    for (const name of [NAME, 'Lawyer Person']) expect(bytes.includes(Buffer.from(name))).toBe(false);
    const withheld = JSON.parse(await readFile(join(out, 'custody', 'withheld-entries.json'), 'utf8')) as { action: string; reason: string }[];
    expect(withheld).toContainEqual(expect.objectContaining({ action: 'account.add', reason: expect.stringContaining('staff account') as unknown }));
    await custodyInExpect(0, ['verify-export', out], a.env);
  });
});
