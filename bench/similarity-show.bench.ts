// `show --json` and the near-duplicate clusters at 100,000 items (issue 14, "Scale"). A real
// archive (init, 20 small generated JPEGs ingested through the CLI) whose index is then enlarged
// by inserting rows directly (as bench/server-load.bench.ts does): SHOW_ITEMS objects, each with
// one item and an analysis carrying a PDQ hash, its 7 dihedral variants and 10 region hashes, 60%
// of them in families of near-identical hashes. Those rows have no ledger entries (`verify` would
// report them); analyzer custody-image/2 carries no grey raster, so no ledger entry is read for
// one. Measured: `show --json` of an item in a family, once with no cached clusters (the search
// runs and its result is cached) and then SHOW_RUNS times from the caches (clusters, crop
// originals, the objects raising an indicator); and once with the indicators judged from the
// whole collection (their cache dropped).
// Run: npm run build && node dist/bench/similarity-show.bench.js (SHOW_ITEMS=100000 by default;
// SHOW_REUSE=1 keeps the previous run's archive).
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { timeCommand } from './measure.js';

const CUSTODY = resolve('bin/custody.js');
const WORK = resolve('bench', '.work', 'similarity-show');
const ARCHIVE = join(WORK, 'archive');
const ENV = { ...process.env, CUSTODY_ARCHIVE: ARCHIVE, CUSTODY_ACTOR: 'bench' };
const VARIANTS = ['rotate90', 'rotate180', 'rotate270', 'flipX', 'flipY', 'flipPlus1', 'flipMinus1'];
const REGIONS = 10;

async function cli(args: string[]): Promise<{ stdout: string; seconds: number }> {
  const r = await timeCommand('node', [CUSTODY, ...args], { env: ENV });
  if (r.code !== 0) throw new Error(`custody ${args.join(' ')} exited ${String(r.code)}: ${r.stderr.slice(0, 2000)}`);
  return { stdout: r.stdout, seconds: r.seconds };
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

async function makeArchive(n: number): Promise<string> {
  await rm(WORK, { recursive: true, force: true });
  const src = join(WORK, 'delivery');
  await mkdir(src, { recursive: true });
  for (let i = 0; i < 20; i++)
    await writeFile(join(src, `IMG_${i}.jpg`), await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: i * 9, g: 100, b: 200 - i } } }).jpeg().toBuffer());
  await cli(['init']);
  const ingest = JSON.parse((await cli(['ingest', src, '--source', 'BENCH', '--new-source', '--json'])).stdout) as { delivery: string };
  const item = enlargeIndex(join(ARCHIVE, 'index.sqlite'), n, ingest.delivery);
  await writeFile(join(WORK, 'item.txt'), item);
  return item;
}

export async function benchSimilarityShow(): Promise<string[]> {
  const n = Number(process.env.SHOW_ITEMS ?? '100000');
  const runs = Number(process.env.SHOW_RUNS ?? '5');
  const reuse = process.env.SHOW_REUSE === '1' && existsSync(join(WORK, 'item.txt'));
  const t0 = performance.now();
  const item = reuse ? (await import('node:fs')).readFileSync(join(WORK, 'item.txt'), 'utf8') : await makeArchive(n);
  const out = [`archive: ${n} analysed objects ${reuse ? 'from the previous run' : `made in ${((performance.now() - t0) / 1000).toFixed(1)} s`}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} (2 cores, shared)`];
  if (!reuse) {
    const first = await cli(['show', item, '--json']);
    const cluster = (JSON.parse(first.stdout) as { cluster: { objects: string[] } | null }).cluster;
    out.push(`show --json, no cache yet (search + write the cache): ${first.seconds.toFixed(2)} s; the item's cluster holds ${cluster?.objects.length ?? 0} objects`);
  }
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await cli(['show', item, '--json'])).seconds);
  times.sort((a, b) => a - b);
  out.push(`show --json, cached: median ${(times[Math.floor(runs / 2)]! * 1000).toFixed(0)} ms of ${runs} (min ${(times[0]! * 1000).toFixed(0)} ms); process start and archive open included`);
  // The indicators judged from the whole collection, as before their raised set was cached (the
  // clusters still cached): the cost a stale `indicators_raised` row, or an object it names, pays.
  const db = new Database(join(ARCHIVE, 'index.sqlite'));
  db.prepare("delete from meta where key = 'indicators_raised'").run();
  db.close();
  const judged = (await cli(['show', item, '--json'])).seconds;
  out.push(`show --json, clusters cached, indicators judged from the collection (and cached): ${(judged * 1000).toFixed(0)} ms`);
  const startup = (await timeCommand('node', [CUSTODY, '--version'], { env: ENV })).seconds;
  out.push(`  the same machine now: custody --version ${(startup * 1000).toFixed(0)} ms`);
  return out;
}

if (process.argv[1]?.endsWith('similarity-show.bench.js')) {
  for (const line of await benchSimilarityShow()) console.log(line);
}
