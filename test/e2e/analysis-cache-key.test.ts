// The caches behind `show` (near-duplicate clusters, crop originals, the objects raising an
// indicator) are keyed by the analyses' ledger size (issue 14, "Scale"): the index's
// `analysis_inputs` mark, the last entry that wrote an analysis, object, item, delivery or
// withdrawal. An entry that changes none of those (a decision) leaves them current, so `show`
// reads them without reading the collection; an ingestion, an analysis or a withdrawal makes them
// stale, and the answer is computed again. The mark is projected from the ledger: `verify`
// compares it, `rebuild` and the migration that introduced it restore it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { ArchiveIndexRepository } from '../../src/db/archive-index.repository.js';
import {
  custodyInExpect,
  expectClean,
  readLog,
  sha256Hex,
  verifyJson,
  withIndexDb,
  type TestArchive,
} from '../support/archive-fixtures.js';
import { scene } from '../support/crop-scenes.js';
import { COLLECTION_READS, editedScene } from '../support/analysis-caches.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

interface ShowJson {
  cluster: { objects: string[] } | null;
  indicators: { code: string }[] | null;
}

const CACHES = ['near_duplicates_clusters', 'near_duplicates_crops', 'indicators_raised'];
const CACHE_ROWS = `SELECT key, value FROM meta WHERE key IN (${CACHES.map((k) => `'${k}'`).join(', ')}) ORDER BY key`;
const MARK = "SELECT seq FROM marks WHERE name = 'analysis_inputs'";
describeDatabases("the analysis caches: keyed by the analyses' ledger size", (db) => {
  let archive: TestArchive;
  let base = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  const sha = new Map<string, string>();
  const run = (code: number, ...args: string[]) =>
    custodyInExpect(code, [...args, '--archive', archive.dir], archive.env);
  const show = async (name: string): Promise<ShowJson> =>
    JSON.parse((await run(0, 'show', sha.get(name)!, '--json')).stdout) as ShowJson;
  const caches = (): Promise<{ key: string; value: string }[]> =>
    withIndexDb(archive, (sql) => sql.rows<{ key: string; value: string }>(CACHE_ROWS));
  const mark = async (): Promise<number | undefined> => {
    const [row] = await withIndexDb(archive, (sql) => sql.rows<{ seq: number | string }>(MARK));
    return row === undefined ? undefined : Number(row.seq);
  };
  const ledgerSize = async (): Promise<number> => (await readLog(archive)).length;
  const ingest = async (dir: string, files: [string, Buffer][], first = false): Promise<void> => {
    const src = join(base, dir);
    await mkdir(src, { recursive: true });
    for (const [name, b] of files) {
      sha.set(name, sha256Hex(b));
      await writeFile(join(src, name), b);
    }
    await run(
      0,
      'ingest',
      src,
      '--source',
      'LARK',
      ...(first ? ['--new-source'] : []),
      '--analyze',
    );
  };
  const spyCollectionReads = () =>
    COLLECTION_READS.map((m) => vi.spyOn(ArchiveIndexRepository.prototype, m));

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    base = await makeTempDir(`analysis-cache-key-${db.kind}`);
    const env: Record<string, string> = made.url === null ? {} : { DATABASE_URL: made.url };
    archive = { dir: join(base, 'archive'), origin: '', verifierKey: '', env };
    await custodyInExpect(0, ['init', '--archive', archive.dir], env);
    const a = await scene('scene-a');
    await ingest(
      'src',
      [
        ['original.jpg', a],
        [
          'brighter.jpg',
          await sharp(a).modulate({ brightness: 1.15 }).jpeg({ quality: 70 }).toBuffer(),
        ],
        ['edited.jpg', await editedScene('scene-e')], // EDITING_SOFTWARE
        ['other.jpg', await scene('scene-b')],
      ],
      true,
    );
  });

  afterEach(() => vi.restoreAllMocks());
  afterAll(() => cleanup());

  it("the mark is the last analysis-input entry's seq, and the index verifies with it", async () => {
    const log = await readLog(archive);
    const last = log
      .filter((l) =>
        ['ingestion start', 'ingestion', 'ingestion end', 'metadata extraction'].includes(
          l.entry.type,
        ),
      )
      .pop();
    expect(await mark()).toBe(last?.entry.seq);
    await expectClean(archive);
  });

  it('a decision leaves the caches current: show reads them, not the collection, and answers the same', async () => {
    const first = await show('original.jpg');
    expect(first.cluster?.objects).toEqual(
      [sha.get('original.jpg')!, sha.get('brighter.jpg')!].sort(),
    );
    expect((await show('edited.jpg')).indicators?.map((i) => i.code)).toContain('EDITING_SOFTWARE');
    const before = await caches();
    expect(before.map((r) => r.key)).toEqual([...CACHES].sort());
    const markBefore = await mark();
    const size = await ledgerSize();
    await run(
      0,
      'decide',
      sha.get('original.jpg')!,
      sha.get('other.jpg')!,
      '--different',
      '--note',
      'not the same',
    );
    expect(await ledgerSize()).toBe(size + 1);
    expect(await mark()).toBe(markBefore);
    const reads = spyCollectionReads();
    expect(await show('original.jpg')).toEqual({
      ...first,
      decisions: expect.any(Array) as unknown,
    });
    expect((await show('other.jpg')).indicators).toEqual([]);
    for (const r of reads) expect(r).not.toHaveBeenCalled();
    expect(await caches()).toEqual(before); // read, not written again
  });

  it('an ingestion with its analysis makes them stale: computed again, with the new object', async () => {
    const before = await caches();
    const markBefore = await mark();
    await ingest('more', [
      [
        'darker.jpg',
        await sharp(await scene('scene-a'))
          .modulate({ brightness: 0.9 })
          .jpeg({ quality: 80 })
          .toBuffer(),
      ],
    ]);
    expect(await mark()).toBeGreaterThan(markBefore!);
    const reads = spyCollectionReads();
    const cluster = (await show('original.jpg')).cluster;
    expect(reads.some((r) => r.mock.calls.length > 0)).toBe(true);
    expect(cluster?.objects).toEqual(
      [sha.get('original.jpg')!, sha.get('brighter.jpg')!, sha.get('darker.jpg')!].sort(),
    );
    const after = await caches();
    const clusters = (rows: { key: string; value: string }[]) =>
      rows.find((r) => r.key === 'near_duplicates_clusters')?.value ?? '';
    expect(clusters(after)).not.toBe(clusters(before));
    expect(clusters(after)).toContain(sha.get('darker.jpg')!);
  });

  it('a withdrawal makes them stale: the withdrawn object leaves the cluster', async () => {
    await show('original.jpg');
    const markBefore = await mark();
    await run(
      0,
      'withdraw',
      sha.get('darker.jpg')!,
      '--reason',
      'consent withdrawn',
      '--authority',
      'REF-1',
    );
    expect(await mark()).toBeGreaterThan(markBefore!);
    expect((await show('original.jpg')).cluster?.objects).toEqual(
      [sha.get('original.jpg')!, sha.get('brighter.jpg')!].sort(),
    );
    expect((await show('edited.jpg')).indicators?.map((i) => i.code)).toContain('EDITING_SOFTWARE');
  });

  it('an edited mark keeping a stale cache current is reported by verify, and rebuild restores it', async () => {
    const real = await mark();
    await withIndexDb(archive, (sql) =>
      sql.exec("UPDATE marks SET seq = 1 WHERE name = 'analysis_inputs'"),
    );
    const v = await verifyJson(archive);
    expect(v.report.findings.map((f) => [f.code, f.subject])).toContainEqual([
      'DB_ROW_CHANGED',
      'marks/analysis_inputs',
    ]);
    await withIndexDb(archive, (sql) =>
      sql.exec("DELETE FROM marks WHERE name = 'analysis_inputs'"),
    );
    expect(
      (await verifyJson(archive)).report.findings.map((f) => [f.code, f.subject]),
    ).toContainEqual(['DB_ROW_MISSING', 'marks/analysis_inputs']);
    await run(0, 'rebuild');
    expect(await mark()).toBe(real);
    await expectClean(archive);
    // The caches went with the index rebuild replaced, and are made again under the same key.
    expect(await caches()).toEqual([]);
    expect((await show('original.jpg')).cluster?.objects).toEqual(
      [sha.get('original.jpg')!, sha.get('brighter.jpg')!].sort(),
    );
  });

  it('an index made before the mark gets it from its rows when it is opened (migration 0015)', async () => {
    const real = await mark();
    await withIndexDb(archive, async (sql) => {
      // The index as 0014 left it: 0015 and the migrations after it undone (migrations run in order).
      await sql.exec('DROP TABLE marks');
      await sql.exec('ALTER TABLE missing_report_reads DROP COLUMN sealed_json');
      await sql.exec('ALTER TABLE missing_report_reads DROP COLUMN digest');
      await sql.exec('ALTER TABLE missing_reports DROP COLUMN erased_category');
      await sql.exec('ALTER TABLE samples DROP COLUMN case_id_key');
      await sql.exec('ALTER TABLE exam_assignments DROP COLUMN sealed_case');
      await sql.exec('DROP TABLE exam_case_links');
      await sql.exec(
        "DELETE FROM kysely_migration WHERE name IN ('0015-analysis-inputs-mark', '0016-missing-read-erase-sealed', '0017-examination-sealed-case-ids')",
      );
    });
    await run(0, 'decide', sha.get('edited.jpg')!, sha.get('other.jpg')!, '--different');
    expect(await mark()).toBe(real);
    await expectClean(archive);
  });
});
