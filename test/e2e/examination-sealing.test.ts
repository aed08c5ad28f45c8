// Issue 12 (i12k), "Sealing": each plan's answers are sealed under a random plan key wrapped by the
// archive's examination KEK (keys/examination-kek.key, under the key passphrase). Plans assigned
// before plan keys keep their old sealing (HKDF of the signing key) and still reveal; a swapped
// KEK file is refused before anything is appended; `key rewrap` carries the KEK to the new
// passphrase. On SQLite and PostgreSQL.
import { createPrivateKey, hkdfSync } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openArchive } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { examinerForm, worldSubjects } from '../../src/demo/examination-world.js';
import { unseal } from '../../src/examination/blind/index.js';
import { custodyIn, custodyInExpect } from '../support/archive-fixtures.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';
import { uncheckedDraft } from '../support/unchecked-draft.js';

interface Entry {
  seq: number;
  details: Record<string, unknown> & { action?: string; sealed?: string; sample?: string; case?: string; examiner?: string };
}

const PASSPHRASE = 'sealing test passphrase 7731';

describeDatabases('sealing per plan (issue 12)', (db) => {
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let dir: string;
  let env: Record<string, string>;
  let members: string[] = [];
  const [subject] = worldSubjects(1);
  const archiveDir = () => join(dir, 'archive');
  const kekFile = () => join(archiveDir(), 'keys', 'examination-kek.key');
  const as = (actor: string, extra: Record<string, string> = {}) => ({ ...env, CUSTODY_ACTOR: actor, ...extra });
  const log = async (): Promise<Entry[]> =>
    (await custodyInExpect(0, ['log', '--json'], env)).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { entry: Entry }).entry);
  const ledger = () => readFile(join(archiveDir(), 'ledger', 'entries.jsonl'));
  const submit = async (who: string, caseId: string, extra: Record<string, string> = {}) => {
    await writeFile(join(dir, `${who}.json`), JSON.stringify(examinerForm(subject!, who, 0)));
    return custodyIn(['examine', 'submit', 'plan', caseId, '--form', join(dir, `${who}.json`)], as(who, extra));
  };

  const setUp = async (extra: Record<string, string>) => {
    await mkdir(join(dir, 'photos'));
    for (let i = 0; i < 3; i++)
      await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 80 * i, g: 40, b: 90 } } }).png().toFile(join(dir, 'photos', `p${i}.png`));
    await custodyInExpect(0, ['init'], as('registrar', extra));
    await custodyInExpect(0, ['ingest', join(dir, 'photos'), '--source', 'KITE', '--new-source'], as('registrar', extra));
    const drawn = JSON.parse((await custodyInExpect(0, ['sample', 'draw', '--name', 'plan', '--over', 'items', '--method', 'simple', '--size', '2', '--json'], as('statistician', extra))).stdout) as { members: string[] };
    members = drawn.members;
  };

  beforeEach(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    dir = await makeTempDir(`custody-sealing-${db.kind}`);
    env = { CUSTODY_ARCHIVE: join(dir, 'archive'), ...(made.url === null ? {} : { DATABASE_URL: made.url }) };
  });
  afterEach(() => cleanup());

  it('a plan assigned before plan keys keeps its old sealing: it still seals, reveals and verifies, and no KEK is made for it', async () => {
    await setUp({});
    // The assignment entry as Custody wrote it before issue 12: no plan key, no case codes.
    const archive = await openArchive(loadConfig(as('coordinator'), {}), 'write', 'test: an old assignment');
    try {
      const sample = (await archive.examinations.findSample('plan'))!;
      await archive.commit([
        uncheckedDraft({ actor: 'coordinator', type: 'examination', details: { action: 'examination.assign', sample: sample.id, per_case: 2, cases: members.map((m) => ({ case: m, examiners: ['dr-a', 'dr-b'] })) } }),
      ]);
    } finally {
      await archive.close();
    }
    expect((await submit('dr-a', members[0]!)).code).toBe(0);
    const second = await submit('dr-b', members[0]!);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('answers revealed');
    expect(existsSync(kekFile())).toBe(false);
    // Sealed under the old derivation: HKDF-SHA256 of the signing key's seed with the archive id.
    const manifest = JSON.parse(await readFile(join(archiveDir(), 'custody.json'), 'utf8')) as { id: string };
    const signing = createPrivateKey(await readFile(join(archiveDir(), 'keys', 'checkpoint-signing.pem'), 'utf8'));
    const old = Buffer.from(hkdfSync('sha256', Buffer.from(signing.export({ format: 'jwk' }).d ?? '', 'base64url'), Buffer.from(manifest.id, 'utf8'), 'custody sealed examination answers v1', 32));
    const s = (await log()).find((e) => e.details.action === 'examination.submit')!;
    expect(unseal(old, `${s.details.sample}/${s.details.case}/${s.details.examiner}`, s.details.sealed!)).toHaveProperty('salt');
    await custodyInExpect(0, ['verify'], env);
  }, 120_000);

  it('with a passphrase, the KEK file is encrypted under it; key rewrap carries it to a new passphrase, and the plan still reveals', async () => {
    await setUp({ CUSTODY_KEY_PASSPHRASE: PASSPHRASE });
    await custodyInExpect(0, ['examine', 'assign', 'plan', '--examiners', 'dr-a,dr-b'], as('coordinator', { CUSTODY_KEY_PASSPHRASE: PASSPHRASE }));
    const text = await readFile(kekFile(), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ format: 'custody-signing-key', kdf: { name: 'scrypt' } });
    expect(text).not.toContain('PRIVATE KEY');
    expect((await submit('dr-a', members[0]!, { CUSTODY_KEY_PASSPHRASE: PASSPHRASE })).code).toBe(0);
    await writeFile(join(dir, 'new-pass'), 'a brand new passphrase 5521\n', { mode: 0o600 });
    await custodyInExpect(0, ['key', 'rewrap', '--new-passphrase-file', join(dir, 'new-pass')], as('keeper', { CUSTODY_KEY_PASSPHRASE: PASSPHRASE }));
    const r = await submit('dr-b', members[0]!, { CUSTODY_KEY_PASSPHRASE: 'a brand new passphrase 5521' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('answers revealed');
  }, 120_000);

  it("a swapped KEK file (another archive's) is refused with SEAL_BROKEN before anything is appended", async () => {
    await setUp({});
    await custodyInExpect(0, ['examine', 'assign', 'plan', '--examiners', 'dr-a,dr-b'], as('coordinator'));
    expect((await submit('dr-a', members[0]!)).code).toBe(0);
    // Another archive's KEK, planted in this one's keys folder.
    const other = join(dir, 'other');
    await custodyInExpect(0, ['init', '--archive', other], { CUSTODY_ACTOR: 'intruder' });
    const otherDraw = await mkdir(join(dir, 'p2')).then(async () => {
      await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toFile(join(dir, 'p2', 'a.png'));
      await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 2, b: 3 } } }).png().toFile(join(dir, 'p2', 'b.png'));
      await custodyInExpect(0, ['ingest', join(dir, 'p2'), '--source', 'X', '--new-source', '--archive', other], { CUSTODY_ACTOR: 'intruder' });
      await custodyInExpect(0, ['sample', 'draw', '--name', 'q', '--over', 'items', '--size', '2', '--archive', other], { CUSTODY_ACTOR: 'intruder' });
      return custodyInExpect(0, ['examine', 'assign', 'q', '--examiners', 'x,y', '--archive', other], { CUSTODY_ACTOR: 'intruder' });
    });
    expect(otherDraw.code).toBe(0);
    await copyFile(join(other, 'keys', 'examination-kek.key'), kekFile());
    const before = await ledger();
    const r = await submit('dr-b', members[0]!);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[SEAL_BROKEN]');
    expect((await ledger()).equals(before)).toBe(true);
  }, 120_000);
});
