// One contract suite, every database: the index repository and a whole archive round trip
// (init → ingest → rebuild → verify), written once and run on SQLite and on PostgreSQL.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { initArchive, openArchive, type Archive } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { canonicalize } from '../../src/core/canonical-json.js';
import type { Kysely } from 'kysely';
import { archiveLayout } from '../../src/archive/index.js';
import { openDatabase, type DatabaseTarget } from '../../src/db/connection.adapter.js';
import { kysely } from '../../src/db/kysely.adapter.js';
import { MIGRATIONS } from '../../src/db/migrations.js';
import { INDEX_TABLES, type Database, type IndexTable } from '../../src/db/schema.js';
import { IngestService } from '../../src/ingest/ingest.service.js';
import { verifyArchive } from '../../src/integrity/archive-verify.service.js';
import { rebuildIndex } from '../../src/integrity/index-rebuild.service.js';
import { withdraw } from '../../src/archive/withdrawal.service.js';
import { hashFiles } from '../../src/store/hash-files.adapter.js';
import { acquirePgAdvisoryLock } from '../../src/ledger/pg-advisory-lock.adapter.js';
import sharp from 'sharp';
import { runAnalysisJobs } from '../../src/jobs/analysis-worker.service.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';
import { uncheckedDraft } from '../support/unchecked-draft.js';

async function dumpAll(archive: Archive): Promise<string> {
  const out: string[] = [];
  for (const table of Object.keys(INDEX_TABLES) as IndexTable[]) {
    for (const row of await archive.index.dumpTable(table))
      out.push(`${table} ${canonicalize(normalise(row))}`);
  }
  return out.join('\n');
}

function normalise(row: Record<string, unknown>): Record<string, string | number | null> {
  const o: Record<string, string | number | null> = {};
  for (const [k, v] of Object.entries(row))
    o[k] =
      v === null ? null : typeof v === 'number' || typeof v === 'string' ? v : JSON.stringify(v);
  return o;
}

async function makeSource(dir: string): Promise<void> {
  await mkdir(join(dir, 'a', 'b'), { recursive: true });
  for (let i = 0; i < 12; i++) await writeFile(join(dir, 'a', `f${i}.bin`), randomBytes(1000 + i));
  await writeFile(
    join(dir, 'a', 'b', 'copy.bin'),
    await import('node:fs/promises').then((fs) => fs.readFile(join(dir, 'a', 'f0.bin'))),
  );
  await writeFile(join(dir, 'empty.txt'), '');
}

