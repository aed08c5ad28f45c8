// Archive foundation benchmark: intake and verification against sha256sum on the same files.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Corpus } from './corpus.js';
import { mb, ratioLine, timeCommand, warm } from './measure.js';

const CUSTODY = resolve('bin/custody.js');

export async function benchIngestVerify(corpus: Corpus): Promise<string[]> {
  const work = resolve('bench', '.work', 'archive');
  await rm(work, { recursive: true, force: true });
  await mkdir(join(work, '..'), { recursive: true });
  const env = { ...process.env, CUSTODY_ARCHIVE: work, CUSTODY_ACTOR: 'bench' };
  const n = corpus.files.length;
  const out: string[] = [
    `corpus: ${n} JPEGs, ${mb(corpus.bytes)} (${mb(corpus.bytes / n)} on average)`,
  ];

  warm(corpus.files);
  const listFile = resolve('bench', '.work', 'sha256sum.txt');
  const sum = await timeCommand('sha256sum', corpus.files);
  if (sum.code !== 0) throw new Error(`sha256sum failed: ${sum.stderr}`);
  await writeFile(listFile, sum.stdout);
  const sumRate = corpus.bytes / sum.seconds;
  out.push(
    `sha256sum (peer):        ${sum.seconds.toFixed(2)} s, ${(n / sum.seconds).toFixed(0)} files/s, ${mb(sumRate)}/s`,
  );

  // The disk's own durable-copy speed on the same bytes: the floor under any store that fsyncs.
  const copyDir = resolve('bench', '.work', 'cp-sync');
  await rm(copyDir, { recursive: true, force: true });
  warm(corpus.files);
  const copy = await timeCommand('bash', [
    '-c',
    'cp -r "$1" "$2" && sync',
    'cp-sync',
    corpus.dir,
    copyDir,
  ]);
  await rm(copyDir, { recursive: true, force: true });
  out.push(
    `cp -r + sync (disk bound): ${copy.seconds.toFixed(2)} s, ${mb(corpus.bytes / copy.seconds)}/s`,
  );

  const init = await timeCommand('node', [CUSTODY, 'init'], { env });
  if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
  warm(corpus.files);
  const ingest = await timeCommand(
    'node',
    [CUSTODY, 'ingest', corpus.dir, '--source', 'BENCH', '--new-source', '--json'],
    { env },
  );
  if (ingest.code !== 0) throw new Error(`ingest failed (${ingest.code}): ${ingest.stderr}`);
  const report = JSON.parse(ingest.stdout) as {
    summary: { items_added: number };
    peak_rss_bytes: number;
  };
  const ingestRate = corpus.bytes / ingest.seconds;
  out.push(
    `custody ingest:          ${ingest.seconds.toFixed(2)} s, ${(n / ingest.seconds).toFixed(0)} files/s, ${mb(ingestRate)}/s, ` +
      `${report.summary.items_added} items, peak RSS ${mb(report.peak_rss_bytes)} (store with fsync, ledger, index)`,
  );
  out.push(ratioLine('  ingest vs sha256sum', ingestRate, sumRate, 1.0));
  out.push(
    `  ingest vs cp -r + sync: ${(ingestRate / (corpus.bytes / copy.seconds)).toFixed(2)}× (a store that keeps every byte durably cannot beat the disk)`,
  );

  const check = await timeCommand('sha256sum', ['-c', '--quiet', listFile]);
  if (check.code !== 0) throw new Error(`sha256sum -c failed: ${check.stderr}`);
  out.push(`sha256sum -c (peer):     ${check.seconds.toFixed(2)} s`);
  const verify = await timeCommand('node', [CUSTODY, 'verify', '--json'], { env });
  if (verify.code !== 0)
    throw new Error(`verify failed (${verify.code}): ${verify.stdout.slice(0, 2000)}`);
  const vr = JSON.parse(verify.stdout) as { objects: { hashed: number; bytes: number } };
  out.push(
    `custody verify:          ${verify.seconds.toFixed(2)} s, ${vr.objects.hashed} objects, ${mb(vr.objects.bytes / verify.seconds)}/s (objects, ledger, checkpoints, index)`,
  );
  out.push(ratioLine('  verify vs sha256sum -c', verify.seconds, check.seconds, 2.0, false));
  out.push(
    `  peak RSS of ingest: ${mb(report.peak_rss_bytes)} (target < 300 MB, ${report.peak_rss_bytes < 300e6 ? 'meets' : 'MISSES'})`,
  );
  return out;
}
