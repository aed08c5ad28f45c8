// Issue 12 (i12k), per-person signing keys: `custody key enrol` makes an examiner's Ed25519 key on
// their side, stores it encrypted under their key password, and records the public key by a
// self-signed entry; a submission by an examiner with an enrolled key must be signed over
// `custody submit v1` + canonical JSON; plain OpenSSL verifies it from the ledger entry's fields;
// rotation and revocation are recorded and `custody verify` checks every signature. SQLite and PostgreSQL.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { examinerForm, worldSubjects } from '../../src/demo/examination-world.js';
import { custodyIn, custodyInExpect } from '../support/archive-fixtures.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

interface Entry {
  seq: number;
  actor: string;
  details: Record<string, unknown> & { action?: string };
}

const PASSWORD = 'pw-sign-Zq7-secret-4411';
const KEY_PASSWORD = 'key password, not the login one 8812';

describeDatabases('per-person signing keys (issue 12)', (db) => {
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let dir: string;
  let env: Record<string, string>;
  const ids: Record<string, string> = {};
  const codes: string[] = [];
  const [subject] = worldSubjects(1);

  const as = (who: string, args: string[]) => custodyIn([...args, '--actor', ids[who] ?? who], env);
  const ok = async (who: string, args: string[]) => {
    const r = await as(who, args);
    expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const ledger = () => readFile(join(dir, 'archive', 'ledger', 'entries.jsonl'));
  const log = async (): Promise<Entry[]> =>
    (await ok('inv-d', ['log', '--json'])).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { entry: Entry }).entry);
  const submitArgs = async (who: string, n: number): Promise<string[]> => {
    await writeFile(join(dir, `${who}.json`), JSON.stringify(examinerForm(subject!, who, 0)));
    return ['examine', 'submit', 'plan', codes[n]!, '--form', join(dir, `${who}.json`)];
  };

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    dir = await makeTempDir(`custody-sign-${db.kind}`);
    env = { CUSTODY_ARCHIVE: join(dir, 'archive'), ...(made.url === null ? {} : { DATABASE_URL: made.url }) };
    await writeFile(join(dir, 'pw'), `${PASSWORD}\n`, { mode: 0o600 });
    await writeFile(join(dir, 'kp'), `${KEY_PASSWORD}\n`, { mode: 0o600 });
    await writeFile(join(dir, 'kp-wrong'), 'not the key password at all\n', { mode: 0o600 });
    await custodyInExpect(0, ['init', '--admin', 'Boss Admin', '--admin-password-file', join(dir, 'pw')], { ...env, CUSTODY_ACTOR: 'installer' });
    for (const [name, role] of [['ex-a', 'examiner'], ['ex-b', 'examiner'], ['inv-d', 'investigator']] as const) {
      const r = await custodyInExpect(0, ['user', 'add', name, '--role', role, '--password-file', join(dir, 'pw'), '--json'], { ...env, CUSTODY_ACTOR: 'installer' });
      ids[name] = (JSON.parse(r.stdout) as { id: string }).id;
    }
    await mkdir(join(dir, 'photos'));
    for (let i = 0; i < 2; i++)
      await sharp({ create: { width: 12, height: 12, channels: 3, background: { r: 100 * i, g: 30, b: 60 } } }).png().toFile(join(dir, 'photos', `p${i}.png`));
    await ok('inv-d', ['ingest', join(dir, 'photos'), '--source', 'KITE', '--new-source']);
    await ok('inv-d', ['sample', 'draw', '--name', 'plan', '--over', 'items', '--method', 'simple', '--size', '2']);
    await ok('inv-d', ['examine', 'assign', 'plan', '--examiners', 'ex-a,ex-b']);
    const assign = (await log()).find((e) => e.details.action === 'examination.assign');
    for (const c of assign?.details.cases as { code: string }[]) codes.push(c.code);
  }, 120_000);
  afterAll(() => cleanup());

  it('key enrol: a self-signed entry with the public key and fingerprint; the key file opens only with the key password', async () => {
    const r = JSON.parse((await ok('inv-d', ['key', 'enrol', '--user', 'ex-a', '--key-password-file', join(dir, 'kp'), '--json'])).stdout) as { key_id: string; fingerprint: string; account: string };
    expect(r.account).toBe(ids['ex-a']);
    const enrol = (await log()).find((e) => e.details.action === 'account.key.enrol')!;
    expect(enrol.actor).toBe(ids['ex-a']); // the person's own act
    const pub = Buffer.from(String(enrol.details.public_key), 'base64');
    expect(pub).toHaveLength(32);
    expect(enrol.details).toMatchObject({ key_id: r.key_id, algorithm: 'Ed25519', fingerprint: r.fingerprint, replaces: null });
    expect(r.fingerprint.replace(/ /g, '')).toBe(createHash('sha256').update(pub).digest('hex'));
    const file = await readFile(join(dir, 'archive', 'keys', 'people', `${ids['ex-a']}.${r.key_id}.key`), 'utf8');
    expect(JSON.parse(file)).toMatchObject({ format: 'custody-signing-key', kdf: { name: 'scrypt' } });
    expect(file).not.toContain('PRIVATE KEY');
    // An investigator has no signing key to enrol.
    const refused = await as('inv-d', ['key', 'enrol', '--user', 'inv-d', '--key-password-file', join(dir, 'kp')]);
    expect(refused.stderr).toContain('[PERSON_KEY_ROLE_REFUSED]');
  });

  it('an examiner with an enrolled key must sign: unsigned is EXAMINATION_SIGNATURE_REQUIRED, a wrong key password KEY_PASSPHRASE_WRONG; nothing is appended', async () => {
    const before = await ledger();
    const unsigned = await as('ex-a', await submitArgs('ex-a', 0));
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toContain('[EXAMINATION_SIGNATURE_REQUIRED]');
    const wrong = await as('ex-a', [...(await submitArgs('ex-a', 0)), '--key-password-file', join(dir, 'kp-wrong')]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('[KEY_PASSPHRASE_WRONG]');
    expect((await ledger()).equals(before)).toBe(true);
    await ok('ex-a', [...(await submitArgs('ex-a', 0)), '--key-password-file', join(dir, 'kp')]);
  });

  it('plain openssl verifies the submission signature from the ledger entry fields, and refuses it for an altered commitment', async () => {
    const entries = await log();
    const enrol = entries.find((e) => e.details.action === 'account.key.enrol')!;
    const submit = entries.find((e) => e.details.action === 'examination.submit')!;
    const d = submit.details as { sample: string; commitment: string; sealed: string; signature: { key_id: string; value: string } };
    // The signed bytes, rebuilt by hand: the domain line, then RFC 8785 JSON (keys sorted; ASCII strings here).
    const message = (commitment: string) =>
      `custody submit v1\n${JSON.stringify({ case: codes[0], commitment, key_id: d.signature.key_id, plan: d.sample, sealed_sha256: createHash('sha256').update(d.sealed).digest('hex') })}`;
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(String(enrol.details.public_key), 'base64')]);
    await writeFile(join(dir, 'ex-a.pub.pem'), `-----BEGIN PUBLIC KEY-----\n${spki.toString('base64')}\n-----END PUBLIC KEY-----\n`);
    await writeFile(join(dir, 'sig'), Buffer.from(d.signature.value, 'base64'));
    const check = async (commitment: string) => {
      await writeFile(join(dir, 'msg'), message(commitment));
      return spawnSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', join(dir, 'ex-a.pub.pem'), '-rawin', '-in', join(dir, 'msg'), '-sigfile', join(dir, 'sig')], { encoding: 'utf8' });
    };
    const good = await check(d.commitment);
    expect(good.status, good.stderr).toBe(0);
    expect(good.stdout).toContain('Signature Verified Successfully');
    const altered = await check(`${d.commitment.slice(0, -1)}${d.commitment.endsWith('0') ? '1' : '0'}`);
    expect(altered.status).not.toBe(0);
  });

  it('rotation and revocation are recorded; a revoked key no longer signs; verify checks every signature', async () => {
    // ex-b enrols, then rotates: the second enrolment names the key it replaces.
    const k1 = JSON.parse((await ok('inv-d', ['key', 'enrol', '--user', 'ex-b', '--key-password-file', join(dir, 'kp'), '--json'])).stdout) as { key_id: string };
    const k2 = JSON.parse((await ok('inv-d', ['key', 'enrol', '--user', 'ex-b', '--key-password-file', join(dir, 'kp'), '--json'])).stdout) as { key_id: string; replaces: string };
    expect(k2.replaces).toBe(k1.key_id);
    const signed = await ok('ex-b', [...(await submitArgs('ex-b', 0)), '--key-password-file', join(dir, 'kp'), '--json']);
    expect(signed.stdout).toContain('"revealed": true');
    const submits = (await log()).filter((e) => e.details.action === 'examination.submit');
    expect((submits.at(-1)?.details.signature as { key_id: string }).key_id).toBe(k2.key_id);
    // ex-a's key is revoked: it signs nothing more.
    await ok('inv-d', ['key', 'revoke', '--user', 'ex-a', '--reason', 'laptop lost']);
    expect((await log()).some((e) => e.details.action === 'account.key.revoke' && e.details.reason === 'laptop lost')).toBe(true);
    const revoked = await as('ex-a', [...(await submitArgs('ex-a', 1)), '--key-password-file', join(dir, 'kp')]);
    expect(revoked.code).not.toBe(0);
    expect(revoked.stderr).toContain('no enrolled signing key');
    await custodyInExpect(0, ['verify'], env);
  });
});
