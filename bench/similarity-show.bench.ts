// `show --json` and the near-duplicate clusters at 100,000 items (issue 14, "Scale"). A real
// archive (init, 20 small generated JPEGs ingested through the CLI) whose index is then enlarged
// by inserting rows directly (as bench/server-load.bench.ts does): SHOW_ITEMS objects, each with
// one item and an analysis carrying a PDQ hash, its 7 dihedral variants and 10 region hashes, 60%
// of them in families of near-identical hashes; one of them names an image editor in its Software
// tag, so it raises EDITING_SOFTWARE. Those rows have no ledger entries (`verify` would report
// them); analyzer custody-image/2 carries no grey raster, so no ledger entry is read for one.
// Measured, each through the CLI (a process per call: start and archive open included) and
// in-process (runCli, as the tests and a long-lived caller run it), wall and CPU time:
// - `show --json` of an item in a family with no cached clusters (the search runs; a new archive only);
// - the same item and the indicator-raising item from the caches;
// - both again right after a non-analysis entry (`custody decide … --different`), which made every
//   cache stale while they were keyed by the whole ledger's size;
// - all three (and the new item) right after ingesting one more item (every analysis cache stale);
// - the item with the indicators judged from the whole collection (their cache dropped).
// Run: npm run build && node dist/bench/similarity-show.bench.js (SHOW_ITEMS=100000 by default;
// SHOW_REUSE=1 keeps the previous run's archive; SHOW_WORK=DIR works in DIR instead of
// bench/.work/similarity-show, SHOW_RUNS=N calls per cached measure).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { runCli } from '../src/cli/main.js';
import { timeWithCpu } from './measure.js';

const CUSTODY = resolve('bin/custody.js');
const WORK = resolve(process.env.SHOW_WORK ?? join('bench', '.work', 'similarity-show'));
const ARCHIVE = join(WORK, 'archive');
const ENV = { ...process.env, CUSTODY_ARCHIVE: ARCHIVE, CUSTODY_ACTOR: 'bench' };
const VARIANTS = ['rotate90', 'rotate180', 'rotate270', 'flipX', 'flipY', 'flipPlus1', 'flipMinus1'];
const REGIONS = 10;
/** The analysis row that names an image editor (EDITING_SOFTWARE). */
const EDITOR = 'Adobe Photoshop 25.0';

interface Measured {
  stdout: string;
  seconds: number;
  cpu: number;
}

async function cli(args: string[]): Promise<Measured> {
  const r = await timeWithCpu('node', [CUSTODY, ...args], ENV, join(tmpdir(), `similarity-show-${process.pid}.time`));
  if (r.code !== 0) throw new Error(`custody ${args.join(' ')} exited ${String(r.code)}: ${r.stderr.slice(0, 2000)}`);
  return { stdout: r.stdout, seconds: r.seconds, cpu: r.cpu };
}

/** runCli in this process: wall time and this process's CPU time over the call. */
async function inProcess(args: string[]): Promise<Measured> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t), isTty: false, env: ENV };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const code = await runCli(args, io);
  const seconds = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  if (code !== 0) throw new Error(`runCli ${args.join(' ')} returned ${code}: ${stderr.slice(0, 2000)}`);
  return { stdout, seconds, cpu: (used.user + used.system) / 1e6 };
}

const hex = (b: Buffer): string => b.toString('hex');

/** A copy of `h` with k random bits flipped. */
function near(h: Buffer, k: number): Buffer {
  const out = Buffer.from(h);
  for (let i = 0; i < k; i++) {
    const bit = Math.floor(Math.random() * 256);
    out[bit >> 3] = out[bit >> 3]! ^ (1 << (bit & 7));
  }
  return out;
}

