// Issue 12, "Persist the leaf hashes … itself verified by `custody verify`": the leaf index
// (ledger/leaves.bin) is an index, never a record. `verify` re-hashes every entry and compares
// (LEDGER_LEAVES_MISMATCH); an edited, cut or missing index is rebuilt from the entries by the
// next writer or by `custody rebuild`; a crash between the entries and their leaves leaves a
// consistent archive; and a figure labelled signed is never a replay of an entry edited under an
// intact index. In-process through runCli, except where a process must die.
import { open, readFile, stat, truncate, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashLeaf } from '../../src/core/merkle.js';
import { custody, custodyIn, custodyInExpect, readLedgerLines, writeExtraFiles, writeLedgerLines, type VerifyJson } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

interface Made {
  dir: string;
  base: string;
  env: Record<string, string>;
}

async function makeArchive(prefix: string): Promise<Made> {
  const base = await makeTempDir(prefix);
  const dir = join(base, 'archive');
  await custodyInExpect(0, ['init', '--archive', dir]);
  const src = join(base, 'delivery');
  await writeExtraFiles(src, 4);
  await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', dir]);
  return { dir, base, env: {} };
}

async function verify(a: Made): Promise<{ code: number | null; report: VerifyJson; codes: string[] }> {
  const r = await custodyIn(['verify', '--archive', a.dir, '--json'], a.env);
  const report = JSON.parse(r.stdout) as VerifyJson;
  return { code: r.code, report, codes: [...new Set(report.findings.map((f) => f.code))].sort() };
}

const leavesPath = (a: Made): string => join(a.dir, 'ledger', 'leaves.bin');

/** The leaf index the entries call for: RFC 9162 leaf hashes of every line, in order. */
async function expectedLeaves(a: Made): Promise<Buffer> {
  return Buffer.concat((await readLedgerLines(a.dir)).map((l) => hashLeaf(Buffer.from(l, 'utf8'))));
}

async function expectIndexRebuilt(a: Made): Promise<void> {
  expect((await readFile(leavesPath(a))).equals(await expectedLeaves(a))).toBe(true);
  const v = await verify(a);
  expect(v.report.findings.filter((f) => f.severity !== 'info'), JSON.stringify(v.report.findings)).toEqual([]);
  expect(v.code).toBe(0);
}

describe('custody verify checks the leaf index against the entries', () => {
  it('a leaf edited on disk: verify fails with LEDGER_LEAVES_MISMATCH naming the entry; the next write command rebuilds the index', async () => {
    const a = await makeArchive('leaves-edited');
    expect((await readFile(leavesPath(a))).equals(await expectedLeaves(a))).toBe(true);
    const fh = await open(leavesPath(a), 'r+');
    await fh.write(Buffer.alloc(32, 0x5a), 0, 32, 2 * 32);
    await fh.close();
    const v = await verify(a);
    expect(v.code).toBe(1);
    expect(v.report.findings.filter((f) => f.code === 'LEDGER_LEAVES_MISMATCH').map((f) => [f.severity, f.subject])).toEqual([['error', 'entry 2']]);
    expect(v.codes).toEqual(['LEDGER_LEAVES_MISMATCH']); // the entries themselves are sound
    await custodyInExpect(0, ['checkpoint', '--sign', '--archive', a.dir]);
    await expectIndexRebuilt(a);
  });

  it('leaves planted beyond the ledger: verify fails with LEDGER_LEAVES_MISMATCH; custody rebuild regenerates the index', async () => {
    const a = await makeArchive('leaves-planted');
    const size = (await readLedgerLines(a.dir)).length;
    await readFile(leavesPath(a)).then(async (b) => {
      const fh = await open(leavesPath(a), 'a');
      await fh.write(b.subarray(0, 64));
      await fh.close();
    });
    const v = await verify(a);
    expect(v.code).toBe(1);
    expect(v.report.findings.find((f) => f.code === 'LEDGER_LEAVES_MISMATCH')?.subject).toBe('ledger/leaves.bin');
    await custodyInExpect(0, ['rebuild', '--archive', a.dir]);
    expect((await stat(leavesPath(a))).size).toBe(size * 32);
    await expectIndexRebuilt(a);
  });

  it('a truncated leaf index: verify warns (exit 0), and the next write command rebuilds it', async () => {
    const a = await makeArchive('leaves-truncated');
    await truncate(leavesPath(a), 3 * 32 + 5);
    const v = await verify(a);
    expect(v.code).toBe(0);
    expect(v.report.findings.filter((f) => f.code === 'LEDGER_LEAVES_MISMATCH').map((f) => f.severity)).toEqual(['warning']);
    await custodyInExpect(0, ['checkpoint', '--sign', '--archive', a.dir]);
    await expectIndexRebuilt(a);
  });

  it('a missing leaf index: custody rebuild regenerates it', async () => {
    const a = await makeArchive('leaves-missing');
    await unlink(leavesPath(a));
    expect((await verify(a)).code).toBe(0);
    await custodyInExpect(0, ['rebuild', '--archive', a.dir]);
    await expectIndexRebuilt(a);
  });
});

describe('signed figures and the leaf index share one rule: a root at a signed size', () => {
  it('an entry edited under an intact leaf index: the signed replay (unit counts) refuses with LEDGER_LEAVES_MISMATCH, and verify shows the edit', async () => {
    const a = await makeArchive('leaves-signed-figure');
    const lines = await readLedgerLines(a.dir);
    const i = lines.findIndex((l) => l.includes('"type":"ingestion"'));
    lines[i] = (lines[i] ?? '').replace(/"actor":"([^"]*)"/, '"actor":"$1x"');
    await writeLedgerLines(a.dir, lines);
    const r = await custodyIn(['unit', 'counts', '--archive', a.dir], a.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[LEDGER_LEAVES_MISMATCH]');
    expect(r.stdout).toBe(''); // no figure under the signed label
    const v = await verify(a);
    expect(v.code).toBe(1);
    expect(v.codes).toContain('CHECKPOINT_ROOT_MISMATCH');
    expect(v.report.findings.find((f) => f.code === 'LEDGER_LEAVES_MISMATCH')?.subject).toBe(`entry ${i}`);
  });
});

describe('a crash between the entries and their leaves', () => {
  it('SIGKILL after the entries are durable and before their leaves: reopened, the tail is adopted through its intent, the index completed, verify clean', async () => {
    const a = await makeArchive('leaves-crash');
    const src = join(a.base, 'late');
    await writeExtraFiles(src, 3);
    const r = await custody(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], { CUSTODY_TEST_CRASH_AT: 'entries-appended:1' });
    expect(r.signal, r.stderr).toBe('SIGKILL');
    const lines = await readLedgerLines(a.dir);
    expect((await stat(leavesPath(a))).size).toBeLessThan(lines.length * 32); // the leaves never landed
    expect((await verify(a)).codes).toContain('LEDGER_TAIL_UNAUTHENTICATED');
    const sign = await custodyIn(['checkpoint', '--sign', '--archive', a.dir]);
    expect(sign.code, sign.stderr).toBe(0);
    await expectIndexRebuilt(a);
    await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir]);
    await expectIndexRebuilt(a);
  });
});
