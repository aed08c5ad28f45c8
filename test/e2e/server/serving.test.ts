// Issue 12, "The server" → running it, and "Tests" → concurrency: the server is the archive's one
// writer. A CLI write against a served archive fails at once naming the server (ARCHIVE_SERVED)
// while reads keep working; a second process writing while the server writes is refused and
// nothing is lost; kill -9 of the server during a commit, restart, and `custody verify` is clean;
// checkpoints are signed on the service cadence even when idle, and at stop; the folder-mode warning.
import { chmod, cp, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import {
  custodyExpect,
  custodyIn,
  custodyInExpect,
  expectClean,
  type TestArchive,
} from '../../support/archive-fixtures.js';
import { openArchive } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/config.js';
import { latestSignedCheckpoint } from '../../../src/ledger/index.js';
import { describeDatabases } from '../../support/postgres.js';
import {
  ingestObjects,
  servedArchive,
  signIn,
  signInOver,
  startServe,
  TEST_PASSWORD,
  type ServedArchive,
  type ServeProcess,
} from '../../support/server.js';
import { manualTime } from '../../support/manual-time.js';
import { makeTempDir } from '../../support/tmp.js';

interface Team {
  archive: TestArchive;
  objects: string[];
}

async function teamArchive(prefix: string, dbUrl: string | null): Promise<Team> {
  const base = await makeTempDir(prefix);
  const env: Record<string, string> = dbUrl ? { DATABASE_URL: dbUrl } : {};
  const archive: TestArchive = { dir: join(base, 'archive'), origin: '', verifierKey: '', env };
  await custodyInExpect(0, ['init', '--archive', archive.dir], env);
  const pw = join(base, 'pw');
  await writeFile(pw, `${TEST_PASSWORD}\n`, { mode: 0o600 });
  await custodyInExpect(
    0,
    ['user', 'add', 'Investigator One', '--role', 'investigator', '--password-file', pw, '--archive', archive.dir],
    env,
  );
  return { archive, objects: await ingestObjects(archive, 3) };
}

async function ledgerLines(dir: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(dir, 'ledger', 'entries.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const exists = (p: string) => stat(p).then(() => true, () => false);

describeDatabases('serving: one writer', (db) => {
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let serving: ServeProcess | undefined;
  let inProcess: ServedArchive | undefined;
  afterEach(async () => {
    if (serving !== undefined && serving.child.exitCode === null) serving.child.kill('SIGKILL');
    serving = undefined;
    await inProcess?.close();
    inProcess = undefined;
    await cleanup();
  });
  // The team archive (init, the investigator's account, three objects) is built once per database
  // and copied for each test: the folder with cp, a PostgreSQL index with CREATE DATABASE …
  // TEMPLATE. Each test has its own files and database; the copies share the archive's identity.
  let template: Promise<{ team: Team; url: string | null }> | undefined;
  let dropTemplate: () => Promise<void> = () => Promise.resolve();
  afterAll(() => dropTemplate());
  async function team(prefix: string): Promise<Team> {
    template ??= (async () => {
      const made = await db.makeUrl();
      dropTemplate = made.cleanup;
      return { team: await teamArchive(`serve-template-${db.kind}`, made.url), url: made.url };
    })();
    const { team: made, url } = await template;
    const copy = await db.copyUrl(url);
    cleanup = copy.cleanup;
    const dir = join(await makeTempDir(`${prefix}-${db.kind}`), 'archive');
    await cp(made.archive.dir, dir, { recursive: true, preserveTimestamps: true });
    const env: Record<string, string> = copy.url ? { DATABASE_URL: copy.url } : {};
    return { archive: { ...made.archive, dir, env }, objects: made.objects };
  }

  it('while served, a CLI write from a second process fails at once naming the server (ARCHIVE_SERVED), reads keep working, and nothing the server acknowledged is lost', async () => {
    const { archive, objects } = await team('serve-one-writer');
    await chmod(archive.dir, 0o750);
    serving = await startServe(archive);
    expect(serving.stderr()).not.toContain('open to other users');
    const marker = JSON.parse(await readFile(join(archive.dir, 'ledger', 'server.json'), 'utf8')) as { pid: number; port: number };
    expect(marker.pid).toBe(serving.child.pid);
    const client = await signInOver(serving.url, 'Investigator One');
    // the server writes (20 decisions in flight) while a second process tries to write
    const posts = Array.from({ length: 20 }, (_, i) =>
      client.post('/api/decisions', { objects: objects.slice(0, 2), decision: 'different', note: `n${i}` }),
    );
    const [second, ...answers] = await Promise.all([
      custodyExpect(1, ['decide', objects[0]!, objects[1]!, '--same-image', '--archive', archive.dir, '--json'], archive.env),
      ...posts,
    ]);
    expect(second.stderr).toContain('ARCHIVE_SERVED');
    expect(second.stderr).toContain(`127.0.0.1:${marker.port}`);
    const acked = await Promise.all(answers.map(async (r) => { expect(r.status).toBe(201); return ((await r.json()) as { seq: number }).seq; }));
    // in-process too, and other write commands
    const inproc = await custodyIn(['user', 'disable', 'Investigator One', '--reason', 'x', '--archive', archive.dir, '--json'], archive.env);
    expect(inproc.code).toBe(1);
    expect(inproc.stdout + inproc.stderr).toContain('ARCHIVE_SERVED');
    // a read-only command keeps working
    const items = await custodyInExpect(0, ['items', '--archive', archive.dir, '--json'], archive.env);
    expect(items.stdout).toContain(objects[0]!.slice(0, 12));
    serving.child.kill('SIGTERM');
    expect(await serving.exited).toEqual({ code: 0, signal: null });
    expect(await exists(join(archive.dir, 'ledger', 'server.json'))).toBe(false);
    const entries = await ledgerLines(archive.dir);
    for (const [i, seq] of acked.entries()) {
      const e = entries.find((x) => x.seq === seq);
      expect((e?.details as Record<string, unknown> | undefined)?.note, `seq ${seq}`).toBe(`n${i}`);
    }
    expect(entries.filter((e) => (e.details as Record<string, unknown>).decision === 'same-image')).toEqual([]);
    await expectClean(archive); // includes the checkpoint signed at stop
    // after stop, the CLI writes again
    await custodyInExpect(0, ['decide', objects[0]!, objects[1]!, '--same-image', '--archive', archive.dir], archive.env);
  });

  it('a stale server.json (its process is gone) is ignored: writes work', async () => {
    const { archive, objects } = await team('serve-stale-marker');
    await writeFile(
      join(archive.dir, 'ledger', 'server.json'),
      JSON.stringify({ pid: 2 ** 22 + 12345, host: '127.0.0.1', port: 1, started: 'then' }),
    );
    await custodyInExpect(0, ['decide', objects[0]!, objects[1]!, '--different', '--archive', archive.dir], archive.env);
  });

  it('custody serve warns when the archive folder is readable by others', async () => {
    const { archive } = await team('serve-mode-warning');
    await chmod(archive.dir, 0o755);
    serving = await startServe(archive);
    expect(serving.stderr()).toMatch(/open to other users \(mode 755\)/);
    serving.child.kill('SIGTERM');
    expect(await serving.exited, serving.stdout() + serving.stderr()).toEqual({ code: 0, signal: null });
  });

  it('kill -9 of the server during a commit, restart, then custody verify is clean and every acknowledged entry is there', async () => {
    const { archive, objects } = await team('serve-kill9');
    // The 1st append of this run is the sign-in; the 3rd is the second decision: killed after its entries are written.
    serving = await startServe(archive, { CUSTODY_TEST_CRASH_AT: 'entries-appended:3' });
    const client = await signInOver(serving.url, 'Investigator One');
    const first = await client.post('/api/decisions', { objects: objects.slice(0, 2), decision: 'different', note: 'acked' });
    expect(first.status).toBe(201);
    const ackedSeq = ((await first.json()) as { seq: number }).seq;
    await expect(client.post('/api/decisions', { objects: objects.slice(0, 2), decision: 'different', note: 'killed' })).rejects.toThrow();
    expect((await serving.exited).signal).toBe('SIGKILL');
    // the marker of the dead server is ignored; restart, stop, verify
    serving = await startServe(archive);
    serving.child.kill('SIGTERM');
    expect(await serving.exited, serving.stdout() + serving.stderr()).toEqual({ code: 0, signal: null });
    await expectClean(archive);
    const entries = await ledgerLines(archive.dir);
    expect((entries.find((e) => e.seq === ackedSeq)?.details as Record<string, unknown>).note).toBe('acked');
  });

  it('kill -9 of the server after a batch is durable but before its index transaction commits: restart replays it into the index, verify is clean', async () => {
    const { archive, objects } = await team('serve-kill9-index');
    // On PostgreSQL the index transaction has written its rows by now (beside the append) but
    // must not commit before the entries are durable; killed here, it never commits.
    serving = await startServe(archive, { CUSTODY_TEST_CRASH_AT: 'ledger-appended:3' });
    const client = await signInOver(serving.url, 'Investigator One');
    expect((await client.post('/api/decisions', { objects: objects.slice(0, 2), decision: 'different', note: 'acked' })).status).toBe(201);
    await expect(client.post('/api/decisions', { objects: objects.slice(0, 2), decision: 'different', note: 'durable, never acked' })).rejects.toThrow();
    expect((await serving.exited).signal).toBe('SIGKILL');
    const killed = (await ledgerLines(archive.dir)).find((e) => (e.details as Record<string, unknown>).note === 'durable, never acked');
    expect(killed).toBeDefined();
    serving = await startServe(archive);
    serving.child.kill('SIGTERM');
    expect(await serving.exited, serving.stdout() + serving.stderr()).toEqual({ code: 0, signal: null });
    const v = await expectClean(archive);
    expect(v.report.index.ledger_size_in_index).toBe(v.report.ledger.size);
    const reopened = await openArchive(loadConfig(archive.env, { archive: archive.dir }), 'read', 'test');
    try {
      const decisions = await reopened.index.dumpTable('decisions');
      expect(decisions.map((d) => Number(d.seq))).toContain(killed!.seq);
    } finally {
      await reopened.close();
    }
  });

  it('kill -9 of the server once a batch intent is durable but before its entries are written: the index holds nothing of the batch (never ahead of the ledger), verify is clean', async () => {
    const { archive, objects } = await team('serve-kill9-intent');
    serving = await startServe(archive, { CUSTODY_TEST_CRASH_AT: 'intent-written:3' });
    const client = await signInOver(serving.url, 'Investigator One');
    expect((await client.post('/api/decisions', { objects: objects.slice(0, 2), decision: 'different', note: 'acked' })).status).toBe(201);
    await expect(client.post('/api/decisions', { objects: objects.slice(0, 2), decision: 'different', note: 'never written' })).rejects.toThrow();
    expect((await serving.exited).signal).toBe('SIGKILL');
    const lines = await ledgerLines(archive.dir);
    expect(lines.some((e) => (e.details as Record<string, unknown>).note === 'never written')).toBe(false);
    // A committed index row for it would make the index ahead of the ledger (LEDGER_DB_AHEAD here).
    serving = await startServe(archive);
    serving.child.kill('SIGTERM');
    expect(await serving.exited, serving.stdout() + serving.stderr()).toEqual({ code: 0, signal: null });
    const v = await expectClean(archive);
    expect(v.report.index.ledger_size_in_index).toBe(v.report.ledger.size);
    const reopened = await openArchive(loadConfig(archive.env, { archive: archive.dir }), 'read', 'test');
    try {
      const notes = (await reopened.index.dumpTable('decisions')).map((d) => d.note);
      expect(notes).toEqual(['acked']);
    } finally {
      await reopened.close();
    }
  });

  it('while serving, checkpoints are signed on the service cadence when idle after writes (timer), by count, and at stop', async () => {
    const { archive, objects } = await team('serve-cadence');
    // Time: every 10 s (the service's), entries: never; the clock and the ticker are the test's.
    const time = manualTime();
    inProcess = await servedArchive('unused', [], {
      dbUrl: archive.env.DATABASE_URL ?? null,
      open: { writerCadence: { everyEntries: 1_000_000, everyMs: 10_000 }, writerTime: time },
      reuse: archive,
    });
    const c = await signIn(inProcess.server, 'Investigator One');
    const r = await c.request('POST', '/api/decisions', { objects: objects.slice(0, 2), decision: 'different' });
    expect(r.statusCode).toBe(201);
    const ledger = inProcess.open.ledger;
    const open = inProcess.open;
    expect(time.intervals).toEqual([1000]);
    // 8.9 s after the first unsigned entry: the tick does not sign yet (none waits longer than 10 s).
    time.now.t += 8_900;
    time.fire();
    await open.writerIdle();
    expect(ledger.signedSize).toBeLessThan(ledger.size);
    time.now.t += 100;
    time.fire();
    await open.writerIdle();
    expect(ledger.signedSize).toBe(ledger.size);
    await inProcess.close();
    // By count: every 2 entries.
    inProcess = await servedArchive('unused', [], {
      dbUrl: archive.env.DATABASE_URL ?? null,
      open: { writerCadence: { everyEntries: 2, everyMs: null } },
      reuse: archive,
    });
    const c2 = await signIn(inProcess.server, 'Investigator One'); // 1 entry
    expect(inProcess.open.ledger.signedSize).toBeLessThan(inProcess.open.ledger.size);
    await c2.request('POST', '/api/decisions', { objects: objects.slice(0, 2), decision: 'different' }); // 2
    expect(inProcess.open.ledger.signedSize).toBe(inProcess.open.ledger.size);
    await c2.request('POST', '/api/decisions', { objects: objects.slice(0, 2), decision: 'different' }); // 3
    expect(inProcess.open.ledger.signedSize).toBeLessThan(inProcess.open.ledger.size);
    await inProcess.close(); // at stop
    inProcess = undefined;
    const reopened = await openArchive(loadConfig(archive.env, { archive: archive.dir }), 'read', 'test');
    try {
      expect(
        await latestSignedCheckpoint({ ledger: reopened.ledger, verifierKey: reopened.verifierKey, origin: reopened.manifest.origin }),
      ).toBe(reopened.ledger.size);
    } finally {
      await reopened.close();
    }
    await expectClean(archive);
  });
});
