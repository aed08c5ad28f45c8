// Ingest + analysis benchmark: `custody init` + `custody ingest DIR --analyze` on 6–12 MP JPEGs
// (hash, store, ledger, index, exifr metadata, JPEG structure, one shrink-on-load decode → PDQ
// with dihedral variants, crop signal, 256 px previews plain and blurred, C2PA), against two peers
// on the same images in the same run: image work only (one 256 px shrink-on-load decode, a WebP,
// a 64×64 grey raster) and a conventional photo-library pipeline (ExifTool in batch mode, then
// one sharp pass per derivative). Also glibc's transparent huge pages for malloc
// (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), and a per-stage profile over ~50 files.
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { MANIFEST_NAME } from '../src/demo/index.js';
import { subsetDir, type Corpus } from './corpus.js';
import { mb, ratioLine, timeCommand, timeWithCpu, warm } from './measure.js';

const CUSTODY = resolve('bin/custody.js');
const WORK = resolve('bench', '.work');
const PROFILE_FILES = 50;
const HUGETLB = 'glibc.malloc.hugetlb=1';

export interface Run {
  seconds: number;
  /** CPU time, user + system, of the process and the children it waited for (ExifTool too). */
  cpu: number;
  images: number;
  peakRss: number;
  analysed?: number;
}

export async function benchAnalysisPipeline(corpus: Corpus, count: number): Promise<string[]> {
  await mkdir(WORK, { recursive: true });
  const dir = await subsetDir(corpus, count, 'analysis-subset');
  const files = corpus.files.slice(0, count);
  // Exact copies are one object in the archive and analysed once; the peers get the distinct
  // images only (first file per digest in the corpus manifest), so every side does the same work.
  const distinct = await distinctFiles(corpus, files);
  const list = join(WORK, 'analysis-files.txt');
  await writeFile(list, distinct.join('\n') + '\n');
  let bytes = 0;
  for (const f of files) bytes += (await stat(f)).size;
  const out = [
    `corpus: ${files.length} JPEGs of 6–12 MP, ${mb(bytes)}, ${distinct.length} distinct images; ${relative('.', dir)}`,
  ];

  const line = (label: string, r: Run): string =>
    `${label.padEnd(38)} ${r.seconds.toFixed(1).padStart(6)} s, ${(r.images / r.seconds).toFixed(2).padStart(6)} images/s, ` +
    `CPU ${r.cpu.toFixed(1)} s = ${((1000 * r.cpu) / r.images).toFixed(1)} ms/image, peak RSS ${mb(r.peakRss)}`;
  const repeat = Number(process.env.BENCH_REPEAT ?? '1');
  const best = async (fn: () => Promise<Run>): Promise<Run> => {
    let b: Run | null = null;
    for (let i = 0; i < repeat; i++) {
      warm(files);
      const r = await fn();
      if (b === null || r.seconds < b.seconds) b = r;
    }
    return b!;
  };

  const pipe = await best(() => pipeline(dir, distinct.length, {}));
  out.push(line('custody init + ingest --analyze', pipe) + ` (${pipe.analysed} objects analysed)`);
  const huge = await best(() => pipeline(dir, distinct.length, { GLIBC_TUNABLES: HUGETLB }));
  out.push(line(`  same, GLIBC_TUNABLES=${HUGETLB}`, huge) + ` (THP ${thpMode()})`);
  const intake = await best(() => pipeline(dir, distinct.length, {}, false));
  out.push(
    line('  intake alone (no --analyze)', intake) +
      ` (${((100 * intake.seconds) / pipe.seconds).toFixed(0)} % of the whole; with --analyze the analysis runs beside it)`,
  );
  const imageOnly = await best(() => baseline('image-only', list));
  out.push(line('image work only (peer a)', imageOnly));
  const conv = await best(() => baseline('conventional', list));
  out.push(line('conventional pipeline (peer b)', conv));

  const rate = (r: Run): number => r.images / r.seconds;
  const perCpu = (r: Run): number => r.images / r.cpu;
  out.push(
    ratioLine('  whole pipeline vs image work only', rate(pipe), rate(imageOnly), 0.9) +
      `; by CPU time ${(perCpu(pipe) / perCpu(imageOnly)).toFixed(2)}×`,
  );
  out.push(
    ratioLine('  whole pipeline vs conventional', rate(pipe), rate(conv), 1.5) +
      `; by CPU time ${(perCpu(pipe) / perCpu(conv)).toFixed(2)}×`,
  );
  out.push(
    `  hugetlb: wall ${(pipe.seconds / huge.seconds).toFixed(2)}×, CPU ${(pipe.cpu / huge.cpu).toFixed(2)}× (above 1: faster with it)`,
  );
  out.push(
    `  peak RSS of the whole pipeline: ${mb(pipe.peakRss)} (target ≤ 1 GB, ${pipe.peakRss <= 1e9 ? 'meets' : 'MISSES'})`,
  );

  const profileList = join(WORK, 'profile-files.txt');
  await writeFile(profileList, distinct.slice(0, PROFILE_FILES).join('\n') + '\n');
  warm(distinct.slice(0, PROFILE_FILES));
  const prof = await timeCommand('node', ['dist/bench/analysis-profile.js', profileList]);
  if (prof.code !== 0) throw new Error(`profile failed: ${prof.stderr}`);
  const p = JSON.parse(prof.stdout) as {
    images: number;
    perImage: { stage: string; wallMs: number; cpuMs: number }[];
  };
  out.push(
    `profile, one image at a time over ${p.images} files (ms per image; CPU = all threads of the process):`,
  );
  const analysisStages = p.perImage.filter(
    (s) => !s.stage.includes(':') && !s.stage.includes('whole'),
  );
  // 'alt:' rows are proposals timed on the same rasters; they are not part of the sum
  const sum = analysisStages.reduce((a, s) => ({ wall: a.wall + s.wallMs, cpu: a.cpu + s.cpuMs }), {
    wall: 0,
    cpu: 0,
  });
  for (const s of p.perImage) {
    const share = analysisStages.includes(s)
      ? ` ${((100 * s.cpuMs) / sum.cpu).toFixed(0).padStart(3)} % of CPU`
      : '';
    out.push(
      `  ${s.stage.padEnd(42)} wall ${s.wallMs.toFixed(1).padStart(7)}  CPU ${s.cpuMs.toFixed(1).padStart(7)}${share}`,
    );
  }
  out.push(
    `  ${'sum of the analysis stages'.padEnd(42)} wall ${sum.wall.toFixed(1).padStart(7)}  CPU ${sum.cpu.toFixed(1).padStart(7)}`,
  );
  return out;
}

