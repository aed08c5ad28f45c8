// The team server under load (issue 12, "Performance → Load"): 20 concurrent signed-in sessions
// (autocannon on loopback) over the item list, item detail, the subject list and a plan's
// statistics, against an archive of 50,000 items. Target: p95 < 50 ms, no errors. Reported overall
// and per route (p50, p95, p99, requests/s), with the peer of the same run: a plain node:http
// server answering a fixed body of an item page's size over the same 20 connections (the floor
// this machine, under its current load, allows).
//
// How the archive is made: a real archive (init, a user, a delivery of 200 small generated JPEGs ingested,
// a sampling plan drawn over them, all through the CLI, so the ledger, checkpoints and the plan
// are real), then the index is enlarged to SERVER_LOAD_ITEMS items (default 50,000) by inserting
// rows directly into its SQLite tables: items with their objects, analyses (8 cameras, dated),
// 25,000 subjects in 20 units and their links. Those rows have no ledger entries (`verify` would
// report them); the routes measured read only the index, so this costs seconds instead of an hour
// of ingest. The statistics route replays the real ledger at its signed checkpoint.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { spawn, type ChildProcess } from 'node:child_process';
import { timeCommand } from './measure.js';

const CUSTODY = resolve('bin/custody.js');
const PASSWORD = 'bench-password-0000';

async function cli(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const r = await timeCommand('node', [CUSTODY, ...args], { env });
  if (r.code !== 0) throw new Error(`custody ${args.join(' ')} exited ${String(r.code)}: ${r.stderr.slice(0, 2000)}`);
  return r.stdout;
}

function ulid(i: number, prefix: string): string {
  // 26 characters (the routes' id pattern), distinct per (prefix, i), sorted like receipt order.
  return `${prefix}${String(i).padStart(26 - prefix.length, '0')}`;
}

/** Rows straight into the index: see the header comment. */
function enlargeIndex(file: string, n: number, deliveryId: string): { items: string[] } {
  const db = new Database(file);
  const items: string[] = [];
  const cameras = ['Canon', 'Nikon', 'Sony', 'Fujifilm', 'Olympus', 'Pentax', 'Leica', 'Ricoh'];
  db.transaction(() => {
    const obj = db.prepare('insert into objects (sha256, size, media_type, first_seq, withdrawn_seq, purged_seq) values (?, ?, ?, ?, null, null)');
    const item = db.prepare(
      `insert into items (id, seq, delivery_id, parent_id, member_index, path, path_raw_hex, path_encoding, relative_path, name, size, mtime, media_type, sha256, flags_json, origin_key, received_at, actor)
       values (?, ?, ?, null, null, ?, null, 'utf-8', ?, ?, ?, null, 'image/jpeg', ?, '[]', ?, ?, 'bench')`,
    );
    const cols = (db.prepare('pragma table_info(analyses)').all() as { name: string; notnull: number; type: string }[]);
    const names = cols.map((c) => c.name);
    const analysis = db.prepare(`insert into analyses (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`);
    const unit = db.prepare(`insert into units (id, code, code_text, name_en, name_ar, aliases_json, parent_id, created_seq, updated_seq, retired_seq) values (?, ?, null, ?, null, '[]', null, 0, 0, null)`);
    const subj = db.prepare(
      `insert into subjects (id, number_raw, scheme_id, number_normalised, fields_json, unit_id, sex, age_band, date_of_death, date_of_photography, notes, status, merged_into, created_seq, updated_seq)
       values (?, ?, null, ?, '{}', ?, 'male', '30-39', null, null, null, 'active', null, 0, 0)`,
    );
    const link = db.prepare('insert into subject_items (item_id, subject_id, seq) values (?, ?, 0)');
    for (let u = 0; u < 20; u++) unit.run(ulid(u, 'UNIT'), 200 + u, `Unit ${u}`);
    for (let i = 0; i < n; i++) {
      const sha = randomBytes(32).toString('hex');
      const id = ulid(i, 'ITEM');
      const seq = 1_000_000 + i;
      const day = 1 + (i % 28);
      const received = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 86400)).toISOString();
      obj.run(sha, 1000 + (i % 5000), 'image/jpeg', seq);
      item.run(id, seq, deliveryId, `box-${Math.floor(i / 500)}/IMG_${i}.jpg`, `box-${Math.floor(i / 500)}/IMG_${i}.jpg`, `IMG_${i}.jpg`, 1000 + (i % 5000), sha, `bench:${i}`, received);
      const cam = cameras[i % cameras.length] ?? 'Canon';
      const row: Record<string, unknown> = {
        sha256: sha, seq, analyzer: 'bench', make: cam, model: `${cam} ${i % 3}`,
        date_time_original: `2013:05:${String(day).padStart(2, '0')} 10:${String(i % 60).padStart(2, '0')}:00`,
        exif_present: 1, width: 4000, height: 3000, orientation: 1,
      };
      analysis.run(...cols.map((c) => row[c.name] ?? (c.name.endsWith('_json') ? (c.name === 'pdq_dihedral_json' ? 'null' : '[]') : c.notnull ? 0 : null)));
      if (i % 2 === 0) subj.run(ulid(i / 2, 'SUBJ'), String(i / 2), String(i / 2), ulid((i / 2) % 20, 'UNIT'));
      link.run(id, ulid(Math.floor(i / 2), 'SUBJ'));
      items.push(id);
    }
  })();
  db.close();
  return { items };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** p50/p95/p99 of a set of latencies (ms), and the rate over `seconds`. */
