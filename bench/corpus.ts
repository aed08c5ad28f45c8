// Benchmark corpora, generated in code and cached under bench/.corpus (git-ignored).
import { existsSync } from 'node:fs';
import { link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { MANIFEST_NAME, planCollection, writeCollection } from '../src/demo/index.js';

export interface Corpus {
  dir: string;
  files: string[];
  bytes: number;
}

/**
 * ≥ 2,000 photo-like JPEGs of 0.5–3 MB (issue: archive foundation benchmark). Deterministic
 * from its seed, so every run and every machine measures the same bytes.
 */
export async function ensureJpegCorpus(
  name: string,
  count: number,
  megapixels: [number, number],
): Promise<Corpus> {
  const base = join('bench', '.corpus', name);
  const dir = join(base, 'files');
  if (!existsSync(join(base, 'complete'))) {
    await rm(base, { recursive: true, force: true });
    const plan = planCollection({ count, seed: `bench-${name}`, megapixels, duplicateRate: 0.02 });
    const started = Date.now();
    await writeCollection(dir, plan, {
      onProgress: (done, total) => {
        if (done % 100 === 0 || done === total)
          process.stderr.write(`\r  generating corpus ${name}: ${done}/${total}`);
      },
    });
    process.stderr.write(` (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
    await rename(join(dir, MANIFEST_NAME), join(base, MANIFEST_NAME));
    await writeFile(join(base, 'complete'), '');
  }
  const files = await listFiles(dir);
  let bytes = 0;
  for (const f of files) bytes += (await stat(f)).size;
  return { dir, files, bytes };
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(join(e.parentPath, e.name));
  }
  return out.sort();
}

/**
 * The whole corpus folder, or a folder of hard links to its first `count` files, kept under
 * bench/.work/`name`-`count` for the next run.
 */
export async function subsetDir(corpus: Corpus, count: number, name: string): Promise<string> {
  if (count >= corpus.files.length) return corpus.dir;
  const dir = resolve('bench', '.work', `${name}-${count}`);
  if (existsSync(join(dir, '.complete'))) return join(dir, 'files');
  await rm(dir, { recursive: true, force: true });
  for (const f of corpus.files.slice(0, count)) {
    const to = join(dir, 'files', relative(corpus.dir, f));
    await mkdir(dirname(to), { recursive: true });
    await link(f, to);
  }
  await writeFile(join(dir, '.complete'), '');
  return join(dir, 'files');
}
