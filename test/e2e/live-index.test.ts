// Attack 8 of issue 9: "live-index figures carry the signed label". An insider edits rows of the
// index database (no key needed). Whatever is labelled signed or checkpoint (`stats`, `unit
// counts`) must still give the TRUE figures, replayed from the ledger; browsing commands (`items`,
// `show`, `deliveries`) say they read the live index; `verify` names each edited row; `rebuild`
// reports what it drops; an emptied index is INDEX_MISSING, never an empty answer with exit 0.
// On SQLite and PostgreSQL. In-process CLI (runCli) for speed.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { INDEX_TABLES } from '../../src/db/schema.js';
import { examinerForm, SCHEME, UNITS, worldSubjects, type WorldSubject } from '../../src/demo/examination-world.js';
import { custodyIn, custodyInExpect, withIndexDb, type Finding, type TestArchive } from '../support/archive-fixtures.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

interface StatsJson {
  checkpoint: { tree_size: number; root: string; signed: boolean };
  sample: { id: string; size: number; frame_size: number };
  cases: { sampled: number; final: number };
}
interface CountsJson {
  checkpoint: { tree_size: number; signed: boolean };
  subjects: number;
  by_unit: { unit: string; count: number }[];
}
interface ItemRow {
  id: string;
  size: number;
  sha256: string;
  delivery: string;
}
interface VerifyReport {
  ok: boolean;
  findings: Finding[];
}

