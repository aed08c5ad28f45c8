// Tribunal export benchmark: `custody export --select all` against making the same bag by hand
// (copy the files, hash them into a manifest), and `custody verify-export` against the
// recipient's minimum (`sha256sum -c` over the payload manifest), on the same files.
//
// The archive holds a whole case, so that the bag carries a process to verify: the README's
// worked example (151 photographs, 150 subjects, a stratified sample of 40 examined blind by two
// examiners and adjudicated) runs first, then the corpus is ingested beside it. The bag of both
// then carries the full ledger, and verify-export re-derives its tables and statistics.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
  const out: string[] = [`corpus: ${n} JPEGs, ${mb(corpus.bytes)}, beside the README's worked example (151 photographs, a blind sample of 40)`];
  await workedExample(base);
  for (const args of [['ingest', corpus.dir, '--source', 'BENCH', '--new-source']]) {
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
    `custody export --select all:       ${exp.seconds.toFixed(2)} s, ${mb(expRate)}/s (evidence re-hashed, tables, ${n} proofs and entries, the full ledger, dissemination entry)`,
  );
  out.push(ratioLine('  export vs hand-made bag', expRate, handRate, 1.0));

  const check = await timeCommand('sha256sum', ['-c', '--quiet', 'manifest-sha256.txt'], { cwd: bag });
  if (check.code !== 0) throw new Error(`sha256sum -c failed: ${check.stderr}`);
  out.push(`sha256sum -c manifest (peer):      ${check.seconds.toFixed(2)} s`);
  const key = join(base, 'pinned-key.txt');
  await timeCommand('bash', ['-c', `node "${CUSTODY}" key --public > "${key}"`], { env });
  const verify = await timeCommand('node', [CUSTODY, 'verify-export', bag, '--key', key, '--json'], { env: { ...process.env, CUSTODY_ARCHIVE: '' } });
  if (verify.code !== 0) throw new Error(`verify-export failed (${verify.code}): ${verify.stdout.slice(0, 2000)}`);
  // The process checks really ran: the bag carries the full ledger, and check 7 re-derived it.
  const report = JSON.parse(verify.stdout) as { full_ledger?: boolean; steps: { step: number; ok: boolean; detail: string }[] };
  const step7 = report.steps.find((s) => s.step === 7);
  if (report.full_ledger !== true || step7?.ok !== true || !/statistics recomputed/.test(step7.detail))
    throw new Error(`verify-export did not verify the process of a full-ledger bag: ${JSON.stringify(report.steps)}`);
  out.push(`custody verify-export --key:      ${verify.seconds.toFixed(2)} s (BagIt, both manifests, signature, ${n} inclusion proofs, the full ledger's root; ${step7.detail})`);
  out.push(ratioLine('  verify-export vs sha256sum -c', verify.seconds, check.seconds, 0.8, false));
  await rm(base, { recursive: true, force: true });
  return out;
}

/** The README's worked example, run as written (as test/e2e/worked-example.test.ts runs it), in `base`. */
async function workedExample(base: string): Promise<void> {
  const readme = await readFile(resolve('README.md'), 'utf8');
  const start = readme.indexOf('\n## A whole case from the CLI\n');
  const end = readme.indexOf('\n## ', start + 1);
  const block = /```bash\n([\s\S]*?)```/.exec(readme.slice(start, end === -1 ? undefined : end))?.[1];
  if (start < 0 || block === undefined) throw new Error('README section "A whole case from the CLI" not found');
  const bin = join(base, 'bin');
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, 'custody'), `#!/bin/sh\nexec node ${JSON.stringify(CUSTODY)} "$@"\n`);
  await chmod(join(bin, 'custody'), 0o755);
  const inputs = await timeCommand('node', [resolve('dist/scripts/worked-example-data.js'), 'inputs', join(base, 'inputs')]);
  if (inputs.code !== 0) throw new Error(`worked example inputs failed: ${inputs.stderr}`);
  await writeFile(join(base, 'case.sh'), block);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, CUSTODY_CHECKOUT: resolve('.'), LANG: 'C.UTF-8' };
  const r = await timeCommand('bash', ['case.sh'], { cwd: base, env });
  if (r.code !== 0) throw new Error(`the worked example failed (${r.code}): ${r.stderr.slice(-2000)}`);
}
