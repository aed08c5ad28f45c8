// Tribunal export benchmark: `custody export --select all` against making the same bag by hand
// (copy the files, hash them into a manifest), and `custody verify-export` against the
// recipient's minimum (`sha256sum -c` over the payload manifest), on the same files.
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Corpus } from './corpus.js';
import { mb, ratioLine, timeCommand, warm } from './measure.js';

const CUSTODY = resolve('bin/custody.js');

export async function benchExport(corpus: Corpus): Promise<string[]> {
  const base = resolve('bench', '.work', 'export');
  await rm(base, { recursive: true, force: true });
  await mkdir(base, { recursive: true });
  const archive = join(base, 'archive');
  const env = { ...process.env, CUSTODY_ARCHIVE: archive, CUSTODY_ACTOR: 'bench' };
  const n = corpus.files.length;
  const out: string[] = [`corpus: ${n} JPEGs, ${mb(corpus.bytes)}`];
  for (const args of [['init'], ['ingest', corpus.dir, '--source', 'BENCH', '--new-source']]) {
    const r = await timeCommand('node', [CUSTODY, ...args], { env });
    if (r.code !== 0) throw new Error(`custody ${args[0] ?? ''} failed: ${r.stderr}`);
  }

  // The peer: a bag made by hand, payload copied and hashed into a manifest.
  const byHand = join(base, 'by-hand');
  warm(corpus.files);
  const hand = await timeCommand('bash', [
    '-c',
    'mkdir -p "$2" && cp -r "$1" "$2/data" && cd "$2" && find data -type f -print0 | xargs -0 sha256sum > manifest-sha256.txt',
    'by-hand',
    corpus.dir,
    byHand,
  ]);
  if (hand.code !== 0) throw new Error(`hand-made bag failed: ${hand.stderr}`);
  const handRate = corpus.bytes / hand.seconds;
  out.push(`cp -r + sha256sum manifest (peer): ${hand.seconds.toFixed(2)} s, ${mb(handRate)}/s`);

  const bag = join(base, 'bag');
  warm(corpus.files);
  const exp = await timeCommand('node', [CUSTODY, 'export', '--select', 'all', '--out', bag, '--json'], { env });
  if (exp.code !== 0 || !existsSync(bag)) throw new Error(`export failed (${exp.code}): ${exp.stderr}`);
  const expRate = corpus.bytes / exp.seconds;
  out.push(
    `custody export --select all:       ${exp.seconds.toFixed(2)} s, ${mb(expRate)}/s (evidence re-hashed, tables, ${n} proofs and entries, ledger extract, dissemination entry)`,
  );
  out.push(ratioLine('  export vs hand-made bag', expRate, handRate, 1.0));

  const check = await timeCommand('sha256sum', ['-c', '--quiet', 'manifest-sha256.txt'], { cwd: bag });
  if (check.code !== 0) throw new Error(`sha256sum -c failed: ${check.stderr}`);
  out.push(`sha256sum -c manifest (peer):      ${check.seconds.toFixed(2)} s`);
  const key = join(base, 'pinned-key.txt');
  await timeCommand('bash', ['-c', `node "${CUSTODY}" key --public > "${key}"`], { env });
  const verify = await timeCommand('node', [CUSTODY, 'verify-export', bag, '--key', key, '--json'], { env: { ...process.env, CUSTODY_ARCHIVE: '' } });
  if (verify.code !== 0) throw new Error(`verify-export failed (${verify.code}): ${verify.stdout.slice(0, 2000)}`);
  out.push(`custody verify-export --key:      ${verify.seconds.toFixed(2)} s (BagIt, both manifests, signature, ${n} inclusion proofs, entries)`);
  out.push(ratioLine('  verify-export vs sha256sum -c', verify.seconds, check.seconds, 0.8, false));
  await rm(base, { recursive: true, force: true });
  return out;
}