describeDatabases('attack 8: an edited index never passes for signed figures', (db) => {
  let archive: TestArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let trueStats: StatsJson;
  let trueStatsText: string;
  let trueCounts: CountsJson;
  let items: ItemRow[];
  let members: string[];
  const env = (actor = 'test-operator'): Record<string, string> => ({ ...archive.env, CUSTODY_ARCHIVE: archive.dir, CUSTODY_ACTOR: actor });
  const ok = (args: string[], actor?: string) => custodyInExpect(0, args, env(actor));
  const json = async <T>(args: string[], actor?: string): Promise<T> => JSON.parse((await ok([...args, '--json'], actor)).stdout) as T;
  const verify = async (): Promise<{ code: number | null; report: VerifyReport; subjects: (code: string) => (string | null)[] }> => {
    const r = await custodyIn(['verify', '--json'], env());
    const report = JSON.parse(r.stdout) as VerifyReport;
    return { code: r.code, report, subjects: (code) => report.findings.filter((f) => f.code === code).map((f) => f.subject) };
  };

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    const dir = await makeTempDir(`live-index-${db.kind}`);
    archive = { dir: join(dir, 'archive'), origin: '', verifierKey: '', env: made.url === null ? {} : { DATABASE_URL: made.url } };
    const subjects = worldSubjects(8);
    const photos = join(dir, 'photos');
    await mkdir(photos);
    for (const s of subjects) await writeFile(join(photos, `img-${s.index}.bin`), `synthetic photograph ${s.index} ${db.kind}`);
    await ok(['init']);
    await ok(['ingest', photos, '--source', 'KITE', '--new-source']);
    items = await json<ItemRow[]>(['items']);
    const byName = [...items].sort((a, b) => a.id.localeCompare(b.id));
    await writeFile(join(dir, 'units.csv'), `code,name_en,name_ar\n${UNITS.map((u) => `${u.code},${u.name_en},${u.name_ar}`).join('\n')}\n`);
    await ok(['unit', 'import', join(dir, 'units.csv')]);
    await writeFile(join(dir, 'scheme.json'), JSON.stringify(SCHEME));
    await ok(['scheme', 'add', join(dir, 'scheme.json')]);
    const csv = ['number,sex,age_band,date_of_death,items', ...subjects.map((s, i) => `${s.number},${s.sex},${s.ageBand},${s.dateOfDeath},${byName[i]?.id ?? ''}`)];
    await writeFile(join(dir, 'subjects.csv'), `${csv.join('\n')}\n`);
    const imported = await json<{ ids: string[] }>(['subject', 'import', join(dir, 'subjects.csv'), '--reason', 'cards transcribed']);
    const bySubject = new Map(imported.ids.map((id, i) => [id, subjects[i] as WorldSubject]));
    members = (await json<{ members: string[] }>(['sample', 'draw', '--name', 'main', '--over', 'subjects', '--method', 'simple', '--size', '4'], 'statistician')).members;
    await ok(['examine', 'assign', 'main', '--examiners', 'examiner-a,examiner-b'], 'coordinator');
    for (const who of ['a', 'b']) {
      const forms = members.map((c) => JSON.stringify({ case: c, form: examinerForm(bySubject.get(c) as WorldSubject, 'A', 0) }));
      await writeFile(join(dir, `${who}.jsonl`), `${forms.join('\n')}\n`);
      await ok(['examine', 'submit', 'main', '--forms', join(dir, `${who}.jsonl`)], `examiner-${who}`);
    }
    trueStats = await json<StatsJson>(['stats', 'main']);
    trueStatsText = (await ok(['stats', 'main'])).stdout;
    trueCounts = await json<CountsJson>(['unit', 'counts']);
    expect(trueStats.cases).toMatchObject({ sampled: 4, final: 4 });
    expect(trueStats.checkpoint.signed).toBe(true);
    expect(trueCounts.subjects).toBe(8);
  }, 240_000);

  afterAll(() => cleanup());

  it('stats and unit counts give the true figures under the signed label after index rows are edited', async () => {
    const dropped = members[0] ?? '';
    const subject = members[1] ?? '';
    await withIndexDb(archive, async (sql) => {
      await sql.exec('UPDATE samples SET frame_size = 999, size = 3');
      await sql.exec('DELETE FROM sample_members WHERE member_id = ?', [dropped]);
      await sql.exec("UPDATE subjects SET status = 'withdrawn' WHERE id = ?", [subject]);
    });
    // The edits are in the index: verify names each row.
    const v = await verify();
    expect(v.code).toBe(1);
    expect(v.subjects('DB_ROW_CHANGED')).toEqual(expect.arrayContaining([`samples/${trueStats.sample.id}`, `subjects/${subject}`]));
    expect(v.subjects('DB_ROW_MISSING').some((s) => s?.startsWith('sample_members/'))).toBe(true);
    // … and none of them reaches a figure labelled signed.
    const stats = await json<StatsJson>(['stats', 'main']);
    expect(stats).toEqual(trueStats);
    expect(stats.sample).toMatchObject({ frame_size: 8, size: 4 });
    expect(stats.cases.sampled).toBe(4);
    const text = (await ok(['stats', 'main'])).stdout;
    expect(text).toBe(trueStatsText);
    expect(text).toMatch(/checkpoint: tree size \d+, root [0-9a-f]{64} \(signed\)/);
    expect(text).toContain('4 of 8 subjects');
    expect(await json<CountsJson>(['unit', 'counts'])).toEqual(trueCounts);
    // --at still answers at any tree size, from the same replay.
    const at = await json<StatsJson>(['stats', 'main', '--at', String(trueStats.checkpoint.tree_size)]);
    expect(at).toEqual(trueStats);
  });

  it('items, show and deliveries say they read the live index; verify names the edited items, objects and deliveries rows', async () => {
    const target = items[0] as ItemRow;
    await withIndexDb(archive, async (sql) => {
      await sql.exec('UPDATE items SET size = 4242 WHERE id = ?', [target.id]);
      await sql.exec("UPDATE objects SET media_type = 'image/planted' WHERE sha256 = ?", [target.sha256]);
      await sql.exec("UPDATE deliveries SET source = 'PLANTED' WHERE id = ?", [target.delivery]);
    });
    for (const args of [['items'], ['show', target.id], ['deliveries']]) {
      const r = await ok(args);
      expect(r.stdout.split('\n')[0], args.join(' ')).toContain('from the live index');
      // --json is unchanged: the rows alone, no banner.
      const j = await ok([...args, '--json']);
      expect(j.stdout).not.toContain('from the live index');
      expect(() => JSON.parse(j.stdout) as unknown, args.join(' ')).not.toThrow();
    }
    // --at replays the ledger instead, and says so; it serves the true row.
    const atItems = await ok(['items', '--at', String(trueStats.checkpoint.tree_size)]);
    expect(atItems.stdout.split('\n')[0]).toContain('from the ledger, replayed');
    const atJson = await json<ItemRow[]>(['items', '--at', String(trueStats.checkpoint.tree_size)]);
    expect(atJson.find((i) => i.id === target.id)?.size).toBe(target.size);
    const v = await verify();
    expect(v.code).toBe(1);
    expect(v.subjects('DB_ROW_CHANGED')).toEqual(expect.arrayContaining([`items/${target.id}`, `objects/${target.sha256}`, `deliveries/${target.delivery}`]));
  });

  it('rebuild reports every row it drops or replaces, with its code, then verify is clean again', async () => {
    const target = items[1] as ItemRow;
    const forged = '01FAKEFAKEFAKEFAKEFAKEFAKE';
    await withIndexDb(archive, (sql) =>
      sql.exec(
        'INSERT INTO items (id, seq, origin_key, delivery_id, parent_id, member_index, path, path_raw_hex, path_encoding, relative_path, name, size, mtime, media_type, sha256, flags_json, received_at, actor) ' +
          'SELECT ?, 999999, ?, delivery_id, parent_id, member_index, path, path_raw_hex, path_encoding, relative_path, name, size, mtime, media_type, sha256, flags_json, received_at, actor FROM items WHERE id = ?',
        [forged, 'forged', target.id],
      ),
    );
    const r = await json<{ findings: Finding[]; entries: number }>(['rebuild']);
    const subjects = (code: string) => r.findings.filter((f) => f.code === code).map((f) => f.subject);
    expect(subjects('DB_ROW_EXTRA')).toContain(`items/${forged}`);
    expect(subjects('DB_ROW_CHANGED')).toEqual(expect.arrayContaining([`items/${(items[0] as ItemRow).id}`, `samples/${trueStats.sample.id}`]));
    const v = await verify();
    expect(v.report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(v.code).toBe(0);
    expect(await json<StatsJson>(['stats', 'main'])).toEqual(trueStats);
  });

  it('an emptied index is INDEX_MISSING for items (exit 1), never an empty list with exit 0; rebuild restores it', async () => {
    await withIndexDb(archive, async (sql) => {
      for (const table of Object.keys(INDEX_TABLES)) await sql.exec(`DELETE FROM ${table}`);
      await sql.exec('DELETE FROM meta');
    });
    for (const args of [['items'], ['items', '--json'], ['deliveries']]) {
      const r = await custodyInExpect(1, args, env());
      expect(r.stderr).toContain('[INDEX_MISSING]');
      expect(r.stderr).toContain('custody rebuild');
      expect(r.stdout).toBe('');
    }
    // Signed figures do not need the index at all.
    expect(await json<StatsJson>(['stats', 'main'])).toEqual(trueStats);
    await ok(['rebuild']);
    expect((await json<ItemRow[]>(['items'])).map((i) => i.id).sort()).toEqual(items.map((i) => i.id).sort());
  });
});
