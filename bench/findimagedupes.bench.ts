// Our whole analysis + near-duplicate search against `findimagedupes` (Debian package; issue 14:
// ≥ 10×) on the same files in the same run: `custody init` + `custody ingest DIR --analyze` +
// `custody clusters --json` (every object hashed, its variants and regions, then the exact search
// over the archive) against `findimagedupes -t 90% -R DIR` (GraphicsMagick fingerprints, then its
// own comparison). Both get the same folder, exact copies included, with a warm page cache.
// Then the analysis bench's image-work-only pass (one shrink-on-load decode, a 256 px WebP, a 64×64
// grey raster: no hashing, no store, no search) on the same images against the same peer: the most
// that a pipeline decoding each image once and making its previews could reach, whatever else it
// did better.
// Skipped with a message when findimagedupes is not installed
// (`scripts/install-system-deps.sh --bench` installs it).
import { spawnSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { baseline, distinctFiles } from './analysis-pipeline.bench.js';
import { subsetDir, type Corpus } from './corpus.js';
import { ratioLine, timeWithCpu, warm } from './measure.js';

const CUSTODY = resolve('bin/custody.js');
const WORK = resolve('bench', '.work');
/** findimagedupes' threshold as the brief gives it: 90 % of the fingerprint bits alike. */
const PEER_ARGS = ['-t', '90%', '-R'];
/** Issue 14: ours ≥ 10× findimagedupes in wall time. */
const TARGET = 10;

interface Run {
  seconds: number;
  cpu: number;
}

/** Lines to print; the first `count` files of the analysis bench's corpus. */
export async function benchFindimagedupes(corpus: Corpus, count: number): Promise<string[]> {
  const peerVersion = findimagedupesVersion();
  if (peerVersion === null) {
    return [
      'skipped: findimagedupes is not installed (Debian package findimagedupes; scripts/install-system-deps.sh --bench)',
    ];
  }
  await mkdir(WORK, { recursive: true });
  const files = corpus.files.slice(0, count);
  const dir = await subsetDir(corpus, files.length, 'findimagedupes-subset');
  const out = [
    `${files.length} JPEGs of 6–12 MP (exact copies included) in ${relative('.', dir)}; findimagedupes ${peerVersion}`,
  ];

  warm(files);
  const ours = await custodyRun(dir);
  out.push(
    line('custody init + ingest --analyze + clusters', ours.run, files.length) +
      ` (${ours.clusters} clusters)`,
  );
  warm(files);
  const peer = await timeWithCpu(
    'findimagedupes',
    [...PEER_ARGS, dir],
    process.env,
    join(WORK, 'findimagedupes-time.txt'),
  );
  if (peer.code !== 0)
    throw new Error(`findimagedupes failed (${peer.code}): ${peer.stderr.slice(0, 2000)}`);
  const groups = peer.stdout.split('\n').filter((l) => l.trim() !== '').length;
  out.push(
    line(`findimagedupes ${PEER_ARGS.join(' ')} (peer)`, peer, files.length) +
      ` (${groups} groups)`,
  );
  out.push(
    ratioLine('  ours vs findimagedupes, wall', 1 / ours.run.seconds, 1 / peer.seconds, TARGET) +
      `; by CPU time ${(peer.cpu / ours.run.cpu).toFixed(2)}×`,
  );
  // The ceiling: the image work alone, on each distinct image once (as the archive analyses an
  // exact copy once), with its process start-up counted as ours is.
  const distinct = await distinctFiles(corpus, files);
  const list = join(WORK, 'findimagedupes-distinct.txt');
  await writeFile(list, distinct.join('\n') + '\n');
  warm(files);
  const floor = await baseline('image-only', list);
  out.push(
    line(`image work alone, ${distinct.length} distinct images`, floor, files.length) +
      ' (no hashing, store or search)',
  );
  out.push(
    `  image work alone vs findimagedupes, wall: ${(peer.seconds / floor.seconds).toFixed(2)}×: ` +
      `the ceiling of a pipeline that decodes each image once and makes its previews (target ${TARGET}×)`,
  );
  return out;
}

function line(label: string, r: Run, images: number): string {
  return (
    `${label.padEnd(48)} ${r.seconds.toFixed(1).padStart(6)} s, ${(images / r.seconds).toFixed(2).padStart(6)} images/s, ` +
    `CPU ${r.cpu.toFixed(1)} s = ${((1000 * r.cpu) / images).toFixed(1)} ms/image`
  );
}

/** The installed version, or null when findimagedupes cannot be run. */
function findimagedupesVersion(): string | null {
  const r = spawnSync('findimagedupes', ['--version'], { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) return null;
  return /(\d[\w.~+-]*)/.exec(r.stdout + r.stderr)?.[1] ?? 'unknown version';
}

/** init, ingest with analysis, then the clusters over the whole archive, in a fresh archive. */
async function custodyRun(dir: string): Promise<{ run: Run; clusters: number }> {
  const archive = join(WORK, 'findimagedupes-archive');
  await rm(archive, { recursive: true, force: true });
  const env = { ...process.env, CUSTODY_ARCHIVE: archive, CUSTODY_ACTOR: 'bench' };
  const steps: [string, string[]][] = [
    ['init', []],
    ['ingest', [dir, '--source', 'BENCH', '--new-source', '--analyze', '--json']],
    ['clusters', ['--json']],
  ];
  let seconds = 0;
  let cpu = 0;
  let last = '';
  for (const [command, args] of steps) {
    const r = await timeWithCpu(
      'node',
      [CUSTODY, command, ...args],
      env,
      join(WORK, 'findimagedupes-time.txt'),
    );
    if (r.code !== 0)
      throw new Error(`custody ${command} failed (${r.code}): ${r.stderr.slice(0, 2000)}`);
    seconds += r.seconds;
    cpu += r.cpu;
    last = r.stdout;
  }
  await rm(archive, { recursive: true, force: true });
  return { run: { seconds, cpu }, clusters: (JSON.parse(last) as unknown[]).length };
}