describeDatabases('archive index', (db) => {
  let config: Config;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let source: string;

  beforeEach(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    const dir = await makeTempDir('custody-contract');
    source = join(dir, 'source');
    await makeSource(source);
    config = loadConfig(
      { CUSTODY_ACTOR: 'contract-test', ...(made.url === null ? {} : { DATABASE_URL: made.url }) },
      { archive: join(dir, 'archive') },
    );
    await initArchive(config);
  });
  afterEach(() => cleanup());

  const ingest = async (deliveryId: string | null = null, knownItemsLimit?: number) => {
    const archive = await openArchive(config, 'write', 'ingest');
    try {
      return await new IngestService(archive).run({
        ...(knownItemsLimit === undefined ? {} : { knownItemsLimit }),
        paths: [source],
        source: 'OLIVE',
        receivedBy: 'R. Analyst',
        medium: 'USB stick',
        note: null,
        manifestPath: null,
        deliveryId,
      });
    } finally {
      await archive.close();
    }
  };

  it('records items, shared objects and the idempotence key', async () => {
    const report = await ingest();
    expect(report.summary.items_added).toBe(14);
    expect(
      await (async () => {
        const a = await openArchive(config, 'read', 't');
        const c = await a.jobs.counts();
        await a.close();
        return c.pending;
      })(),
    ).toBe(0);
    expect(report.summary.objects_shared).toBe(1);
    expect(report.notes).toEqual([]);
    const again = await ingest(report.delivery);
    expect(again.summary.items_added).toBe(0);
    expect(again.summary.already_present).toBe(14);
    const anew = await ingest();
    expect(anew.mode).toBe('new');
    expect(anew.notes.join(' ')).toContain(`--delivery ${report.delivery}`);

    const archive = await openArchive(config, 'read', 'test');
    try {
      expect(await archive.index.countItems(report.delivery)).toBe(14);
      expect(await archive.index.countItems()).toBe(28);
      expect(await archive.index.countObjects()).toBe(13);
      const items = await archive.index.listItems({ deliveryId: report.delivery });
      const copy = items.find((i) => i.relative_path === 'a/b/copy.bin');
      expect(copy).toBeDefined();
      const sharing = await archive.index.itemsBySha256(copy?.sha256 ?? '');
      expect(
        sharing
          .filter((i) => i.delivery_id === report.delivery)
          .map((i) => i.relative_path)
          .sort(),
      ).toEqual(['a/b/copy.bin', 'a/f0.bin']);
      expect(sharing).toHaveLength(4); // and the same two in the second delivery
      const found = await archive.index.findItemsByOrigin(report.delivery, copy?.origin_key ?? '');
      expect(found).toEqual([{ id: copy?.id, sha256: copy?.sha256, media_type: copy?.media_type }]);
      // What a resumed run reads in one query: every item of the delivery, or null past the limit.
      const known = await archive.index.itemsOfDeliveryByOrigin(report.delivery, 14);
      expect(known?.map((i) => i.origin_key).sort()).toEqual(items.map((i) => i.origin_key).sort());
      expect(await archive.index.itemsOfDeliveryByOrigin(report.delivery, 13)).toBeNull();
      const delivery = await archive.index.getDelivery(report.delivery);
      expect(delivery?.source).toBe('OLIVE');
      expect(delivery?.closed_seq).toBeGreaterThan(0);
      expect(await archive.index.ledgerSize()).toBe(archive.ledger.size);
    } finally {
      await archive.close();
    }
  });

  it('a continued delivery recognises what it holds and takes in a file whose bytes changed, with its items read in one query or looked up per file', async () => {
    const first = await ingest();
    await writeFile(join(source, 'a', 'f1.bin'), randomBytes(999));
    // Read in one query (14 items, under the default limit).
    const one = await ingest(first.delivery);
    expect(one.summary).toMatchObject({ items_added: 1, already_present: 13, files_seen: 14 });
    await writeFile(join(source, 'a', 'f2.bin'), randomBytes(998));
    // Past the limit: each file looked up in the index, with the same outcome.
    const perFile = await ingest(first.delivery, 14);
    expect(perFile.summary).toMatchObject({ items_added: 1, already_present: 13, files_seen: 14 });
    const again = await ingest(first.delivery);
    expect(again.summary).toMatchObject({ items_added: 0, already_present: 14 });
    const archive = await openArchive(config, 'read', 'test');
    try {
      const items = await archive.index.listItems({ deliveryId: first.delivery });
      expect(items).toHaveLength(16);
      // Both versions of each changed file are items of the delivery, under the same path.
      expect(items.filter((i) => i.relative_path === 'a/f1.bin')).toHaveLength(2);
      expect(items.filter((i) => i.relative_path === 'a/f2.bin')).toHaveLength(2);
    } finally {
      await archive.close();
    }
  });

  it('rebuild reproduces every table exactly: rows, ids and values', async () => {
    await writeFile(
      join(source, 'a', 'photo.jpg'),
      await sharp({ create: { width: 96, height: 64, channels: 3, background: '#3a6' } })
        .jpeg()
        .withExif({ IFD0: { Make: 'TestCam', Model: 'T1' } })
        .toBuffer(),
    );
    await ingest();
    let archive = await openArchive(config, 'write', 'analyze');
    const analysed = await runAnalysisJobs(archive, archive.jobs);
    expect(analysed.done).toBe(1);
    expect((await archive.index.listAnalyses())[0]?.make).toBe('TestCam');
    await archive.close();
    archive = await openArchive(config, 'write', 'withdraw');
    const first = (await archive.index.listItems())[0];
    await withdraw(archive, { actor: archive.config.actor }, first?.id ?? '', 'consent withdrawn', 'ORDER-1');
    await archive.close();

    archive = await openArchive(config, 'write', 'rebuild', { skipIndexSync: true });
    try {
      const before = await dumpAll(archive);
      expect(before.split('\n').length).toBeGreaterThan(30);
      const r = await rebuildIndex(archive);
      expect(r.entries).toBe(archive.ledger.size);
      const after = await dumpAll(archive);
      expect(after).toBe(before);
    } finally {
      await archive.close();
    }
  });

  it('verifies clean, and names a row changed behind the ledger', async () => {
    await ingest();
    const archive = await openArchive(config, 'read', 'verify', { lock: true });
    try {
      const ok = await verifyArchive({ archive, hashFiles }, []);
      expect(ok.findings.filter((f) => f.severity === 'error')).toEqual([]);
      expect(ok.ok).toBe(true);
      const item = (await archive.index.listItems())[0];
      await archive.index.applyEntries(
        [{ op: 'update', table: 'items', key: item?.id ?? '', set: { size: 1 } }],
        archive.ledger.size,
      );
      const bad = await verifyArchive({ archive, hashFiles }, []);
      expect(bad.ok).toBe(false);
      expect(bad.findings.map((f) => f.code)).toContain('DB_ROW_CHANGED');
    } finally {
      await archive.close();
    }
  });

  it('applies entries beside their append only on PostgreSQL, committing nothing before the append is durable and nothing if it fails', async () => {
    const archive = await openArchive(config, 'write', 'contract-test');
    try {
      const size = await archive.index.ledgerSize();
      const decision = (seq: number, note: string) => ({
        op: 'insert' as const,
        table: 'decisions' as const,
        row: { seq, subject: 'objects', objects_json: '[]', decision: 'different', note, actor: 'contract-test', time: '2026-01-01T00:00:00.000Z' },
      });
      /** A commitAfter the test settles by hand, and that says when the transaction waits on it. */
      const gate = () => {
        let waiting!: () => void;
        const reached = new Promise<void>((r) => (waiting = r));
        let settle: (ok: boolean) => void = () => undefined;
        const commitAfter: PromiseLike<unknown> = {
          then(ok, fail) {
            waiting();
            settle = (good) => {
              if (good) void ok?.(undefined);
              else void fail?.(new Error('the append failed'));
            };
            return Promise.resolve() as never;
          },
        };
        return { commitAfter, reached, settle: (ok: boolean) => settle(ok) };
      };
      const notes = async () => (await archive.index.dumpTable('decisions')).map((d) => d.note);
      if (!archive.index.writesBesideAppend) {
        expect(db.kind).toBe('sqlite');
        await expect(archive.index.applyEntries([decision(size, 'early')], size + 1, { commitAfter: gate().commitAfter })).rejects.toThrow();
        expect(await notes()).toEqual([]);
        return;
      }
      expect(db.kind).toBe('postgres');
      const failing = gate();
      const failed = archive.index.applyEntries([decision(size, 'append failed')], size + 1, { commitAfter: failing.commitAfter });
      await failing.reached; // its rows are written, in a transaction not yet committed
      expect(await notes()).toEqual([]);
      expect(await archive.index.ledgerSize()).toBe(size);
      failing.settle(false);
      await expect(failed).rejects.toThrow('the append failed');
      expect(await notes()).toEqual([]);
      expect(await archive.index.ledgerSize()).toBe(size);
      const passing = gate();
      const applied = archive.index.applyEntries([decision(size, 'durable')], size + 1, { commitAfter: passing.commitAfter });
      await passing.reached;
      expect(await notes()).toEqual([]);
      passing.settle(true);
      await applied;
      expect(await notes()).toEqual(['durable']);
      expect(await archive.index.ledgerSize()).toBe(size + 1);
    } finally {
      await archive.close();
    }
  });

  it('opening an index whose migrations are all recorded changes nothing; one missing is run; one this version does not know is refused (DB_MIGRATION_FAILED)', async () => {
    const target = (): DatabaseTarget =>
      config.databaseUrl === null
        ? { kind: 'sqlite', file: archiveLayout(config.archiveDir).sqlite }
        : { kind: 'postgres', url: config.databaseUrl };
    const recorded = async (db: Kysely<Database>) =>
      (await kysely.sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);
    const known = Object.keys(MIGRATIONS).sort();
    let db = await openDatabase(target());
    try {
      expect(await recorded(db)).toEqual(known);
      // The last migration (0017) undone: the next open runs it again.
      expect(known.at(-1)).toBe('0017-examination-sealed-case-ids');
      await kysely.sql`drop table exam_case_links`.execute(db);
      await kysely.sql`alter table samples drop column case_id_key`.execute(db);
      await kysely.sql`alter table exam_assignments drop column sealed_case`.execute(db);
      await kysely.sql`delete from kysely_migration where name = '0017-examination-sealed-case-ids'`.execute(db);
    } finally {
      await db.destroy();
    }
    db = await openDatabase(target());
    try {
      expect(await recorded(db)).toEqual(known);
      // A migration of a later version: this one does not open the index as if it knew it.
      await kysely.sql`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', '2026-12-03T00:00:00.000Z')`.execute(db);
    } finally {
      await db.destroy();
    }
    await expect(openDatabase(target())).rejects.toMatchObject({ code: 'DB_MIGRATION_FAILED' });
  });

  it('keeps a second writer out (lock file; and the advisory lock on PostgreSQL)', async () => {
    const first = await openArchive(config, 'write', 'first');
    try {
      const quick = { ...config, lockTimeoutMs: 300 };
      await expect(openArchive(quick, 'write', 'second')).rejects.toMatchObject({
        code: 'LEDGER_LOCKED',
      });
      if (db.kind === 'postgres' && config.databaseUrl !== null) {
        await expect(
          acquirePgAdvisoryLock(config.databaseUrl, first.manifest.id, 300),
        ).rejects.toMatchObject({ code: 'LEDGER_LOCKED' });
      }
    } finally {
      await first.close();
    }
    const again = await openArchive(config, 'write', 'third');
    await again.close();
  });

  it('finds an interrupted delivery to resume, and withdrawn objects to purge', async () => {
    const archive = await openArchive(config, 'write', 'test');
    try {
      const roots = canonicalize([source]);
      await archive.commit([
        // An opening as written before the ZIP-expansion limits were recorded.
        uncheckedDraft({
          actor: 'x',
          type: 'ingestion start',
          details: {
            delivery: 'D1',
            continued: false,
            mode: 'new',
            source: 'OLIVE',
            received_by: null,
            medium: null,
            note: null,
            roots: [source],
            manifest: null,
          },
        }),
      ]);
      expect((await archive.index.findOpenDelivery('OLIVE', roots))?.id).toBe('D1');
      expect(await archive.index.findOpenDelivery('OTHER', roots)).toBeUndefined();
      expect(await archive.index.withdrawnUnpurged()).toEqual([]);
    } finally {
      await archive.close();
    }
  });
});