/** `custody init` + `custody ingest DIR --source BENCH --new-source --analyze --json` in a fresh archive. */
async function pipeline(
  dir: string,
  distinct: number,
  extraEnv: NodeJS.ProcessEnv,
  analyze = true,
): Promise<Run> {
  const archive = join(WORK, 'analysis-archive');
  await rm(archive, { recursive: true, force: true });
  const env = { ...process.env, ...extraEnv, CUSTODY_ARCHIVE: archive, CUSTODY_ACTOR: 'bench' };
  const init = await timeWithCpu('node', [CUSTODY, 'init'], env, join(WORK, 'time.txt'));
  if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
  const args = [
    CUSTODY,
    'ingest',
    dir,
    '--source',
    'BENCH',
    '--new-source',
    ...(analyze ? ['--analyze'] : []),
    '--json',
  ];
  const ingest = await timeWithCpu('node', args, env, join(WORK, 'time.txt'));
  if (ingest.code !== 0)
    throw new Error(`ingest failed (${ingest.code}): ${ingest.stderr.slice(0, 2000)}`);
  const r = JSON.parse(ingest.stdout) as {
    analysis: { done: number; failed: unknown[] } | null;
    peak_rss_bytes: number;
  };
  if (r.analysis !== null && r.analysis.failed.length > 0)
    throw new Error(`analysis failed for ${r.analysis.failed.length} objects`);
  await rm(archive, { recursive: true, force: true });
  return {
    seconds: init.seconds + ingest.seconds,
    cpu: init.cpu + ingest.cpu,
    images: distinct,
    peakRss: r.peak_rss_bytes,
    analysed: r.analysis?.done ?? 0,
  };
}

/** One of the two peer pipelines (bench/analysis-baselines.ts) over the files listed in `list`. */
export async function baseline(mode: 'image-only' | 'conventional', list: string): Promise<Run> {
  const r = await timeWithCpu(
    'node',
    ['dist/bench/analysis-baselines.js', mode, list, join(WORK, `baseline-${mode}`)],
    process.env,
    join(WORK, 'time.txt'),
  );
  if (r.code !== 0) throw new Error(`${mode} baseline failed: ${r.stderr}`);
  const j = JSON.parse(r.stdout) as { images: number; seconds: number; peak_rss_bytes: number };
  // Process start-up and module loading count, as they do for the custody commands.
  return { seconds: r.seconds, cpu: r.cpu, images: j.images, peakRss: j.peak_rss_bytes };
}

function thpMode(): string {
  try {
    return (
      /\[(\w+)\]/.exec(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1] ??
      'unknown'
    );
  } catch {
    return 'unknown';
  }
}

/** `files` without exact copies of an earlier one (by the digests of the corpus manifest). */
export async function distinctFiles(corpus: Corpus, files: string[]): Promise<string[]> {
  const digestOf = new Map<string, string>();
  for (const l of (await readFile(join(dirname(corpus.dir), MANIFEST_NAME), 'utf8')).split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(l);
    if (m !== null) digestOf.set(join(corpus.dir, m[2]!), m[1]!);
  }
  const seen = new Set<string>();
  return files.filter((f) => {
    const d = digestOf.get(f) ?? f;
    if (seen.has(d)) return false;
    seen.add(d);
    return true;
  });
}