function summary(ms: number[], seconds: number): string {
  const s = [...ms].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(1)} ms, p95 ${percentile(s, 95).toFixed(1)} ms, p99 ${percentile(s, 99).toFixed(1)} ms, ${(s.length / seconds).toFixed(0)} req/s (${s.length} requests)`;
}

interface Route {
  name: string;
  path: () => string;
}

interface LoadResult {
  byRoute: Map<string, number[]>;
  all: number[];
  byStatus: Map<number, number>;
  errors: number;
  seconds: number;
}

/**
 * 20 connections (one cookie each, when given), the routes in turn across all of them, for
 * `seconds`; each latency is recorded under the route of the request it answers (one request in
 * flight per connection, so the connection's last request built is the one answered).
 */
async function load(base: string, routes: readonly Route[], cookies: readonly string[], seconds: number): Promise<LoadResult> {
  let next = 0;
  const byRoute = new Map<string, number[]>(routes.map((r) => [r.name, []]));
  const all: number[] = [];
  const byStatus = new Map<number, number>();
  let clientNo = 0;
  const result = await new Promise<autocannon.Result>((done, fail) => {
    autocannon(
      {
        url: base,
        connections: 20,
        duration: seconds,
        setupClient: (client) => {
          const headers = { cookie: cookies[clientNo++ % Math.max(1, cookies.length)] ?? '' };
          let inFlight = routes[0]!;
          client.setRequests([
            {
              method: 'GET',
              setupRequest: (req) => {
                inFlight = routes[next++ % routes.length] ?? routes[0]!;
                return { ...req, headers, path: inFlight.path() };
              },
            },
          ]);
          client.on('response', (status: number, _bytes: number, ms: number) => {
            all.push(ms);
            byRoute.get(inFlight.name)?.push(ms);
            byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
          });
        },
        requests: [{ method: 'GET' }],
      },
      (err, r) => (err ? fail(err) : done(r)),
    );
  });
  return { byRoute, all, byStatus, errors: result.errors + result.timeouts + result.non2xx, seconds };
}

/** The peer of the same run: plain node:http answering a fixed body as large as an item page. */
async function floor(bytes: number, seconds: number): Promise<string> {
  const body = JSON.stringify({ items: 'x'.repeat(Math.max(0, bytes - 20)) });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  try {
    const r = await load(`http://127.0.0.1:${port}`, [{ name: 'fixed', path: () => '/' }], [], seconds);
    return summary(r.all, r.seconds);
  } finally {
    await new Promise((r) => server.close(r));
  }
}

async function makeArchive(work: string, n: number, env: NodeJS.ProcessEnv): Promise<{ items: string[]; line: string }> {
  await rm(work, { recursive: true, force: true });
  const src = join(work, 'delivery');
  await mkdir(src, { recursive: true });
  for (let i = 0; i < 200; i++)
    await writeFile(
      join(src, `IMG_${i}.jpg`),
      await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: i, g: 255 - i, b: (i * 7) % 256 } } }).jpeg().toBuffer(),
    );
  const pw = join(work, 'pw');
  await writeFile(pw, `${PASSWORD}\n`, { mode: 0o600 });
  await cli(env, ['init']);
  await cli(env, ['user', 'add', 'Lawyer Load', '--role', 'investigator', '--password-file', pw]);
  const ingest = JSON.parse(await cli(env, ['ingest', src, '--source', 'BENCH', '--new-source', '--json'])) as { delivery: string };
  await cli(env, ['sample', 'draw', '--name', 'load', '--over', 'items', '--method', 'simple', '--size', '20', '--seed', 'fixed', '--json']);
  const t0 = Date.now();
  const { items } = enlargeIndex(join(env.CUSTODY_ARCHIVE ?? '', 'index.sqlite'), n, ingest.delivery);
  await writeFile(join(work, 'items.json'), JSON.stringify({ n, items }));
  return {
    items,
    line: `archive: ${n} items inserted into the index in ${((Date.now() - t0) / 1000).toFixed(1)} s (plus 200 ingested; ${n / 2} subjects in 20 units); SQLite`,
  };
}

/** The load bench's archive folder (bench/.work/server-load/archive), its environment and its account. */
export const LOAD_WORK = resolve('bench', '.work', 'server-load');
export const LOAD_ARCHIVE = join(LOAD_WORK, 'archive');
export const LOAD_ACCOUNT = { name: 'Lawyer Load', password: PASSWORD } as const;
const LOAD_ENV = { ...process.env, CUSTODY_ARCHIVE: LOAD_ARCHIVE, CUSTODY_ACTOR: 'bench' };

/**
 * The archive of `n` enlarged items (made now, or the previous run's with SERVER_LOAD_REUSE=1 when
 * it has as many items). Shared with the evidence grid bench (evidence-grid.bench.ts).
 */
