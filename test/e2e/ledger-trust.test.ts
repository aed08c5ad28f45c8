// Issue 9, "No entry is signed unless this process wrote it or verified it": an insider with
// file access but without the key appends, edits or rolls back ledger lines; no writer may adopt
// or sign them, `verify` fails on them, and only a recorded operator command moves them aside.
// In-process through runCli (custodyIn) except where a process must die.
import { appendFile, cp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkpointPath,
  checkpointSizes,
  custody,
  custodyIn,
  custodyInExpect,
  hashTree,
  ledgerPath,
  objectPath,
  readLedgerLines,
  sha256Hex,
  writeExtraFiles,
  writeLedgerLines,
  type LedgerEntry,
  type VerifyJson,
} from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

interface Made {
  dir: string;
  base: string;
  env: Record<string, string>;
}

async function makeArchive(prefix: string, env: Record<string, string> = {}, batches = 1): Promise<Made> {
  const base = await makeTempDir(prefix);
  const dir = join(base, 'archive');
  await custodyInExpect(0, ['init', '--archive', dir], env);
  for (let b = 0; b < batches; b++) {
    const src = join(base, `delivery-${b}`);
    await writeExtraFiles(src, 3);
    await writeFile(join(src, `marker-${b}.txt`), `batch ${b} of ${prefix}`);
    await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', dir], env);
  }
  return { dir, base, env };
}

async function verify(a: Made, extra: string[] = []): Promise<{ code: number | null; report: VerifyJson; codes: string[] }> {
  const r = await custodyIn(['verify', '--archive', a.dir, '--json', ...extra], a.env);
  const report = JSON.parse(r.stdout) as VerifyJson;
  return { code: r.code, report, codes: [...new Set(report.findings.map((f) => f.code))].sort() };
}

const parse = (line: string): LedgerEntry => JSON.parse(line) as LedgerEntry;
/** The canonical line an insider writes: keys sorted (RFC 8785 for these plain values), no spaces. */
function canonical(e: LedgerEntry): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sort(x)])) : v;
  return JSON.stringify(sort(e));
}

/** Appends a well-formed, canonical entry with the next seq, as an insider would. */
async function appendForged(dir: string, make: (last: LedgerEntry, seq: number) => Omit<LedgerEntry, 'seq'>): Promise<LedgerEntry> {
  const lines = await readLedgerLines(dir);
  const last = parse(lines.at(-1) ?? '');
  const entry: LedgerEntry = { ...make(last, lines.length), seq: lines.length };
  await appendFile(ledgerPath(dir), `${canonical(entry)}\n`);
  return entry;
}

async function firstIngestion(dir: string): Promise<LedgerEntry> {
  const e = (await readLedgerLines(dir)).map(parse).find((x) => x.type === 'ingestion');
  if (e === undefined) throw new Error('no ingestion entry');
  return e;
}

async function forgeWithdrawal(dir: string): Promise<{ sha: string; forged: LedgerEntry }> {
  const target = await firstIngestion(dir);
  const sha = target.objects[0] ?? '';
  const forged = await appendForged(dir, (last) => ({
    time: last.time,
    actor: 'operator',
    type: 'withdrawal',
    items: target.items,
    objects: [sha],
    details: { authority: 'court order 1/2026', reason: 'withdrawn' },
  }));
  return { sha, forged };
}

async function deleteNewestCheckpoint(dir: string): Promise<number> {
  const newest = (await checkpointSizes(dir)).at(-1) ?? 0;
  await unlink(checkpointPath(dir, newest));
  return newest;
}

