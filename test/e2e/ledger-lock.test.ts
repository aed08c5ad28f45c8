// One writer at a time, by a kernel lock that deleting a file cannot remove; and a writer that
// never writes blind (issue 9, "Writers never write blind"; attack 9, "a removed lock loses a
// delivery"). Subprocesses where two processes must really race; in-process otherwise.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, copyFile, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { hasCode } from '../../src/core/errors.js';
import {
  custody,
  custodyIn,
  custodyInExpect,
  ledgerPath,
  readLedgerLines,
  writeExtraFiles,
  type LedgerEntry,
  type VerifyJson,
} from '../support/archive-fixtures.js';
import { REPO_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';
import { uncheckedDraft } from '../support/unchecked-draft.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

async function makeArchive(prefix: string): Promise<{ dir: string; base: string }> {
  const base = await makeTempDir(prefix);
  const dir = join(base, 'archive');
  await custodyInExpect(0, ['init', '--archive', dir]);
  return { dir, base };
}

async function verifyClean(dir: string): Promise<void> {
  const r = await custodyIn(['verify', '--archive', dir, '--json']);
  const report = JSON.parse(r.stdout) as VerifyJson;
  expect(report.findings.filter((f) => f.severity !== 'info'), JSON.stringify(report.findings)).toEqual([]);
  expect(r.code).toBe(0);
}

async function waitFor(cond: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A separate process that takes the same kernel lock a writer takes, and holds it until killed. */
function holdKernelLock(ledger: string): Promise<ChildProcess> {
  const code = `const fsx = require('fs-native-extensions'); const fd = require('fs').openSync(${JSON.stringify(ledger)}, 'r+');
if (!fsx.tryLock(fd, 0, 0, { shared: false })) process.exit(3); process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', code], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (c) => reject(new Error(`lock holder exited ${String(c)}`)));
  });
}

describe('one writer at a time: a kernel lock on the ledger file', () => {
  it('a writer waits for the lock holder, then fails with LEDGER_LOCKED; readers still read', async () => {
    const a = await makeArchive('lock-held');
    const src = join(a.base, 'src');
    await writeExtraFiles(src, 2);
    const holder = await holdKernelLock(ledgerPath(a.dir));
    const r = await custodyIn(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], { CUSTODY_LOCK_TIMEOUT_MS: '300' });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[LEDGER_LOCKED]');
    await custodyInExpect(0, ['log', '--archive', a.dir]);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    // The kernel dropped the dead holder's lock: the takeover is automatic.
    await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir]);
  });

  it('a lock note (writer.lock) naming a live process does not block, and deleting it does not unlock', async () => {
    const a = await makeArchive('lock-note');
    const src = join(a.base, 'src');
    await writeExtraFiles(src, 2);
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(sleeper);
    await writeFile(join(a.dir, 'ledger', 'writer.lock'), JSON.stringify({ pid: sleeper.pid, host: 'elsewhere', command: 'ingest', since: new Date().toISOString() }));
    await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir]);
    const holder = await holdKernelLock(ledgerPath(a.dir));
    await rm(join(a.dir, 'ledger', 'writer.lock'), { force: true });
    const r = await custodyIn(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], { CUSTODY_LOCK_TIMEOUT_MS: '200' });
    expect(r.stderr).toContain('[LEDGER_LOCKED]');
    holder.kill('SIGKILL');
  });

  it('attack 9: two writers racing after writer.lock is deleted mid-ingest never share a seq, and lose nothing', async () => {
    const a = await makeArchive('lock-race');
    const first = join(a.base, 'first');
    const second = join(a.base, 'second');
    await writeExtraFiles(first, 600);
    await writeExtraFiles(second, 40);
    const env = { CUSTODY_LOCK_TIMEOUT_MS: '120000' };
    const runA = custody(['ingest', first, '--source', 'A', '--new-source', '--archive', a.dir, '--json'], env, { timeoutMs: 120_000 });
    // Once A holds the lock (its note is written), delete the note and start B.
    await waitFor(() => stat(join(a.dir, 'ledger', 'writer.lock')).then(() => true, () => false), 30_000);
    await rm(join(a.dir, 'ledger', 'writer.lock'));
    const runB = custody(['ingest', second, '--source', 'B', '--new-source', '--archive', a.dir, '--json'], env, { timeoutMs: 120_000 });
    const [ra, rb] = await Promise.all([runA, runB]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    const entries = (await readLedgerLines(a.dir)).map((l) => JSON.parse(l) as LedgerEntry);
    entries.forEach((e, i) => expect(e.seq).toBe(i));
    expect(entries.filter((e) => e.type === 'ingestion')).toHaveLength(640);
    expect(entries.filter((e) => e.type === 'ingestion end')).toHaveLength(2);
    await verifyClean(a.dir);
  });
});

describe('a writer never writes blind', () => {
  const open = (dir: string) => openArchive(loadConfig({}, { archive: dir, actor: 'tester' }), 'write', 'test');
  const draft = uncheckedDraft({ actor: 'tester', type: 'fixity check', details: { note: 'test' } });

  it('a line appended under an open writer: LEDGER_CHANGED_UNDER_WRITER, the line is kept, nothing is signed over it', async () => {
    const a = await makeArchive('blind-append');
    const archive = await open(a.dir);
    await archive.commit([draft]);
    const lines = await readLedgerLines(a.dir);
    await appendFile(ledgerPath(a.dir), `${lines.at(-1) ?? ''}\n`);
    const err = await archive.commit([draft]).catch((e: unknown) => e);
    expect(hasCode(err, 'LEDGER_CHANGED_UNDER_WRITER'), String(err)).toBe(true);
    const closing = await archive.close().catch((e: unknown) => e);
    expect(hasCode(closing, 'LEDGER_CHANGED_UNDER_WRITER'), String(closing)).toBe(true);
    const after = await readLedgerLines(a.dir);
    expect(after).toEqual([...lines, lines.at(-1)]);
    const v = await custodyIn(['verify', '--archive', a.dir, '--json']);
    expect(v.code).toBe(1);
  });

  it('the ledger file replaced under an open writer: LEDGER_CHANGED_UNDER_WRITER, nothing written to either file', async () => {
    const a = await makeArchive('blind-replace');
    const archive = await open(a.dir);
    await archive.commit([draft]);
    const path = ledgerPath(a.dir);
    await copyFile(path, `${path}.copy`);
    await rename(path, `${path}.old`);
    await rename(`${path}.copy`, path);
    const before = await readFile(path);
    const err = await archive.commit([draft]).catch((e: unknown) => e);
    expect(hasCode(err, 'LEDGER_CHANGED_UNDER_WRITER'), String(err)).toBe(true);
    await archive.close().catch(() => undefined);
    expect((await readFile(path)).equals(before)).toBe(true);
    expect((await readFile(`${path}.old`)).equals(before)).toBe(true);
  });
});
