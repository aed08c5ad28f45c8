// Issue 9, finding 7: a case could stay sealed forever. A run killed between the last submission
// and the reveal left the case at 2/2, sealed, with resubmission refused and nothing to trigger
// the reveal; a changed signing key between submissions broke the reveal the same way. Now any
// open for writing reveals a complete case (recorded under a system actor, with the reason), and
// `verify` reports a complete but unrevealed case until then. Also 12a: the two sealed answers,
// of different lengths, have ciphertexts of the same length in `log --json`.
import { copyFile, cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { examinerForm, worldSubjects } from '../../src/demo/examination-world.js';
import { custody, custodyIn, custodyInExpect } from '../support/archive-fixtures.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

interface Entry {
  seq: number;
  actor: string;
  type: string;
  details: { action?: string; case?: string; examiner?: string; sealed?: string; reason?: string };
}

describeDatabases('the reveal is a consequence (issue 9, finding 7)', (db) => {
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let dir: string;
  let env: Record<string, string>;
  let caseId: string;
  const [subject] = worldSubjects(1);
  const as = (actor: string): Record<string, string> => ({ ...env, CUSTODY_ACTOR: actor });
  const log = async (): Promise<Entry[]> =>
    (await custodyInExpect(0, ['log', '--json'], env)).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { entry: Entry }).entry);
  const submitArgs = (who: string): string[] => ['examine', 'submit', 'plan', caseId, '--form', join(dir, `${who}.json`)];
  const status = async (): Promise<{ case: string; submitted: string[]; status: string }[]> =>
    (JSON.parse((await custodyInExpect(0, ['examine', 'status', 'plan', '--json'], env)).stdout) as { cases: { case: string; submitted: string[]; status: string }[] }).cases;

  // The fixture (three photographs, a plan of two cases assigned to two examiners, dr-a's
  // submission) is built once per database; each test works on its own copy of it (the folder,
  // and the index database copied by CREATE DATABASE … TEMPLATE).
  let template: { dir: string; url: string | null };
  let dropTemplate: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    const made = await db.makeUrl();
    dropTemplate = made.cleanup;
    dir = await makeTempDir('custody-reveal');
    env = { CUSTODY_ARCHIVE: join(dir, 'archive'), ...(made.url === null ? {} : { DATABASE_URL: made.url }) };
    await mkdir(join(dir, 'photos'));
    for (let i = 0; i < 3; i++) {
      const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 60 * i, g: 90, b: 120 } } }).jpeg().toBuffer();
      await writeFile(join(dir, 'photos', `p${i}.jpg`), jpeg);
    }
    await custodyInExpect(0, ['init'], as('registrar'));
    await custodyInExpect(0, ['ingest', join(dir, 'photos'), '--source', 'KITE', '--new-source'], as('registrar'));
    const drawn = JSON.parse((await custodyInExpect(0, ['sample', 'draw', '--name', 'plan', '--over', 'items', '--method', 'simple', '--size', '2', '--json'], as('statistician'))).stdout) as { members: string[] };
    caseId = drawn.members[0] ?? '';
    await custodyInExpect(0, ['examine', 'assign', 'plan', '--examiners', 'dr-a,dr-b'], as('coordinator'));
    // Different lengths: A writes a long note, B none.
    await writeFile(join(dir, 'dr-a.json'), JSON.stringify(examinerForm(subject!, 'A', 0, 'n'.repeat(300))));
    await writeFile(join(dir, 'dr-b.json'), JSON.stringify(examinerForm(subject!, 'B', 0)));
    await custodyInExpect(0, submitArgs('dr-a'), as('dr-a'));
    template = { dir, url: made.url };
  }, 60_000);
  afterAll(() => dropTemplate());

  beforeEach(async () => {
    const made = await db.copyUrl(template.url);
    cleanup = made.cleanup;
    dir = await makeTempDir('custody-reveal');
    await cp(template.dir, dir, { recursive: true, preserveTimestamps: true });
    env = { CUSTODY_ARCHIVE: join(dir, 'archive'), ...(made.url === null ? {} : { DATABASE_URL: made.url }) };
  });
  afterEach(() => cleanup());

  it('crash before the reveal: verify reports EXAMINATION_UNREVEALED, then any write command reveals the case', async () => {
    const killed = await custody(submitArgs('dr-b'), { ...as('dr-b'), CUSTODY_TEST_CRASH_AT: 'examination-submitted:1' });
    expect(killed.signal).toBe('SIGKILL');
    const stuck = (await status()).find((c) => c.case === caseId);
    expect(stuck?.submitted).toEqual(['dr-a', 'dr-b']);
    expect(stuck?.status).toBe('awaiting_submissions'); // all in, still sealed
    expect((await log()).some((e) => e.details.action === 'examination.reveal')).toBe(false);

    const verify = await custodyIn(['verify', '--json'], env);
    expect(verify.code).toBe(1);
    const findings = (JSON.parse(verify.stdout) as { findings: { code: string; subject: string }[] }).findings;
    // Named as the plan's entries name the case before its close: by its code (issue 12, blinded cases).
    const code = (await log()).find((e) => e.details.action === 'examination.submit')?.details.case ?? '';
    expect(code).toMatch(/^k-[0-9a-f]{12}$/);
    expect(findings.find((f) => f.code === 'EXAMINATION_UNREVEALED')?.subject).toContain(code);

    // Any command that opens the archive for writing: here `analyze`, which has nothing to do.
    await custodyInExpect(0, ['analyze'], as('someone-else'));
    const entries = await log();
    const reveals = entries.filter((e) => e.details.action === 'examination.reveal');
    expect(reveals).toHaveLength(1);
    expect(reveals[0]?.actor).toBe('custody (system)');
    expect(reveals[0]?.details.reason).toMatch(/interrupted run/);
    expect((await status()).find((c) => c.case === caseId)?.status).not.toBe('awaiting_submissions');
    const show = await custodyInExpect(0, ['examine', 'show', 'plan', caseId, '--json'], env);
    expect(show.stdout).toContain('"answers"');
    // Nothing lost: both submissions, once each; and the archive verifies clean.
    expect(entries.filter((e) => e.details.action === 'examination.submit').map((e) => e.details.examiner)).toEqual(['dr-a', 'dr-b']);
    await custodyInExpect(0, ['verify'], env);
    // A second write open finds nothing to reveal.
    await custodyInExpect(0, ['analyze'], as('someone-else'));
    expect((await log()).filter((e) => e.details.action === 'examination.reveal')).toHaveLength(1);
  }, 60_000);

  it('a changed signing key: the second submission is refused with nothing appended, and the right key still reveals', async () => {
    const other = join(dir, 'other');
    await custodyInExpect(0, ['init', '--archive', other], { CUSTODY_ACTOR: 'intruder' }); // its key only
    const keyFile = join(dir, 'archive', 'keys', 'checkpoint-signing.pem');
    await copyFile(keyFile, join(dir, 'key.saved'));
    await copyFile(join(other, 'keys', 'checkpoint-signing.pem'), keyFile);
    const before = (await log()).length;
    const refused = await custodyIn(submitArgs('dr-b'), as('dr-b'));
    expect(refused.code).toBe(1);
    // KEY_MISMATCH once the open for writing checks the key against the archive's (issue 9,
    // another part); SEAL_BROKEN from the submission's own check until then.
    expect(refused.stderr).toMatch(/\[(KEY_MISMATCH|SEAL_BROKEN)\]/);
    await copyFile(join(dir, 'key.saved'), keyFile);
    expect(await log()).toHaveLength(before);

    const ok = await custodyInExpect(0, [...submitArgs('dr-b'), '--json'], as('dr-b'));
    expect((JSON.parse(ok.stdout) as { revealed: boolean }).revealed).toBe(true);
    await custodyInExpect(0, ['verify'], env);
  }, 60_000);

  it('sealed answers of different lengths have ciphertexts of the same length in log --json (12a)', async () => {
    await custodyInExpect(0, submitArgs('dr-b'), as('dr-b'));
    const sealed = (await log()).filter((e) => e.details.action === 'examination.submit').map((e) => e.details.sealed ?? '');
    expect(sealed).toHaveLength(2);
    expect(sealed[0]?.length).toBe(sealed[1]?.length);
  }, 60_000);

  it("actor names are normalised: ' dr-a' and 'DR-A' cannot adjudicate dr-a's case (12b)", async () => {
    // B submits as ' DR-B ': the same examiner, recorded under the name as assigned.
    await custodyInExpect(0, submitArgs('dr-b'), as(' DR-B '));
    const submits = (await log()).filter((e) => e.details.action === 'examination.submit');
    expect(submits.map((e) => [e.actor, e.details.examiner])).toEqual([['dr-a', 'dr-a'], ['dr-b', 'dr-b']]);
    const before = (await log()).length;
    for (const actor of [' dr-a', 'DR-A', 'dr-a\t', 'Dr-A ']) {
      const r = await custodyIn(['adjudicate', 'plan', caseId, '--set', 'sex=female', '--reason', 'mine'], as(actor));
      expect(r.code, `${JSON.stringify(actor)}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain('[EXAMINATION_ADJUDICATOR_IS_EXAMINER]');
      // The batch path compares the same way.
      const batch = join(dir, 'adjudicate-as-examiner.jsonl');
      await writeFile(batch, `${JSON.stringify({ case: caseId, decisions: [{ field: 'sex', value: 'female', reason: 'mine' }] })}\n`);
      const b = await custodyIn(['adjudicate', 'plan', '--batch', batch], as(actor));
      expect(b.code, `${JSON.stringify(actor)}: ${b.stderr}`).toBe(1);
      expect(b.stderr).toContain('[EXAMINATION_ADJUDICATOR_IS_EXAMINER]');
    }
    expect(await log()).toHaveLength(before);
  }, 60_000);

  it('actor names with control characters, empty or overlong, are refused wherever they enter (12b)', async () => {
    for (const actor of ['dr-x\u001b[31m', '   ', 'x'.repeat(201), 'dr\u202Ex']) {
      const r = await custodyIn(['analyze'], as(actor));
      expect(r.code, JSON.stringify(actor)).toBe(2);
      expect(r.stderr).toContain('[CONFIG_INVALID]');
      const flag = await custodyIn(['analyze', '--actor', actor], env);
      expect(flag.stderr).toContain('[CONFIG_INVALID]');
    }
    await custodyInExpect(0, ['sample', 'draw', '--name', 'second', '--over', 'items', '--method', 'simple', '--size', '2'], as('statistician'));
    for (const examiners of ['dr-a, DR-A', 'dr-a,dr-\u0007b', 'dr-a,']) {
      const r = await custodyIn(['examine', 'assign', 'second', '--examiners', examiners], as('coordinator'));
      expect(r.code, examiners).toBe(1);
      expect(r.stderr).toContain('[EXAMINATION_ASSIGN_INVALID]');
    }
  }, 60_000);
});