/** Rows straight into the index: see the header comment. Returns an item id inside a family. */
function enlargeIndex(file: string, n: number, deliveryId: string): string {
  const db = new Database(file);
  let familyItem = '';
  db.transaction(() => {
    const obj = db.prepare('insert into objects (sha256, size, media_type, first_seq, withdrawn_seq, purged_seq) values (?, ?, ?, ?, null, null)');
    const item = db.prepare(
      `insert into items (id, seq, delivery_id, parent_id, member_index, path, path_raw_hex, path_encoding, relative_path, name, size, mtime, media_type, sha256, flags_json, origin_key, received_at, actor)
       values (?, ?, ?, null, null, ?, null, 'utf-8', ?, ?, ?, null, 'image/jpeg', ?, '[]', ?, ?, 'bench')`,
    );
    const cols = db.prepare('pragma table_info(analyses)').all() as { name: string; notnull: number }[];
    const analysis = db.prepare(`insert into analyses (${cols.map((c) => c.name).join(', ')}) values (${cols.map(() => '?').join(', ')})`);
    let i = 0;
    while (i < n) {
      const base = [randomBytes(32), ...VARIANTS.map(() => randomBytes(32))];
      const regions = Array.from({ length: REGIONS }, () => randomBytes(32));
      const size = Math.random() < 0.4 ? 1 : 2 + Math.floor(20 * Math.random() ** 3);
      for (let k = 0; k < size && i < n; k++, i++) {
        const flips = k === 0 ? 0 : Math.floor(Math.random() * 16);
        const sha = randomBytes(32).toString('hex');
        const id = `ITEM${String(i).padStart(22, '0')}`;
        const seq = 1_000_000 + i;
        obj.run(sha, 1000, 'image/jpeg', seq);
        item.run(id, seq, deliveryId, `IMG_${i}.jpg`, `IMG_${i}.jpg`, `IMG_${i}.jpg`, 1000, sha, `bench:${i}`, '2026-01-01T00:00:00.000Z');
        if (size > 3 && k === 1 && familyItem === '') familyItem = id;
        const [pdq, ...turned] = base.map((h) => near(h, flips));
        const row: Record<string, unknown> = {
          sha256: sha, seq, analyzer: 'custody-image/2', exif_present: 0, width: 4000, height: 3000, orientation: 1,
          pdq: hex(pdq!),
          pdq_dihedral_json: JSON.stringify(Object.fromEntries(VARIANTS.map((v, j) => [v, hex(turned[j]!)]))),
          crops_json: JSON.stringify(regions.map((r, j) => ({ region: `r${j}`, hash: hex(near(r, flips)) }))),
        };
        analysis.run(...cols.map((c) => row[c.name] ?? (c.name.endsWith('_json') ? '[]' : c.notnull ? 0 : null)));
      }
    }
  })();
  db.close();
  return familyItem;
}

async function makeArchive(n: number): Promise<void> {
  await rm(WORK, { recursive: true, force: true });
  const src = join(WORK, 'delivery');
  await mkdir(src, { recursive: true });
  for (let i = 0; i < 20; i++)
    await writeFile(join(src, `IMG_${i}.jpg`), await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: i * 9, g: 100, b: 200 - i } } }).jpeg().toBuffer());
  await cli(['init']);
  const ingest = JSON.parse((await cli(['ingest', src, '--source', 'BENCH', '--new-source', '--json'])).stdout) as { delivery: string };
  const item = enlargeIndex(join(ARCHIVE, 'index.sqlite'), n, ingest.delivery);
  await writeFile(join(WORK, 'item.txt'), item);
}

/**
 * The item whose analysis names an image editor: made on first use (also in an archive made by an
 * earlier version of this bench), with the raised set dropped, since the edit bypasses the ledger.
 */
function indicatorItem(): string {
  const file = join(WORK, 'indicator-item.txt');
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const db = new Database(join(ARCHIVE, 'index.sqlite'));
  const row = db.prepare("select i.id, i.sha256 from items i join analyses a on a.sha256 = i.sha256 where a.analyzer = 'custody-image/2' order by i.seq limit 1 offset 500").get() as { id: string; sha256: string };
  db.prepare('update analyses set software = ? where sha256 = ?').run(EDITOR, row.sha256);
  db.prepare("delete from meta where key = 'indicators_raised'").run(); // the pairs do not read the Software tag
  db.close();
  writeFileSync(file, row.id);
  return row.id;
}

/** Ingests one new generated JPEG through the CLI (analysed on ingest); returns its item id. */
async function ingestOne(): Promise<string> {
  const dir = join(WORK, `more-${Date.now()}`);
  await mkdir(dir, { recursive: true });
  const shade = Math.floor(Math.random() * 200);
  const jpeg = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: shade, g: 40, b: 90 } } })
    .composite([{ input: await sharp({ create: { width: 30, height: 20, channels: 3, background: { r: 250, g: 250, b: shade } } }).png().toBuffer(), left: 10 + (shade % 50), top: 20 }])
    .jpeg()
    .toBuffer();
  await writeFile(join(dir, 'MORE.jpg'), jpeg);
  const r = JSON.parse((await cli(['ingest', dir, '--source', 'BENCH', '--analyze', '--json'])).stdout) as { delivery: string };
  const db = new Database(join(ARCHIVE, 'index.sqlite'), { readonly: true });
  const row = db.prepare('select id from items where delivery_id = ?').get(r.delivery) as { id: string } | undefined;
  db.close();
  if (row === undefined) throw new Error(`delivery ${r.delivery} holds no item`);
  return row.id;
}