describe('hand-appended ledger lines are never adopted or signed', () => {
  for (const dropCheckpoint of [false, true]) {
    const how = dropCheckpoint ? ', with the newest checkpoint deleted' : '';
    it(`a forged withdrawal${how}: purge --withdrawn refuses (LEDGER_TAIL_UNAUTHENTICATED), the evidence stays, nothing is signed`, async () => {
      const a = await makeArchive('forged-withdrawal');
      const { sha } = await forgeWithdrawal(a.dir);
      if (dropCheckpoint) await deleteNewestCheckpoint(a.dir);
      const sizes = await checkpointSizes(a.dir);
      const ledgerBefore = await readFile(ledgerPath(a.dir));

      const r = await custodyIn(['purge', '--withdrawn', '--archive', a.dir], a.env);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('[LEDGER_TAIL_UNAUTHENTICATED]');
      expect(sha256Hex(await readFile(objectPath(a.dir, sha)))).toBe(sha); // not deleted
      expect(await checkpointSizes(a.dir)).toEqual(sizes); // nothing signed
      expect((await readFile(ledgerPath(a.dir))).equals(ledgerBefore)).toBe(true); // nothing appended

      const v = await verify(a);
      expect(v.code).toBe(1);
      expect(v.codes).toContain('LEDGER_TAIL_UNAUTHENTICATED');
    });

    it(`a planted object with a forged ingestion into a closed delivery${how}: analyze, export and rebuild refuse`, async () => {
      const a = await makeArchive('forged-ingestion');
      const planted = Buffer.from('fabricated evidence');
      const sha = sha256Hex(planted);
      await cp(join(a.base, 'delivery-0', 'marker-0.txt'), join(a.base, 'unused')); // an unrelated copy, to show the store is unchanged
      const { mkdir } = await import('node:fs/promises');
      await mkdir(join(a.dir, 'objects', 'sha256', sha.slice(0, 2)), { recursive: true });
      await writeFile(objectPath(a.dir, sha), planted);
      const template = await firstIngestion(a.dir);
      await appendForged(a.dir, (last) => ({
        ...template,
        time: last.time,
        items: ['01KFORGEDFORGEDFORGEDFORGE'],
        objects: [sha],
        details: { ...template.details, path: 'DCIM/IMG_9999.JPG', relative_path: 'DCIM/IMG_9999.JPG', name: 'IMG_9999.JPG', size: planted.length },
      }));
      if (dropCheckpoint) await deleteNewestCheckpoint(a.dir);
      const sizes = await checkpointSizes(a.dir);

      for (const args of [['analyze'], ['export', '--select', 'all', '--out', join(a.base, 'bag')], ['rebuild']]) {
        const r = await custodyIn([...args, '--archive', a.dir], a.env);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
        expect(r.stderr).toContain('[LEDGER_TAIL_UNAUTHENTICATED]');
      }
      expect(await checkpointSizes(a.dir)).toEqual(sizes);
      const v = await verify(a);
      expect(v.code).toBe(1);
      expect(v.codes).toContain('LEDGER_TAIL_UNAUTHENTICATED');
    });
  }

  it('deleting the newest checkpoint and editing the entries it covered: the next write refuses, and rebuild cannot hide it', async () => {
    const a = await makeArchive('edit-covered', {}, 2);
    const lines = await readLedgerLines(a.dir);
    const newest = await deleteNewestCheckpoint(a.dir);
    const previous = (await checkpointSizes(a.dir)).at(-1) ?? 0;
    expect(previous).toBeLessThan(newest);
    // Edit an ingestion entry the deleted checkpoint covered (and only it).
    const i = lines.findIndex((l, k) => k >= previous && parse(l).type === 'ingestion');
    const e = parse(lines[i] ?? '');
    lines[i] = canonical({ ...e, details: { ...e.details, path: 'elsewhere/forged.jpg' } });
    await writeLedgerLines(a.dir, lines);

    for (const args of [['withdraw', e.items[0] ?? '', '--reason', 'r', '--authority', 'a'], ['rebuild'], ['checkpoint', '--sign']]) {
      const r = await custodyIn([...args, '--archive', a.dir], a.env);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('[LEDGER_TAIL_UNAUTHENTICATED]');
    }
    expect(await checkpointSizes(a.dir)).not.toContain(newest);
    expect((await verify(a)).codes).toContain('LEDGER_TAIL_UNAUTHENTICATED');
  });

  it('editing entries a checkpoint still covers: the next write refuses with LEDGER_CHECKPOINT_MISMATCH', async () => {
    const a = await makeArchive('edit-signed');
    const lines = await readLedgerLines(a.dir);
    const i = lines.findIndex((l) => parse(l).type === 'ingestion');
    const e = parse(lines[i] ?? '');
    lines[i] = canonical({ ...e, actor: 'someone else' });
    await writeLedgerLines(a.dir, lines);
    const before = await hashTree(a.dir);
    const r = await custodyIn(['checkpoint', '--sign', '--archive', a.dir], a.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[LEDGER_CHECKPOINT_MISMATCH]');
    const after = await hashTree(a.dir);
    for (const [path, digest] of before) if (!path.startsWith('index.sqlite')) expect(after.get(path), path).toBe(digest);
  });

  it('a checkpoint file planted without the key is refused (LEDGER_CHECKPOINT_INVALID), never built on', async () => {
    const a = await makeArchive('planted-checkpoint');
    const lines = await readLedgerLines(a.dir);
    const newest = (await checkpointSizes(a.dir)).at(-1) ?? 0;
    const note = await readFile(checkpointPath(a.dir, newest), 'utf8');
    await appendForged(a.dir, (last) => ({ ...parse(lines.at(-1) ?? ''), time: last.time, type: 'fixity check', items: [], objects: [], details: {} }));
    // A checkpoint for the longer ledger, its signature copied from the real one: it cannot verify.
    await writeFile(checkpointPath(a.dir, newest + 1), note.replace(`\n${newest}\n`, `\n${newest + 1}\n`));
    const r = await custodyIn(['checkpoint', '--sign', '--archive', a.dir], a.env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[LEDGER_CHECKPOINT_INVALID]');
  });
});

describe('custody tail: an unauthenticated tail is shown, and moved aside only by a recorded command', () => {
  it('shows the forged line, sets it aside with its exact bytes kept, records a quarantine entry; verify is clean after', async () => {
    const a = await makeArchive('set-aside');
    const { sha, forged } = await forgeWithdrawal(a.dir);
    const forgedLine = (await readLedgerLines(a.dir)).at(-1) ?? '';

    const show = await custodyInExpect(0, ['tail', '--archive', a.dir, '--json'], a.env);
    const tail = JSON.parse(show.stdout) as { checkpoint_size: number; lines: { seq: number; type: string; text: string }[] };
    expect(tail.lines).toHaveLength(1);
    expect(tail.lines[0]).toMatchObject({ seq: forged.seq, type: 'withdrawal', text: forgedLine });

    const noReason = await custodyIn(['tail', '--set-aside', '--archive', a.dir], a.env);
    expect(noReason.code).toBe(2);

    const r = await custodyInExpect(0, ['tail', '--set-aside', '--reason', 'planted line found by verify on 2026-12-01', '--archive', a.dir, '--json'], a.env);
    const out = JSON.parse(r.stdout) as { file: string; sha256: string; entry: number };
    const kept = await readFile(join(a.dir, out.file));
    expect(kept.toString('utf8')).toBe(`${forgedLine}\n`);
    expect(sha256Hex(kept)).toBe(out.sha256);

    const lines = (await readLedgerLines(a.dir)).map(parse);
    expect(lines).toHaveLength(forged.seq + 1); // the forged entry's place now holds the record of its removal
    expect(lines.at(-1)).toMatchObject({ seq: forged.seq, type: 'quarantine', details: { action: 'ledger tail set aside', from: forged.seq, to: forged.seq + 1, sha256: out.sha256 } });
    expect(out.entry).toBe(forged.seq);
    expect(sha256Hex(await readFile(objectPath(a.dir, sha)))).toBe(sha);

    const v = await verify(a);
    expect(v.report.findings.filter((f) => f.severity !== 'info'), JSON.stringify(v.report.findings)).toEqual([]);
    expect(v.code).toBe(0);
    // And nothing is left to set aside.
    const again = await custodyIn(['tail', '--set-aside', '--reason', 'again', '--archive', a.dir], a.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('[LEDGER_NO_UNAUTHENTICATED_TAIL]');
  });
});

describe('interrupted runs are adopted through their batch intent, and only through it', () => {
  // A real SIGKILL at each point of the write path, then `checkpoint --sign` (a writer).
  for (const point of ['intent-written', 'ledger-appended', 'checkpoint-signing', 'checkpoint-written'] as const) {
    it(`killed at ${point}: verify fails until a writer adopts the run; then verify is clean and every item is there`, async () => {
      const a = await makeArchive(`crash-${point}`);
      const src = join(a.base, 'late');
      await writeExtraFiles(src, 4);
      const r = await custody(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], { ...a.env, CUSTODY_TEST_CRASH_AT: `${point}:1` });
      expect(r.signal, r.stderr).toBe('SIGKILL');
      const lines = await readLedgerLines(a.dir);
      const signed = (await checkpointSizes(a.dir)).at(-1) ?? 0;
      if (signed < lines.length) expect((await verify(a)).codes).toContain('LEDGER_TAIL_UNAUTHENTICATED');

      const sign = await custodyIn(['checkpoint', '--sign', '--archive', a.dir], a.env);
      expect(sign.code, sign.stderr).toBe(0);
      if (point === 'intent-written') expect(sign.stderr).toContain('never reached the ledger');
      const v = await verify(a);
      expect(v.report.findings.filter((f) => f.severity !== 'info'), JSON.stringify(v.report.findings)).toEqual([]);
      // The run resumed: every file is received.
      await custodyInExpect(0, ['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], a.env);
      expect((await verify(a)).code).toBe(0);
    });
  }

  it('after a crash, a removed or forged batch intent leaves the tail unauthenticated', async () => {
    const a = await makeArchive('crash-no-intent');
    const src = join(a.base, 'late');
    await writeExtraFiles(src, 4);
    const r = await custody(['ingest', src, '--source', 'S', '--new-source', '--archive', a.dir], { ...a.env, CUSTODY_TEST_CRASH_AT: 'ledger-appended:1' });
    expect(r.signal).toBe('SIGKILL');
    const slots = (await readdir(join(a.dir, 'ledger'))).filter((n) => n.startsWith('batch-intent.'));
    expect(slots.length).toBeGreaterThan(0);
    // The insider cannot make a MAC: flip one hex digit of each intent's root.
    for (const s of slots) {
      const p = join(a.dir, 'ledger', s);
      const text = await readFile(p, 'utf8');
      await writeFile(p, text.replace(/"new_root":"(.)/, (_m, c: string) => `"new_root":"${c === '0' ? '1' : '0'}`));
    }
    const sign = await custodyIn(['checkpoint', '--sign', '--archive', a.dir], a.env);
    expect(sign.code).toBe(1);
    expect(sign.stderr).toContain('[LEDGER_TAIL_UNAUTHENTICATED]');
    for (const s of slots) await rm(join(a.dir, 'ledger', s));
    const again = await custodyIn(['checkpoint', '--sign', '--archive', a.dir], a.env);
    expect(again.stderr).toContain('[LEDGER_TAIL_UNAUTHENTICATED]');
  });
});

describe('checkpoints published outside the archive', () => {
  it('catch a three-batch rollback that the archive alone cannot see', async () => {
    const base = await makeTempDir('rollback');
    const published = join(base, 'second-disk');
    const a = await makeArchive('rollback-archive', { CUSTODY_PUBLISH_CHECKPOINTS: published }, 4);
    const sizes = await checkpointSizes(a.dir);
    expect((await readdir(published)).length).toBe(sizes.length); // every signing was published
    // The insider rolls back the last three batches: cuts the ledger, deletes their checkpoints,
    // and rebuilds the index so that nothing inside the archive disagrees.
    const keep = sizes.at(-4) ?? 0;
    const lines = await readLedgerLines(a.dir);
    await writeLedgerLines(a.dir, lines.slice(0, keep));
    for (const s of sizes.filter((x) => x > keep)) await unlink(checkpointPath(a.dir, s));
    const referenced = new Set(lines.slice(0, keep).flatMap((l) => parse(l).objects));
    for (const prefix of await readdir(join(a.dir, 'objects', 'sha256'))) {
      for (const name of await readdir(join(a.dir, 'objects', 'sha256', prefix))) {
        if (!referenced.has(name)) await rm(join(a.dir, 'objects', 'sha256', prefix, name));
      }
    }
    await rm(join(a.dir, 'index.sqlite'), { force: true });
    await rm(join(a.dir, 'index.sqlite-wal'), { force: true });
    await rm(join(a.dir, 'index.sqlite-shm'), { force: true });
    const withoutPublication = { ...a, env: {} };
    await custodyInExpect(0, ['rebuild', '--archive', a.dir], withoutPublication.env);
    // Without the published copies, the archive is self-consistent: this is the limit.
    const alone = await verify(withoutPublication);
    expect(alone.report.findings.filter((f) => f.severity !== 'info'), JSON.stringify(alone.report.findings)).toEqual([]);
    // With them, verify fails, naming the truncation...
    const v = await verify(withoutPublication, ['--trusted-checkpoint', published]);
    expect(v.code).toBe(1);
    expect(v.codes).toContain('TRUSTED_CHECKPOINT_TRUNCATED');
    // ...and a writer configured to publish refuses to build on the rolled-back ledger.
    const w = await custodyIn(['checkpoint', '--sign', '--archive', a.dir], a.env);
    expect(w.code).toBe(1);
    expect(w.stderr).toContain('[LEDGER_ROLLED_BACK]');
  });

  it('a deleted newest checkpoint is restored from its published copy, and the tail it covers is adopted', async () => {
    const base = await makeTempDir('restore');
    const published = join(base, 'share');
    const a = await makeArchive('restore-archive', { CUSTODY_PUBLISH_CHECKPOINTS: published }, 2);
    const newest = await deleteNewestCheckpoint(a.dir);
    const r = await custodyIn(['checkpoint', '--sign', '--archive', a.dir], a.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('restored from its published copy');
    expect(await checkpointSizes(a.dir)).toContain(newest);
    expect((await verify(a, ['--trusted-checkpoint', published])).code).toBe(0);
  });

  it('checkpoint --publish copies every verified checkpoint once, never one planted in checkpoints/, never into the archive', async () => {
    const a = await makeArchive('publish', {}, 2);
    const out = join(a.base, 'usb');
    const first = await custodyInExpect(0, ['checkpoint', '--publish', out, '--archive', a.dir, '--json'], a.env);
    const sizes = await checkpointSizes(a.dir);
    expect((JSON.parse(first.stdout) as { published: number[] }).published).toEqual(sizes);
    const second = await custodyInExpect(0, ['checkpoint', '--publish', out, '--archive', a.dir, '--json'], a.env);
    expect(JSON.parse(second.stdout)).toMatchObject({ published: [], present: sizes });
    // A planted checkpoint (garbage signature) is refused, with exit 1.
    await writeFile(checkpointPath(a.dir, 2), (await readFile(checkpointPath(a.dir, sizes[0] ?? 1), 'utf8')).replace(/\n\d+\n/, '\n2\n'));
    const third = await custodyIn(['checkpoint', '--publish', out, '--archive', a.dir, '--json'], a.env);
    expect(third.code).toBe(1);
    expect(await readdir(out)).not.toContain(`${'2'.padStart(16, '0')}.checkpoint`);
    const inside = await custodyIn(['checkpoint', '--publish', join(a.dir, 'ledger', 'copies'), '--archive', a.dir], a.env);
    expect(inside.code).toBe(2);
  });
});
