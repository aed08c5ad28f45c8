// Issue 12 (i12k), "Sealing", "Blinded cases" and assignment roles, from the CLI, in an archive
// with accounts: examiners are examiner accounts (an administrator is refused), cases have opaque
// codes, an examiner with cases still to submit is refused every command that reads the plan's
// catalogue, ledger, items or near-duplicates (BLIND_REFUSED), sees other examiners' answers only
// after their own last case (EXAMINATION_REVEAL_WITHHELD), agreement stays on the sealed first
// answers, and each plan's answers are sealed under a random plan key that is not derivable from
// the signing key. On SQLite and PostgreSQL.
import { createHmac, createPrivateKey, hkdfSync } from 'node:crypto';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openArchive } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { examinerForm, worldSubjects } from '../../src/demo/examination-world.js';
import { caseCodeKey, openCaseId, openPlanKey, planSealingKey, unseal } from '../../src/examination/blind/index.js';
import { canonicalize } from '../../src/core/index.js';
import { checkpointSizes, custodyIn, custodyInExpect, readLedgerLines, resignCheckpoints, writeLedgerLines } from '../support/archive-fixtures.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

interface Entry {
  seq: number;
  actor: string;
  details: Record<string, unknown> & { action?: string; case?: string; sealed?: string; examiner?: string };
}

const PASSWORD = 'pw-team-Zq7-secret-4411';

