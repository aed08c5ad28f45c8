// Lawful removal through the CLI: `withdraw` records it, `purge --withdrawn` removes the bytes;
// both leave ledger entries, and `verify` accepts exactly the absences they explain.
import { existsSync } from 'node:fs';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildArchive,
  cloneArchive,
  custodyIn,
  custodyInExpect,
  expectClean,
  expectFinding,
  itemAt,
  listItems,
  objectPath,
  readLog,
  verifyJson,
  type ItemJson,
  type LogLine,
  type SourceTree,
  type TestArchive,
} from '../support/archive-fixtures.js';

interface WithdrawJson {
  seq: number;
  sha256: string;
  items: string[];
  containers: { seq: number; sha256: string; items: string[] }[];
}

describe('withdraw and purge', () => {
  let archive: TestArchive;
  let tree: SourceTree;
  let items: ItemJson[];
  let shared: string; // the object behind photos/a.bin and docs/copy-of-a.bin
  let single: string; // the object behind docs/note.txt
  const withdrawals: WithdrawJson[] = [];

  const on = (a: TestArchive): string[] => ['--archive', a.dir];
  const lastEntry = (log: LogLine[]): LogLine['entry'] | undefined => log.at(-1)?.entry;

  beforeAll(async () => {
    ({ archive, tree } = await buildArchive('withdrawal'));
    items = await listItems(archive);
    shared = itemAt(items, 'photos/a.bin').sha256;
    single = itemAt(items, 'docs/note.txt').sha256;
    expect(itemAt(items, 'docs/copy-of-a.bin').sha256).toBe(shared);
  });

  it('refuses a withdrawal without --reason or --authority, and a purge without --withdrawn (exit 2)', async () => {
    const id = itemAt(items, 'photos/a.bin').id;
    await custodyInExpect(2, ['withdraw', id, '--authority', 'ICC-01/04-123', ...on(archive)]);
    await custodyInExpect(2, ['withdraw', id, '--reason', 'court order', ...on(archive)]);
    await custodyInExpect(2, [
      'withdraw',
      '--reason',
      'court order',
      '--authority',
      'x',
      ...on(archive),
    ]);
    await custodyInExpect(2, ['purge', ...on(archive)]);
    const unknown = await custodyInExpect(1, [
      'withdraw',
      '01ZZZZZZZZZZZZZZZZZZZZZZZZ',
      '--reason',
      'r',
      '--authority',
      'a',
      ...on(archive),
    ]);
    expect(unknown.stderr).toContain('[NOT_FOUND]');
    expect(await readLog(archive)).toHaveLength(items.length + 4); // creation, source registered, start, items, end: nothing appended
  });

  it('withdraws by item id, naming the object and every item that shares its bytes', async () => {
    const copy = itemAt(items, 'docs/copy-of-a.bin');
    const r = await custodyInExpect(0, [
      'withdraw',
      copy.id,
      '--reason',
      'consent withdrawn',
      '--authority',
      'ICC-01/04-123',
      '--json',
      ...on(archive),
    ]);
    const w = JSON.parse(r.stdout) as WithdrawJson;
    withdrawals.push(w);
    const sharers = items
      .filter((i) => i.sha256 === shared)
      .map((i) => i.id)
      .sort();
    expect(sharers).toHaveLength(2);
    expect({ ...w, items: [...w.items].sort() }).toEqual({
      seq: w.seq,
      sha256: shared,
      items: sharers,
      containers: [], // a plain file: no container holds it
    });

    const log = await readLog(archive);
    const entry = lastEntry(log);
    expect(entry).toMatchObject({
      seq: w.seq,
      type: 'withdrawal',
      objects: [shared],
      details: { reason: 'consent withdrawn', authority: 'ICC-01/04-123' },
    });
    expect([...(entry?.items ?? [])].sort()).toEqual(sharers);

    const show = JSON.parse(
      (await custodyInExpect(0, ['show', shared, '--json', ...on(archive)])).stdout,
    ) as { withdrawn: boolean; withdrawn_seq: number };
    expect(show).toMatchObject({ withdrawn: true, withdrawn_seq: w.seq });
  });

  it('withdraws by SHA-256', async () => {
    const r = await custodyInExpect(0, [
      'withdraw',
      single,
      '--reason',
      'court order',
      '--authority',
      'TC-II/2024/7',
      '--json',
      ...on(archive),
    ]);
    const w = JSON.parse(r.stdout) as WithdrawJson;
    withdrawals.push(w);
    expect(w).toEqual({
      seq: w.seq,
      sha256: single,
      items: [itemAt(items, 'docs/note.txt').id],
      containers: [],
    });
    expect(lastEntry(await readLog(archive))).toMatchObject({
      seq: w.seq,
      type: 'withdrawal',
      objects: [single],
      items: w.items,
    });
  });

  it('refuses to withdraw the same object twice, by id or by digest (exit 1)', async () => {
    const before = (await readLog(archive)).length;
    const byId = await custodyInExpect(1, [
      'withdraw',
      itemAt(items, 'photos/a.bin').id,
      '--reason',
      'again',
      '--authority',
      'x',
      ...on(archive),
    ]);
    expect(byId.stderr).toContain('[ALREADY_WITHDRAWN]');
    const byDigest = await custodyInExpect(1, [
      'withdraw',
      single.toUpperCase(),
      '--reason',
      'again',
      '--authority',
      'x',
      ...on(archive),
    ]);
    expect(byDigest.stderr).toContain('[ALREADY_WITHDRAWN]');
    expect(await readLog(archive)).toHaveLength(before);
  });

  it('verifies clean while the withdrawn bytes are still in the store', async () => {
    const v = await expectClean(archive);
    expect(v.report.objects.withdrawn).toBe(2);
    expect(v.codes).toEqual([]);
  });

  it('purge --withdrawn removes the bytes and appends one deletion entry per object', async () => {
    const before = (await readLog(archive)).length;
    const r = await custodyInExpect(0, ['purge', '--withdrawn', '--json', ...on(archive)]);
    const { purged } = JSON.parse(r.stdout) as {
      purged: { sha256: string; seq: number; withdrawal_seq: number }[];
    };
    expect(purged.map((p) => p.sha256).sort()).toEqual([shared, single].sort());
    expect(existsSync(objectPath(archive.dir, shared))).toBe(false);
    expect(existsSync(objectPath(archive.dir, single))).toBe(false);

    const log = await readLog(archive);
    const deletions = log.slice(before).map((l) => l.entry);
    expect(deletions).toHaveLength(2);
    for (const d of deletions) {
      const w = withdrawals.find((x) => x.sha256 === d.objects[0]);
      expect(d).toMatchObject({
        type: 'deletion',
        objects: [w?.sha256],
        details: { withdrawal_seq: w?.seq, bytes_were_present: true },
      });
    }
  });

  it('verify then exits 0 and reports each absence as STORE_OBJECT_WITHDRAWN (info)', async () => {
    const v = await expectClean(archive);
    const withdrawn = v.report.findings.filter((f) => f.code === 'STORE_OBJECT_WITHDRAWN');
    expect(withdrawn.map((f) => [f.subject, f.severity]).sort()).toEqual(
      [
        [shared, 'info'],
        [single, 'info'],
      ].sort(),
    );
    expect(v.codes).toEqual(['STORE_OBJECT_WITHDRAWN']);
  });

  it('a second purge finds nothing to do and appends nothing', async () => {
    const before = (await readLog(archive)).length;
    const r = await custodyInExpect(0, ['purge', '--withdrawn', '--json', ...on(archive)]);
    expect(JSON.parse(r.stdout)).toMatchObject({ purged: [], refused: [] });
    expect(await readLog(archive)).toHaveLength(before);
  });

  it('an object deleted by hand is still STORE_OBJECT_MISSING', async () => {
    const a = await cloneArchive(archive, 'withdrawal-missing');
    const other = itemAt(items, 'photos/nested/b.bin').sha256;
    await unlink(objectPath(a.dir, other));
    const v = await expectFinding(a, 'STORE_OBJECT_MISSING');
    const missing = v.report.findings
      .filter((f) => f.code === 'STORE_OBJECT_MISSING')
      .map((f) => f.subject);
    expect(missing).toEqual([other]);
    expect(v.report.findings.filter((f) => f.code === 'STORE_OBJECT_WITHDRAWN')).toHaveLength(2);
  });

  it('show still describes a purged object', async () => {
    const r = await custodyIn(['show', single, '--json', ...on(archive)]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      sha256: single,
      withdrawn: true,
      purged_seq: expect.any(Number) as number,
    });
  });

  // Bytes withdrawn and purged that are received again are flagged at intake
  // (INGEST_WITHDRAWN_CONTENT) and `purge --withdrawn` removes them again.
  it('purged bytes received again do not stay in the store after purge --withdrawn', async () => {
    const a = await cloneArchive(archive, 'withdrawal-reingest');
    const again = join(a.dir, '..', 'again');
    await mkdir(again);
    await writeFile(join(again, 'note-again.txt'), tree.files.get('docs/note.txt') ?? '');
    await custodyIn(['ingest', again, '--source', 'SRC-DELTA', '--new-source', ...on(a)]);
    await custodyIn(['purge', '--withdrawn', ...on(a)]);
    const v = await verifyJson(a);
    expect(v.codes).not.toContain('STORE_PURGED_OBJECT_PRESENT');
    expect(existsSync(objectPath(a.dir, single))).toBe(false);
  });
});