export async function ensureLoadArchive(n: number): Promise<{ items: string[]; line: string }> {
  const previous = process.env.SERVER_LOAD_REUSE === '1'
    ? await readFile(join(LOAD_WORK, 'items.json'), 'utf8').then((t) => JSON.parse(t) as { n: number; items: string[] }).catch(() => undefined)
    : undefined;
  return previous?.n === n
    ? { items: previous.items, line: `archive: the previous run's (${n} items; SERVER_LOAD_REUSE=1)` }
    : makeArchive(LOAD_WORK, n, LOAD_ENV);
}

/** `custody serve`'s server (buildServer, with the built UI) over the load archive, in its own process. */
export async function startLoadServer(uiDir?: string): Promise<{ child: ChildProcess; base: string }> {
  const nodeArgs = (process.env.SERVER_LOAD_NODE_OPTIONS ?? '').split(' ').filter((a) => a !== '');
  const child = spawn(process.execPath, [...nodeArgs, resolve('dist/bench/server-load.child.js')], {
    env: { ...LOAD_ENV, SERVER_LOAD_ARCHIVE: LOAD_ARCHIVE, ...(uiDir === undefined ? {} : { SERVER_LOAD_UI_DIR: uiDir }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((done, fail) => {
    child.stdout.once('data', (d: Buffer) => done((JSON.parse(d.toString()) as { port: number }).port));
    child.once('exit', (code) => fail(new Error(`the server exited ${String(code)}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

/**
 * SERVER_LOAD_REUSE=1 serves the archive of the previous run again when it has as many items
 * (for before/after comparisons and profiling: the same archive, no minutes of set-up);
 * SERVER_LOAD_NODE_OPTIONS is given to the server process (for example --cpu-prof).
 */
export async function benchServerLoad(): Promise<string[]> {
  const n = Number(process.env.SERVER_LOAD_ITEMS ?? '50000');
  const seconds = Number(process.env.SERVER_LOAD_SECONDS ?? '20');
  const { items, line } = await ensureLoadArchive(n);
  const out = [line];

  const { child, base } = await startLoadServer();
  const get = async (path: string, cookie: string) => {
    const r = await fetch(`${base}${path}`, { headers: { cookie } });
    return { statusCode: r.status, body: await r.text() };
  };
  try {
    const cookies: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await fetch(`${base}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(LOAD_ACCOUNT),
      });
      const c = /custody_session=([^;]+)/.exec(r.headers.get('set-cookie') ?? '');
      if (c === null) throw new Error(`sign-in failed: ${r.status} ${await r.text()}`);
      cookies.push(`custody_session=${c[1] ?? ''}`);
    }
    const routes: Route[] = [
      { name: 'items first page', path: () => '/api/items?limit=50' },
      { name: 'items random offset', path: () => `/api/items?limit=50&offset=${Math.floor(Math.random() * (n - 50))}` },
      { name: 'items camera+date sort', path: () => '/api/items?camera=nikon&sort=taken&limit=50' },
      { name: 'item detail', path: () => `/api/items/${items[Math.floor(Math.random() * items.length)] ?? ''}` },
      { name: 'subjects page', path: () => `/api/subjects?limit=100&offset=${Math.floor(Math.random() * (n / 2 - 100))}` },
      { name: 'statistics', path: () => '/api/statistics/load' },
    ];
    // Warm the caches (collection facts, trail index, statistics at the signed checkpoint).
    let pageBytes = 0;
    for (const r of routes) {
      const res = await get(r.path(), cookies[0] ?? '');
      if (res.statusCode !== 200) throw new Error(`warm-up ${r.path()}: ${res.statusCode} ${res.body.slice(0, 500)}`);
      if (r.name === 'items first page') pageBytes = res.body.length;
    }
    // Each route alone, one request at a time (no concurrency): where the time goes.
    const alone: string[] = [];
    for (const r of routes) {
      const ms: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t = performance.now();
        await get(r.path(), cookies[0] ?? '');
        ms.push(performance.now() - t);
      }
      ms.sort((a, b) => a - b);
      alone.push(`${r.name} ${percentile(ms, 50).toFixed(1)}`);
    }
    out.push(`each route alone, median of 30 (ms): ${alone.join(', ')}`);
    const r = await load(base, routes, cookies, seconds);
    out.push(
      `20 sessions, ${seconds} s, routes in turn: items list (first page, random offset, camera filter sorted by date), item detail (random item), subject list (random page), statistics of a plan (load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores)`,
    );
    out.push(
      `overall: ${summary(r.all, r.seconds)} (target p95 < 50 ms); errors ${r.errors} (statuses ${[...r.byStatus].map(([s, c]) => `${s}×${c}`).join(', ')})`,
    );
    for (const [name, ms] of r.byRoute) out.push(`  ${name}: ${summary(ms, r.seconds)}`);
    out.push(
      `peer (same run, same 20 connections): plain node:http answering a fixed ${pageBytes}-byte body (an item page's size): ${await floor(pageBytes, Math.min(seconds, 5))}`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
  return out;
}