describeDatabases('examination as a team: sealing per plan, blinded cases, roles (issue 12)', (db) => {
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let dir: string;
  let env: Record<string, string>;
  const ids: Record<string, string> = {};
  /** Subject ids of the plan's cases, and the code of each. */
  let members: string[] = [];
  const codeOf = new Map<string, string>();
  let items: string[] = [];
  const subjectsWorld = worldSubjects(3);

  const as = (who: string, args: string[]) => custodyIn([...args, '--actor', ids[who] ?? who], env);
  const ok = async (who: string, args: string[]) => {
    const r = await as(who, args);
    expect(r.code, `custody ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const ledger = () => readFile(join(dir, 'archive', 'ledger', 'entries.jsonl'));
  const log = async (): Promise<Entry[]> =>
    (await ok('inv-d', ['log', '--json'])).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { entry: Entry }).entry);
  const form = async (who: string, n: number): Promise<string> => {
    const file = join(dir, `${who}-${n}.json`);
    // A and B disagree on the age band of the first case (an adjudication to make later).
    const answer = examinerForm(subjectsWorld[n]!, who, 0) as { age_band: string };
    if (n === 0 && who === 'ex-b') answer.age_band = answer.age_band === '60+' ? '18-29' : '60+';
    await writeFile(file, JSON.stringify(answer));
    return file;
  };
  const submit = (who: string, n: number) => async () => ok(who, ['examine', 'submit', 'plan', codeOf.get(members[n]!)!, '--form', await form(who, n)]);

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    dir = await makeTempDir(`custody-team-${db.kind}`);
    env = { CUSTODY_ARCHIVE: join(dir, 'archive'), ...(made.url === null ? {} : { DATABASE_URL: made.url }) };
    await writeFile(join(dir, 'pw'), `${PASSWORD}\n`, { mode: 0o600 });
    await custodyInExpect(0, ['init', '--admin', 'Boss Admin', '--admin-password-file', join(dir, 'pw')], { ...env, CUSTODY_ACTOR: 'installer' });
    for (const [name, role] of [['ex-a', 'examiner'], ['ex-b', 'examiner'], ['adj-c', 'adjudicator'], ['inv-d', 'investigator']] as const) {
      const r = await custodyInExpect(0, ['user', 'add', name, '--role', role, '--password-file', join(dir, 'pw'), '--json'], { ...env, CUSTODY_ACTOR: 'installer' });
      ids[name] = (JSON.parse(r.stdout) as { id: string }).id;
    }
    const list = JSON.parse((await custodyInExpect(0, ['user', 'list', '--json'], env)).stdout) as { id: string; role: string }[];
    ids.boss = list.find((a) => a.role === 'administrator')?.id ?? '';
    await mkdir(join(dir, 'photos'));
    for (let i = 0; i < 3; i++)
      await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 70 * i, g: 80, b: 200 - 50 * i } } }).png().toFile(join(dir, 'photos', `p${i}.png`));
    await ok('inv-d', ['ingest', join(dir, 'photos'), '--source', 'KITE', '--new-source']);
    items = (JSON.parse((await ok('inv-d', ['items', '--json'])).stdout) as { id: string; name: string }[]).sort((x, y) => x.name.localeCompare(y.name)).map((x) => x.id);
    for (let i = 0; i < 3; i++)
      await ok('inv-d', ['subject', 'add', '--sex', 'male', '--age-band', '30-39', '--date-of-death', `2013-0${i + 1}-15`, '--notes', `card ${i}`, '--item', items[i]!, '--reason', 'catalogue card']);
    const drawn = JSON.parse((await ok('inv-d', ['sample', 'draw', '--name', 'plan', '--over', 'subjects', '--method', 'simple', '--size', '2', '--json'])).stdout) as { members: string[] };
    members = drawn.members;
    // Accounts are named by name here: the CLI resolves them to account ids.
    await ok('inv-d', ['examine', 'assign', 'plan', '--examiners', 'ex-a,ex-b']);
    // The ledger does not link codes to subjects before the close (issue 12): the archive's holder
    // does, through the examination KEK (the repository reads the sealed ids back as subject ids).
    const archive = await openArchive(loadConfig({ ...env, CUSTODY_ACTOR: 'test' }, {}), 'read', 'test: case codes');
    try {
      const sample = (await archive.examinations.findSample('plan'))!;
      for (const a of await archive.examinations.assignments(sample.id)) codeOf.set(a.case_id, a.code ?? '');
    } finally {
      await archive.close();
    }
    expect(new Set(codeOf.keys())).toEqual(new Set(members));
  }, 120_000);
  afterAll(() => cleanup());

  it('an administrator cannot be assigned as an examiner (ASSIGNMENT_ROLE_REFUSED), nor an investigator; nothing is appended', async () => {
    await ok('inv-d', ['sample', 'draw', '--name', 'plan2', '--over', 'subjects', '--method', 'simple', '--size', '2']);
    const before = await ledger();
    for (const [who, role] of [['boss', 'administrator'], ['inv-d', 'investigator']]) {
      const r = await as('inv-d', ['examine', 'assign', 'plan2', '--examiners', `ex-a,${ids[who!]!}`, '--json']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('ASSIGNMENT_ROLE_REFUSED');
      expect(r.stderr).toContain(role);
    }
    // A free-text name is not an account, in an archive with accounts.
    const stranger = await as('inv-d', ['examine', 'assign', 'plan2', '--examiners', 'ex-a,dr-nobody']);
    expect(stranger.stderr).toContain('EXAMINATION_ASSIGN_INVALID');
    expect((await ledger()).equals(before)).toBe(true);
  });

  it('the assignment records the wrapped plan key and one opaque code per case; examiners name cases by code only', async () => {
    const assign = (await log()).find((e) => e.details.action === 'examination.assign');
    const planKey = assign?.details.plan_key as { format: string; kek: string; wrapped: string };
    expect(planKey).toMatchObject({ format: 'custody-plan-key', version: 1 });
    expect(Buffer.from(planKey.wrapped, 'base64')).toHaveLength(60);
    expect([...codeOf.values()].every((c) => /^k-[0-9a-f]{12}$/.test(c))).toBe(true);
    expect((assign?.details.cases as { examiners: string[] }[])[0]?.examiners).toEqual([ids['ex-a'], ids['ex-b']].sort());
    const status = (await ok('ex-a', ['examine', 'status', 'plan', '--json'])).stdout;
    for (const m of members) {
      expect(status).toContain(codeOf.get(m));
      expect(status).not.toContain(m);
    }
    // The form by code: images and codebook, and no subject id, date or note.
    const f = (await ok('ex-a', ['examine', 'form', 'plan', codeOf.get(members[0]!)!, '--json'])).stdout;
    expect(f).toContain(codeOf.get(members[0]!));
    for (const hidden of [...members, '2013-0', 'card ']) expect(f).not.toContain(hidden);
    // A subject id is not a case name for an examiner: refused without saying whether it is in the plan.
    const byId = await as('ex-a', ['examine', 'form', 'plan', members[0]!]);
    expect(byId.code).toBe(1);
    expect(byId.stderr).toContain('EXAMINATION_CASE_NOT_FOUND');
  });

  // Every read command that shows catalogue fields, ledger entries, proofs, items or near-duplicates.
  const doors: [string, () => string[]][] = [
    ['subject show', () => ['subject', 'show', members[0]!, '--json']],
    ['subject list', () => ['subject', 'list', '--json']],
    ['subject export', () => ['subject', 'export', '--format', 'json']],
    ['subject history (subject)', () => ['subject', 'history', members[0]!]],
    ['subject suggest', () => ['subject', 'suggest', '--json']],
    ['items', () => ['items', '--json']],
    ['show (item)', () => ['show', items[0]!, '--json']],
    ['log', () => ['log', '--json']],
    ['prove inclusion', () => ['prove', 'inclusion', '2', '--json']],
    ['similar', () => ['similar', items[0]!, '--json']],
    ['clusters', () => ['clusters', '--json']],
    ['exif', () => ['exif', items[0]!, '--json']],
    ['preview', () => ['preview', items[0]!, '--json']],
    ['authenticity', () => ['authenticity', items[0]!, '--json']],
    ['deliveries', () => ['deliveries', '--json']],
    ['tail', () => ['tail', '--json']],
    ['unit list', () => ['unit', 'list', '--json']],
    ['unit counts', () => ['unit', 'counts', '--json']],
    ['sample show', () => ['sample', 'show', 'plan', '--json']],
    ['sample list', () => ['sample', 'list', '--json']],
    ['source list', () => ['source', 'list', '--json']],
    ['stats', () => ['stats', 'plan', '--json']],
    ['agreement --sample', () => ['agreement', '--sample', 'plan', '--json']],
    ['adjudicate --list', () => ['adjudicate', 'plan', '--list', '--json']],
    ['report', () => ['report', '--template', 'summary', '--out', join(dir, 'r.html')]],
    ['export', () => ['export', '--select', 'all', '--out', join(dir, 'bag')]],
  ];
  for (const [name, args] of doors)
    it(`blind: an examiner with cases to submit is refused \`${name}\` (BLIND_REFUSED), and nothing is written`, async () => {
      const before = await ledger();
      const r = await as('ex-a', args());
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain('[BLIND_REFUSED]');
      for (const m of members) expect(r.stdout + r.stderr).not.toContain(m);
      expect(r.stdout).not.toContain('2013-0');
      expect((await ledger()).equals(before)).toBe(true);
    });

  it('blind: the refusal is not vacuous: an investigator reads the same subject, and the examiner is let in after their last case', async () => {
    const shown = await ok('inv-d', ['subject', 'show', members[0]!, '--json']);
    expect(shown.stdout).toContain('2013-0');
    // Not a blinded examiner's service function alone: the same scope answers per record (the server's filter).
    const { blindScope, assertMayReadSubject } = await import('../../src/examination/blind/index.js');
    const { openArchive } = await import('../../src/app.js');
    const { loadConfig } = await import('../../src/config/index.js');
    const archive = await openArchive(loadConfig({ ...env }, {}), 'read', 'test');
    try {
      const ports = { listSamples: () => archive.examinations.listSamples(), members: (s: string) => archive.examinations.members(s), assignments: (s: string) => archive.examinations.assignments(s), submissions: (s: string) => archive.examinations.submissions(s), allSubjectItems: () => archive.examinations.allSubjectItems(), listAccounts: () => archive.index.listAccounts() };
      const scope = await blindScope(ports, ids['ex-a']!);
      expect(() => assertMayReadSubject(scope, members[0]!)).toThrow(expect.objectContaining({ code: 'BLIND_REFUSED' }));
      const all = JSON.parse((await ok('inv-d', ['subject', 'list', '--json'])).stdout) as { id: string }[];
      const outside = all.map((s) => s.id).find((id) => !members.includes(id));
      expect(outside).toBeDefined();
      expect(() => assertMayReadSubject(scope, outside!)).not.toThrow();
      expect(await blindScope(ports, ids['inv-d']!)).toBeNull();
    } finally {
      await archive.close();
    }
  });

  it('reveal timing: answers revealed on a case stay withheld from an examiner until their own last case (EXAMINATION_REVEAL_WITHHELD)', async () => {
    await submit('ex-a', 0)();
    const second = await submit('ex-b', 0)();
    expect(second.stdout).toContain('answers revealed');
    const code0 = codeOf.get(members[0]!)!;
    // ex-a has case 2 still to do: refused, and the status carries no disagreement count.
    const early = await as('ex-a', ['examine', 'show', 'plan', code0, '--json']);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('[EXAMINATION_REVEAL_WITHHELD]');
    expect(early.stdout).not.toContain('age_band');
    const status = JSON.parse((await ok('ex-a', ['examine', 'status', 'plan', '--json'])).stdout) as { cases: { disagreements: number | null }[] };
    expect(status.cases.every((c) => c.disagreements === null)).toBe(true);
    // Someone not examining it reads it; ex-a after their last case reads it, and the catalogue too.
    await ok('inv-d', ['examine', 'show', 'plan', code0, '--json']);
    await submit('ex-a', 1)();
    expect((await ok('ex-a', ['examine', 'show', 'plan', code0, '--json'])).stdout).toContain('age_band');
    await ok('ex-a', ['subject', 'show', members[0]!, '--json']);
    // ex-b is still blinded: one case left.
    expect((await as('ex-b', ['subject', 'show', members[0]!])).stderr).toContain('[BLIND_REFUSED]');
    await submit('ex-b', 1)();
  });

  it('adjudication: an administrator is refused (ASSIGNMENT_ROLE_REFUSED); agreement stays on the sealed first answers after adjudication', async () => {
    const code0 = codeOf.get(members[0]!)!;
    const agreement = async () => {
      const a = JSON.parse((await ok('inv-d', ['agreement', '--sample', 'plan', '--json'])).stdout) as { findings: unknown; age_band: unknown; revealed_cases: number };
      return { findings: a.findings, age_band: a.age_band, revealed_cases: a.revealed_cases };
    };
    const before = await agreement();
    expect(before.revealed_cases).toBe(2);
    const byAdmin = await as('boss', ['adjudicate', 'plan', code0, '--set', 'age_band=30-39', '--reason', 'adjudicated by the admin']);
    expect(byAdmin.code).toBe(1);
    expect(byAdmin.stderr).toContain('[ASSIGNMENT_ROLE_REFUSED]');
    await ok('adj-c', ['adjudicate', 'plan', code0, '--set', 'age_band=30-39', '--reason', 'the teeth and the sutures']);
    expect(await agreement()).toEqual(before);
    // The adjudication did change the final answer: agreement is not computed on it.
    const shown = JSON.parse((await ok('inv-d', ['examine', 'show', 'plan', code0, '--json'])).stdout) as { final: { age_band: string }; answers: { age_band?: string; answer?: { age_band: string } }[] };
    expect(shown.final.age_band).toBe('30-39');
    expect(JSON.stringify(shown.answers)).toMatch(/"age_band":"(60\+|18-29)"/);
  });

  it('sealing: the plan key is not derivable from the signing key; it opens only through the KEK', async () => {
    const entries = await log();
    const submission = entries.find((e) => e.details.action === 'examination.submit')!;
    const context = `${String(submission.details.sample)}/${String(submission.details.case)}/${String(submission.details.examiner)}`;
    // The old derivation (app.ts before issue 12): HKDF of the signing key's seed with the archive id.
    const manifest = JSON.parse(await readFile(join(dir, 'archive', 'custody.json'), 'utf8')) as { id: string };
    const signing = createPrivateKey(await readFile(join(dir, 'archive', 'keys', 'checkpoint-signing.pem'), 'utf8'));
    const seed = Buffer.from(signing.export({ format: 'jwk' }).d ?? '', 'base64url');
    const derived = Buffer.from(hkdfSync('sha256', seed, Buffer.from(manifest.id, 'utf8'), 'custody sealed examination answers v1', 32));
    expect(() => unseal(derived, context, submission.details.sealed!)).toThrow(expect.objectContaining({ code: 'SEAL_BROKEN' }));
    // Through the KEK (its own random key in keys/, here unencrypted like this archive's signing key).
    const kekKey = createPrivateKey(await readFile(join(dir, 'archive', 'keys', 'examination-kek.key'), 'utf8'));
    const kekSeed = Buffer.from(kekKey.export({ format: 'jwk' }).d ?? '', 'base64url');
    const assign = entries.find((e) => e.details.action === 'examination.assign')!;
    const record = assign.details.plan_key as { kek: string };
    const kek = { id: record.kek, key: Buffer.from(hkdfSync('sha256', kekSeed, Buffer.from(manifest.id, 'utf8'), 'custody examination key-encryption key v1', 32)) };
    const planKey = openPlanKey(kek, String(assign.details.sample), JSON.stringify(record));
    expect(unseal(planSealingKey(planKey), context, submission.details.sealed!)).toHaveProperty('salt');
    // The signing key cannot stand in for the KEK either.
    expect(() => openPlanKey({ id: record.kek, key: derived }, String(assign.details.sample), JSON.stringify(record))).toThrow(expect.objectContaining({ code: 'SEAL_BROKEN' }));
    // And the codes are HMAC(case-code key, subject id), computed here without Custody's code function.
    const codeKey = caseCodeKey(planKey);
    for (const m of members) expect(codeOf.get(m)).toBe(`k-${createHmac('sha256', codeKey).update(m).digest('hex').slice(0, 12)}`);
  });

  it('before the close, no examination entry names the subject of a case, its items or their digests, in the ledger file or `log --json`', async () => {
    const entries = await log();
    const raw = (await ledger()).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; details: { action?: string } });
    expect(entries.some((e) => e.details.action === 'examination.close')).toBe(false);
    // The subjects of the plan, their items (each subject holds one here) and those items' digests.
    const items = JSON.parse((await ok('inv-d', ['items', '--json'])).stdout) as { id: string; sha256: string }[];
    const digests = new Map(items.map((i) => [i.id, i.sha256]));
    const linked = await Promise.all(members.map(async (m) => (JSON.parse((await ok('inv-d', ['subject', 'show', m, '--json'])).stdout) as { items?: string[] }).items ?? []));
    expect(linked.flat()).toHaveLength(2);
    const linkedDigests = linked.flat().map((i) => digests.get(i));
    expect(linkedDigests.every((d) => d !== undefined && /^[0-9a-f]{64}$/.test(d)), 'every linked item has its digest').toBe(true);
    const secrets = [...members, ...linked.flat(), ...(linkedDigests as string[])];
    const exam = [...entries.map((e) => e.details), ...raw.map((e) => e.details)].filter((d) => d.action?.startsWith('examination.'));
    expect(new Set(exam.map((d) => d.action))).toEqual(new Set(['examination.assign', 'examination.submit', 'examination.reveal', 'examination.adjudicate']));
    for (const d of exam) for (const secret of secrets) expect(JSON.stringify(d), `${String(d.action)} names ${secret}`).not.toContain(secret);
    // The assignment (version 2): each case by its code, its id sealed, in code order.
    const assign = entries.find((e) => e.details.action === 'examination.assign')!.details as { version: number; cases: { code: string; sealed_case: string; case?: string }[] };
    expect(assign.version).toBe(2);
    expect(assign.cases.map((c) => c.code)).toEqual([...codeOf.values()].sort());
    expect(assign.cases.every((c) => c.case === undefined && typeof c.sealed_case === 'string')).toBe(true);
    // Every later entry names the case by its code.
    for (const d of exam.filter((x) => x.action !== 'examination.assign')) expect([...codeOf.values()]).toContain((d as { case?: string }).case);
  });

  it('close: publishes the case-code key; every code links to its subject, and verify checks them', async () => {
    const closed = await ok('inv-d', ['examine', 'close', 'plan', '--json']);
    expect(JSON.parse(closed.stdout)).toMatchObject({ plan: 'plan', cases: 2 });
    const close = (await log()).find((e) => e.details.action === 'examination.close');
    const key = Buffer.from(String(close?.details.case_code_key), 'hex');
    for (const m of members) expect(codeOf.get(m)).toBe(`k-${createHmac('sha256', key).update(m).digest('hex').slice(0, 12)}`);
    // The case-id key opens every sealed id to its subject, and the close lists the same links.
    const idKey = Buffer.from(String(close?.details.case_id_key), 'hex');
    const assign = (await log()).find((e) => e.details.action === 'examination.assign')!.details as { sample: string; cases: { code: string; sealed_case: string }[] };
    const opened = new Map(assign.cases.map((c) => [c.code, openCaseId(idKey, assign.sample, c.code, c.sealed_case)]));
    expect(opened).toEqual(new Map([...codeOf].map(([m, c]) => [c, m])));
    expect(close?.details.cases).toEqual([...opened].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, kase]) => ({ code, case: kase })));
    // The answers' sealing key is not what was published.
    expect(Object.values(close?.details ?? {}).map(String)).not.toContain('plan_key');
    const again = await as('inv-d', ['examine', 'close', 'plan']);
    expect(again.stderr).toContain('[EXAMINATION_CLOSE_REFUSED]');
    await custodyInExpect(0, ['verify'], env);
  });

  it('a sealed id tampered with, or codes swapped between two cases, and the checkpoints re-signed: verify reports EXAMINATION_CASE_ID_MISMATCH', async () => {
    const tamper = async (name: string, edit: (cases: { code: string; sealed_case: string }[]) => void): Promise<string[]> => {
      const copy = join(await makeTempDir(`custody-team-${name}`), 'archive');
      await cp(join(dir, 'archive'), copy, { recursive: true });
      const lines = await readLedgerLines(copy);
      const i = lines.findIndex((l) => (JSON.parse(l) as Entry).details.action === 'examination.assign');
      const entry = JSON.parse(lines[i]!) as Entry;
      edit(entry.details.cases as { code: string; sealed_case: string }[]);
      lines[i] = canonicalize(entry);
      await writeLedgerLines(copy, lines);
      const origin = (JSON.parse(await readFile(join(copy, 'custody.json'), 'utf8')) as { origin: string }).origin;
      await resignCheckpoints({ dir: copy, origin, verifierKey: '', env: {} }, await checkpointSizes(copy));
      const cenv = { ...env, CUSTODY_ARCHIVE: copy, CUSTODY_ACTOR: 'insider' };
      if (db.kind === 'sqlite') expect((await custodyIn(['rebuild'], cenv)).code).toBe(0);
      const v = await custodyIn(['verify', '--json'], cenv);
      expect(v.code).toBe(1);
      return (JSON.parse(v.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
    };
    const flipped = await tamper('sealed', (cases) => {
      const raw = Buffer.from(cases[0]!.sealed_case, 'base64');
      raw[20] = (raw[20] ?? 0) ^ 1;
      cases[0]!.sealed_case = raw.toString('base64');
    });
    expect(flipped).toContain('EXAMINATION_CASE_ID_MISMATCH');
    const swapped = await tamper('swapped', (cases) => {
      [cases[0]!.code, cases[1]!.code] = [cases[1]!.code, cases[0]!.code];
    });
    expect(swapped).toContain('EXAMINATION_CASE_ID_MISMATCH');
  }, 120_000);
});