const ms = (s: number): string => `${(s * 1000).toFixed(0)} ms`;

/** Median wall and CPU of `runs` calls (each sorted on its own). */
async function medianOf(runs: number, call: () => Promise<Measured>): Promise<string> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await call();
    wall.push(r.seconds);
    cpu.push(r.cpu);
  }
  wall.sort((x, y) => x - y);
  cpu.sort((x, y) => x - y);
  const mid = Math.floor(runs / 2);
  return `median ${ms(wall[mid]!)} wall, ${ms(cpu[mid]!)} CPU of ${runs} (min ${ms(wall[0]!)} wall)`;
}

const once = (r: Measured): string => `${ms(r.seconds)} wall, ${ms(r.cpu)} CPU`;

const indicatorCodes = (stdout: string): string =>
  ((JSON.parse(stdout) as { indicators: { code: string }[] | null }).indicators ?? []).map((i) => i.code).join(',') || 'none';

export async function benchSimilarityShow(): Promise<string[]> {
  const n = Number(process.env.SHOW_ITEMS ?? '100000');
  const runs = Number(process.env.SHOW_RUNS ?? '5');
  const reuse = process.env.SHOW_REUSE === '1' && existsSync(join(WORK, 'item.txt'));
  const t0 = performance.now();
  if (!reuse) await makeArchive(n);
  const item = readFileSync(join(WORK, 'item.txt'), 'utf8');
  const flagged = indicatorItem();
  const out = [`archive: ${n} analysed objects ${reuse ? `from a previous run (${WORK})` : `made in ${((performance.now() - t0) / 1000).toFixed(1)} s`}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} (2 cores, shared)`];
  const show = (id: string) => ['show', id, '--json'];
  const first = await cli(show(item));
  const cluster = (JSON.parse(first.stdout) as { cluster: { objects: string[] } | null }).cluster;
  out.push(`show --json, first call (caches made if absent or stale): ${once(first)}; the item's cluster holds ${cluster?.objects.length ?? 0} objects`);
  const firstFlagged = await cli(show(flagged));
  out.push(`show --json of the indicator-raising item, first call: ${once(firstFlagged)}; it raises ${indicatorCodes(firstFlagged.stdout)}`);
  out.push(`show --json, plain item, cached, CLI: ${await medianOf(runs, () => cli(show(item)))}`);
  out.push(`show --json, indicator-raising item, cached, CLI: ${await medianOf(runs, () => cli(show(flagged)))}`);
  await inProcess(show(item)); // loads the command's modules once
  out.push(`show --json, plain item, cached, in-process: ${await medianOf(runs, () => inProcess(show(item)))}`);
  out.push(`show --json, indicator-raising item, cached, in-process: ${await medianOf(runs, () => inProcess(show(flagged)))}`);
  // A non-analysis entry: a decision on two objects.
  const decide = ['decide', item, flagged, '--different', '--note', 'bench'];
  await cli(decide);
  out.push(`after \`custody decide\` (a non-analysis entry): show --json, plain item, CLI: ${once(await cli(show(item)))}`);
  out.push(`  then the indicator-raising item, CLI: ${once(await cli(show(flagged)))}`);
  await inProcess(decide);
  out.push(`after another decide: show --json, plain item, in-process: ${once(await inProcess(show(item)))}`);
  out.push(`  then the indicator-raising item, in-process: ${once(await inProcess(show(flagged)))}`);
  // An ingestion (one new object, analysed): every analysis cache is stale; the first call after it.
  for (const [label, call] of [
    ['CLI', cli],
    ['in-process', inProcess],
  ] as const) {
    const added = await ingestOne();
    out.push(`after ingesting one more item: show --json, plain item, ${label}: ${once(await call(show(item)))}`);
    out.push(`  then the indicator-raising item, ${label}: ${once(await call(show(flagged)))}`);
    out.push(`  then the new item, ${label}: ${once(await call(show(added)))}`);
  }
  // The indicators judged from the whole collection (their cache dropped, the clusters still cached).
  const db = new Database(join(ARCHIVE, 'index.sqlite'));
  db.prepare("delete from meta where key = 'indicators_raised'").run();
  db.close();
  out.push(`show --json, plain item, indicators judged from the collection (and cached), CLI: ${once(await cli(show(item)))}`);
  const startup = await cli(['--version']);
  out.push(`  the same machine now: custody --version ${once(startup)}`);
  return out;
}

if (process.argv[1]?.endsWith('similarity-show.bench.js')) {
  for (const line of await benchSimilarityShow()) console.log(line);
}
