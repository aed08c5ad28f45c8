// Catalogue bulk work (issue 10): linking 10,000 photographs to 5,000 subjects by file name in one
// `custody subject import` (target ≤ 10 s), and `custody items --format csv --with-metadata` over
// 50,000 items (target ≤ 3 s). Each figure is the whole command, Node start-up included.
// On SQLite always; on PostgreSQL too when BENCH_PG_URL names an empty database.
// CATALOGUE_ITEMS scales the archive (default 50,000 items; the import links the first 10,000).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { timeCommand } from './measure.js';

const CUSTODY = resolve('bin/custody.js');

/** Small distinct files, 500 to a folder, so the paths look like a delivery's. */
async function writeCorpus(dir: string, n: number): Promise<string[]> {
  const paths: string[] = [];
  for (let f = 0; f * 500 < n; f++) {
    const folder = join(dir, `card-box-${String(f).padStart(3, '0')}`);
    await mkdir(folder, { recursive: true });
    for (let i = f * 500; i < Math.min(n, (f + 1) * 500); i++) {
      const name = `IMG_${String(i).padStart(6, '0')}.jpg`;
      await writeFile(join(folder, name), `synthetic photograph ${i}\n`);
      paths.push(`card-box-${String(f).padStart(3, '0')}/${name}`);
    }
  }
  return paths;
}

async function run(label: string, env: NodeJS.ProcessEnv, args: string[]): Promise<{ seconds: number; stdout: string }> {
  const r = await timeCommand('node', [CUSTODY, ...args], { env });
  if (r.code !== 0) throw new Error(`${label}: custody ${args[0] ?? ''} exited ${String(r.code)}: ${r.stderr.slice(0, 2000)}`);
  return r;
}

export async function benchCatalogue(): Promise<string[]> {
  const n = Number(process.env.CATALOGUE_ITEMS ?? '50000');
  const linked = Math.min(10_000, n);
  const base = resolve('bench', '.work', 'catalogue');
  await rm(base, { recursive: true, force: true });
  const corpus = join(base, 'delivery');
  const paths = await writeCorpus(corpus, n);
  // Two photographs per subject, named by their path in the delivery (the path alone: unambiguous).
  const rows = ['number,items'];
  for (let s = 0; s < linked / 2; s++) rows.push(`,${paths[2 * s] ?? ''};${paths[2 * s + 1] ?? ''}`);
  const sheet = join(base, 'subjects.csv');
  await writeFile(sheet, `${rows.join('\n')}\n`);
  const out: string[] = [`corpus: ${n} items in one delivery; the sheet links ${linked} of them to ${linked / 2} subjects by path`];
  const databases: [string, NodeJS.ProcessEnv][] = [['SQLite', {}]];
  if (process.env.BENCH_PG_URL !== undefined) databases.push(['PostgreSQL', { DATABASE_URL: process.env.BENCH_PG_URL }]);
  for (const [name, extra] of databases) {
    const archive = join(base, `archive-${name}`);
    const env = { ...process.env, ...extra, CUSTODY_ARCHIVE: archive, CUSTODY_ACTOR: 'bench' };
    await run(name, env, ['init']);
    const ingest = await run(name, env, ['ingest', corpus, '--source', 'BENCH', '--new-source', '--json']);
    out.push(`${name}: ingest of ${n} small files (setup) ${ingest.seconds.toFixed(1)} s`);
    const imp = await run(name, env, ['subject', 'import', sheet, '--reason', 'bench', '--json']);
    const imported = (JSON.parse(imp.stdout) as { imported: number }).imported;
    out.push(`${name}: subject import, ${imported} subjects linking ${linked} photos by file name: ${imp.seconds.toFixed(2)} s (target ≤ 10 s)`);
    const csv = await run(name, env, ['items', '--format', 'csv', '--with-metadata']);
    const lines = csv.stdout.split('\n').length - 2;
    out.push(`${name}: items --format csv --with-metadata, ${lines} rows: ${csv.seconds.toFixed(2)} s (target ≤ 3 s)`);
  }
  return out;
}
