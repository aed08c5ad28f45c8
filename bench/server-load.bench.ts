// The team server under load (issue 12, "Performance → Load"): 20 concurrent signed-in sessions
// (autocannon on loopback) over the item list, item detail, the subject list and a plan's
// statistics, against an archive of 50,000 items. Target: p95 < 50 ms, no errors.
//
// How the archive is made: a real archive (init, a user, a delivery of 200 small generated JPEGs ingested,
// a sampling plan drawn over them, all through the CLI, so the ledger, checkpoints and the plan
// are real), then the index is enlarged to SERVER_LOAD_ITEMS items (default 50,000) by inserting
// rows directly into its SQLite tables: items with their objects, analyses (8 cameras, dated),
// 25,000 subjects in 20 units and their links. Those rows have no ledger entries (`verify` would
// report them); the routes measured read only the index, so this costs seconds instead of an hour
// of ingest. The statistics route replays the real ledger at its signed checkpoint.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { spawn } from 'node:child_process';
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

export async function benchServerLoad(): Promise<string[]> {
  const n = Number(process.env.SERVER_LOAD_ITEMS ?? '50000');
  const seconds = Number(process.env.SERVER_LOAD_SECONDS ?? '20');
  const work = resolve('bench', '.work', 'server-load');
  await rm(work, { recursive: true, force: true });
  const src = join(work, 'delivery');
  await mkdir(src, { recursive: true });
  for (let i = 0; i < 200; i++)
    await writeFile(
      join(src, `IMG_${i}.jpg`),
      await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: i, g: 255 - i, b: (i * 7) % 256 } } }).jpeg().toBuffer(),
    );
  const archive = join(work, 'archive');
  const env = { ...process.env, CUSTODY_ARCHIVE: archive, CUSTODY_ACTOR: 'bench' };
  const pw = join(work, 'pw');
  await writeFile(pw, `${PASSWORD}\n`, { mode: 0o600 });
  await cli(env, ['init']);
  await cli(env, ['user', 'add', 'Lawyer Load', '--role', 'investigator', '--password-file', pw]);
  const ingest = JSON.parse(await cli(env, ['ingest', src, '--source', 'BENCH', '--new-source', '--json'])) as { delivery: string };
  await cli(env, ['sample', 'draw', '--name', 'load', '--over', 'items', '--method', 'simple', '--size', '20', '--seed', 'fixed', '--json']);
  const t0 = Date.now();
  const { items } = enlargeIndex(join(archive, 'index.sqlite'), n, ingest.delivery);
  const out = [`archive: ${n} items inserted into the index in ${((Date.now() - t0) / 1000).toFixed(1)} s (plus 200 ingested; ${n / 2} subjects in 20 units); SQLite`];

  const child = spawn(process.execPath, [resolve('dist/bench/server-load.child.js')], {
    env: { ...env, SERVER_LOAD_ARCHIVE: archive },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((done, fail) => {
    child.stdout.once('data', (d: Buffer) => done((JSON.parse(d.toString()) as { port: number }).port));
    child.once('exit', (code) => fail(new Error(`the server exited ${String(code)}`)));
  });
  const base = `http://127.0.0.1:${port}`;
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
        body: JSON.stringify({ name: 'Lawyer Load', password: PASSWORD }),
      });
      const c = /custody_session=([^;]+)/.exec(r.headers.get('set-cookie') ?? '');
      if (c === null) throw new Error(`sign-in failed: ${r.status} ${await r.text()}`);
      cookies.push(`custody_session=${c[1] ?? ''}`);
    }
    const paths = [
      () => '/api/items?limit=50',
      () => `/api/items?limit=50&offset=${Math.floor(Math.random() * (n - 50))}`,
      () => '/api/items?camera=nikon&sort=taken&limit=50',
      () => `/api/items/${items[Math.floor(Math.random() * items.length)] ?? ''}`,
      () => `/api/subjects?limit=100&offset=${Math.floor(Math.random() * (n / 2 - 100))}`,
      () => '/api/statistics/load',
    ];
    // Warm the caches (collection facts, trail index, statistics at the signed checkpoint).
    for (const p of paths) {
      const r = await get(p(), cookies[0] ?? '');
      if (r.statusCode !== 200) throw new Error(`warm-up ${p()}: ${r.statusCode} ${r.body.slice(0, 500)}`);
    }
    // Each route alone, one request at a time (no concurrency): where the time goes.
    const names = ['items first page', 'items random offset', 'items camera+date sort', 'item detail', 'subjects page', 'statistics'];
    const alone: string[] = [];
    for (const [k, p] of paths.entries()) {
      const ms: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t = performance.now();
        await get(p(), cookies[0] ?? '');
        ms.push(performance.now() - t);
      }
      ms.sort((a, b) => a - b);
      alone.push(`${names[k] ?? k} ${percentile(ms, 50).toFixed(1)}`);
    }
    out.push(`each route alone, median of 30 (ms): ${alone.join(', ')}`);
    let next = 0;
    const latencies: number[] = [];
    const byStatus = new Map<number, number>();
    const result = await new Promise<autocannon.Result>((done, fail) => {
      let clientNo = 0;
      const instance = autocannon(
        {
          url: base,
          connections: 20,
          duration: seconds,
          setupClient: (client) => {
            client.setHeaders({ cookie: cookies[clientNo++ % cookies.length] ?? '' });
          },
          requests: [
            {
              method: 'GET',
              setupRequest: (req) => ({ ...req, path: (paths[next++ % paths.length] ?? paths[0]!)() }),
            },
          ],
        },
        (err, r) => (err ? fail(err) : done(r)),
      );
      instance.on('response', (_client, status: number, _bytes: number, ms: number) => {
        latencies.push(ms);
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      });
    });
    latencies.sort((a, b) => a - b);
    const errors = result.errors + result.timeouts + result.non2xx;
    out.push(
      `20 sessions, ${seconds} s, routes in turn: items list (first page, random offset, camera filter sorted by date), item detail (random item), subject list (random page), statistics of a plan`,
    );
    out.push(
      `latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (target p95 < 50 ms); ${result.requests.average.toFixed(0)} requests/s; ${latencies.length} requests; errors ${errors} (statuses ${[...byStatus].map(([s, c]) => `${s}×${c}`).join(', ')})`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
  return out;
}
