// Near-duplicate search: exact all-pairs PDQ search over synthetic collections, against brute
// force on a 20,000-record subset in the same run (the peer, extrapolated quadratically). Two
// corpora: uniform hashes with planted near pairs, and a clustered collection (families of
// near-identical hashes, exact copies, turned copies). Each object has all the hashes the
// archive's search uses (similarity.service.ts), searched as the archive searches them: its 7
// dihedral variants (distance ≤ 31), and its 10 crop-region hashes against the other objects'
// full hashes (distance ≤ 24). Each size and search runs in a child process of its own (this
// module with NEAR_DUP_BENCH_RUN=corpus:size:search), so that the peak RSS reported is its alone.
// NEAR_DUP_SUBSET sets the brute-force subset (20,000 by default; smaller while iterating).
// At a size with a target, the uniform corpus is also searched by a native ceiling: the same
// plan and sweep in C (bench/native-ceiling/mih.c, compiled with gcc when there is one), to tell
// whether the target is within reach of this exact search on this machine at all.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bruteForcePairs,
  findPackedPairsParallel,
  findPairs,
  findPairsParallel,
  type HashRecord,
  type PackedHashes,
  type Pair,
  type PairColumns,
  planSubstrings,
} from '../src/analysis/near-duplicates/index.js';
import { timeCommand } from './measure.js';

const SUBSET = Number(process.env.NEAR_DUP_SUBSET ?? '20000');
const WORDS = 8;
/** Wall-clock targets (issue 14) per corpus, for both searches of one object set at 1M. */
const TARGET_SECONDS: Record<string, Map<number, number>> = {
  uniform: new Map([[1_000_000, 10]]),
  clustered: new Map([[1_000_000, 20]]),
};

/** The archive's two searches: hashes with their turns and flips, and region hashes against full hashes. */
const SEARCHES = {
  dihedral: { perRecord: 7, threshold: 31, title: 'dihedral variants, ≤ 31' },
  regions: { perRecord: 10, threshold: 24, title: 'crop regions against full hashes, ≤ 24' },
};
type SearchName = keyof typeof SEARCHES;

/** A synthetic collection: hashes packed as findPackedPairs takes them (on a SharedArrayBuffer). */
export interface Corpus {
  packed: PackedHashes;
  ids: Int32Array;
}

/** mulberry32, seeded: the corpora are the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

class Writer {
  readonly count: number;
  readonly words: Uint32Array;
  readonly next: () => number;

  readonly perRecord: number;

  constructor(count: number, seed: number, perRecord: number) {
    this.count = count;
    this.perRecord = perRecord;
    this.words = new Uint32Array(new SharedArrayBuffer(count * (perRecord + 1) * WORDS * 4));
    this.next = rng(seed);
  }

  /** Word offset of record r's hash (v = 0) or its variant v (1..perRecord). */
  at(r: number, v: number): number {
    return (v === 0 ? r : this.count + r * this.perRecord + v - 1) * WORDS;
  }

  random(to: number): void {
    for (let i = 0; i < WORDS; i++) this.words[to + i] = this.next();
  }

  /** Copies the hash at `from` to `to` with up to k random bits flipped. */
  near(to: number, from: number, k: number): void {
    this.words.copyWithin(to, from, from + WORDS);
    for (let i = 0; i < k; i++) {
      const bit = this.next() & 255;
      this.words[to + (bit >> 5)]! ^= 1 << (bit & 31);
    }
  }

  corpus(): Corpus {
    const { count, words, perRecord } = this;
    return {
      packed: { count, entries: count * (perRecord + 1), words, live: null, perRecord },
      ids: Int32Array.from({ length: count }, (_, i) => i),
    };
  }
}

/**
 * Uniform hashes; every 10th record planted near its predecessor at 0..40 bits, a third of them
 * through a variant. Variants are the 7 turns and flips (perRecord 7) or the region hashes (10).
 */
export function uniformCorpus(n: number, seed: number, perRecord = 7): Corpus {
  const w = new Writer(n, seed, perRecord);
  for (let r = 0; r < n; r++) {
    for (let v = 0; v <= perRecord; v++) w.random(w.at(r, v));
    if (r % 10 !== 1) continue;
    const d = w.next() % 41;
    const v = 1 + (w.next() % perRecord);
    // r is an edit of r - 1, a turned copy of it (r near a variant of r - 1), or the other way round
    const [to, from] = [
      [w.at(r, 0), w.at(r - 1, 0)],
      [w.at(r, 0), w.at(r - 1, v)],
      [w.at(r, v), w.at(r - 1, 0)],
    ][w.next() % 3]!;
    w.near(to!, from!, d);
  }
  return w.corpus();
}

/**
 * 40% unrelated images, 60% in families of 2–50 (skewed towards small) around a base:
 * exact copies (same hash and variants), edits (0–20 bits off, variants likewise) and turned
 * copies (hash near one of the base's variants).
 */
export function clusteredCorpus(n: number, seed: number, perRecord = 7): Corpus {
  const w = new Writer(n, seed, perRecord);
  const unit = (): number => w.next() / 2 ** 32;
  let r = 0;
  while (r < n) {
    const base = r;
    for (let v = 0; v <= perRecord; v++) w.random(w.at(base, v));
    const size = unit() < 0.4 ? 1 : 2 + Math.floor(48 * unit() ** 3);
    for (r = base + 1; r < Math.min(n, base + size); r++) {
      const kind = unit();
      const flips = w.next() % 21;
      for (let v = 0; v <= perRecord; v++) {
        if (kind < 0.15) w.near(w.at(r, v), w.at(base, v), 0);
        else if (kind < 0.25) w.random(w.at(r, v));
        else w.near(w.at(r, v), w.at(base, v), v === 0 ? flips : w.next() % 21);
      }
      if (kind >= 0.15 && kind < 0.25)
        w.near(w.at(r, 0), w.at(base, 1 + (w.next() % perRecord)), flips);
    }
  }
  return w.corpus();
}

/** HashRecord views over the packed words (no copies; each view still costs V8 ~100 bytes). */
function recordsOf(c: Corpus, limit = c.packed.count): HashRecord[] {
  const { count, words } = c.packed;
  const k = c.packed.perRecord ?? 7;
  const bytes = (entry: number): Uint8Array => new Uint8Array(words.buffer, entry * WORDS * 4, 32);
  return Array.from({ length: limit }, (_, r) => ({
    id: r,
    hash: bytes(r),
    dihedral: Array.from({ length: k }, (_, v) => bytes(count + r * k + v)),
  }));
}

async function timed<T>(
  f: () => T | Promise<T>,
): Promise<{ seconds: number; cpuSeconds: number; result: T }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await f();
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6, result };
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
const s = (x: number): string => `${x.toFixed(2)} s`;
const count = (n: number): string => n.toLocaleString('en');

const CORPORA = {
  uniform: { title: 'uniform, every 10th planted at 0..40 bits', seed: 1, make: uniformCorpus },
  clustered: {
    title: 'clustered: families of 2–50, copies, edits',
    seed: 2,
    make: clusteredCorpus,
  },
};
type CorpusName = keyof typeof CORPORA;

/** The corpus of one search: the region hashes are another draw (seed + 100) of the same shape. */
function corpusFor(name: CorpusName, search: SearchName, n: number): Corpus {
  const { make, seed } = CORPORA[name];
  const { perRecord } = SEARCHES[search];
  return make(n, search === 'dihedral' ? seed : seed + 100, perRecord);
}

type SubsetPair = [number, number, number, number];

/** Pair count, turned count, and the pairs within the first SUBSET records as [a, b, distance, turned]. */
function summarise(found: readonly Pair[] | PairColumns): {
  pairs: number;
  turned: number;
  subset: SubsetPair[];
} {
  const subset: SubsetPair[] = [];
  let turned = 0;
  if (Array.isArray(found)) {
    for (const p of found as readonly Pair[]) {
      const t = p.kind === 'pdq' ? 0 : 1;
      turned += t;
      if (p.b < SUBSET) subset.push([p.a, p.b, p.distance, t]);
    }
    return { pairs: found.length, turned, subset };
  }
  const c = found as PairColumns;
  for (let i = 0; i < c.length; i++) {
    turned += c.turned[i]!;
    if (c.b[i]! < SUBSET) subset.push([c.a[i]!, c.b[i]!, c.distance[i]!, c.turned[i]!]);
  }
  return { pairs: c.length, turned, subset };
}

const key = (p: Pair): string => `${p.a}-${p.b}`;

/** Recall and precision of `found` (restricted to the subset) against brute force, plus label agreement. */
function compare(found: readonly Pair[], truth: readonly Pair[]): string {
  const inSubset = found.filter((p) => p.b < SUBSET);
  const truthMap = new Map(truth.map((p) => [key(p), p]));
  let hit = 0;
  let sameLabel = 0;
  for (const p of inSubset) {
    const t = truthMap.get(key(p));
    if (t === undefined) continue;
    hit++;
    if (t.distance === p.distance && t.kind === p.kind) sameLabel++;
  }
  const recall = truth.length === 0 ? 1 : hit / truth.length;
  const precision = inSubset.length === 0 ? 1 : hit / inSubset.length;
  const ok = recall === 1 && precision === 1 && sameLabel === hit ? 'exact' : 'NOT EXACT';
  return `recall ${recall.toFixed(4)}, precision ${precision.toFixed(4)}, labels ${sameLabel}/${hit} (${truth.length} true pairs in the subset: ${ok})`;
}

/** What a child process measured: one search, alone in its process, so that peak RSS is its own. */
interface ChildReport {
  api: string;
  seconds: number;
  cpuSeconds: number;
  rssBefore: number;
  peakRss: number;
  pairs: number;
  turned: number;
  oneThread: { seconds: number; cpuSeconds: number } | null;
  subset: SubsetPair[];
}

/** Child side: builds the corpus, searches it, prints a ChildReport as one JSON line. */
async function runChild(name: CorpusName, n: number, search: SearchName): Promise<void> {
  const { perRecord, threshold } = SEARCHES[search];
  const corpus = corpusFor(name, search, n);
  const useRecords = n <= 200_000; // a million records as objects cost ~1.1 GB of V8 heap alone
  const records = useRecords ? recordsOf(corpus) : [];
  const opts = { threshold, dihedral: true, variantsPerRecord: perRecord };
  const rssBefore = process.memoryUsage().rss;
  const run = await timed<Pair[] | PairColumns>(() =>
    useRecords
      ? findPairsParallel(records, opts)
      : findPackedPairsParallel(corpus.packed, corpus.ids, threshold),
  );
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const oneThread = useRecords ? await timed(() => findPairs(records, opts)) : null;
  const report: ChildReport = {
    api: useRecords ? 'findPairsParallel(records)' : 'findPackedPairsParallel(packed)',
    seconds: run.seconds,
    cpuSeconds: run.cpuSeconds,
    rssBefore,
    peakRss,
    ...summarise(run.result),
    oneThread: oneThread && { seconds: oneThread.seconds, cpuSeconds: oneThread.cpuSeconds },
  };
  console.log(JSON.stringify(report));
}

async function runInChild(name: CorpusName, n: number, search: SearchName): Promise<ChildReport> {
  const env = { ...process.env, NEAR_DUP_BENCH_RUN: `${name}:${n}:${search}` };
  const child = await timeCommand(process.execPath, [fileURLToPath(import.meta.url)], { env });
  if (child.code !== 0) throw new Error(`near-duplicate run ${name}:${n}:${search} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop() ?? '') as ChildReport;
}

/** Brute force and findPairs on the first SUBSET records of one search's corpus (the same records at every size). */
async function benchSubset(
  name: CorpusName,
  search: SearchName,
): Promise<{ lines: string[]; truth: Pair[]; bruteSeconds: number }> {
  const { perRecord, threshold, title } = SEARCHES[search];
  const subRecords = recordsOf(corpusFor(name, search, SUBSET));
  const opts = { threshold, dihedral: true, variantsPerRecord: perRecord };
  const brute = await timed(() => bruteForcePairs(subRecords, opts));
  const ours = await timed(() => findPairs(subRecords, opts));
  const speedup = (brute.seconds / ours.seconds).toFixed(0);
  return {
    truth: brute.result,
    bruteSeconds: brute.seconds,
    lines: [
      `- ${title}`,
      `  brute force (peer), ${count(SUBSET)} records: ${s(brute.seconds)}, ${count(brute.result.length)} pairs`,
      `  findPairs, same records: ${s(ours.seconds)} (${speedup}× brute force); ${compare(ours.result, brute.result)}`,
    ],
  };
}

function sizeLines(n: number, r: ChildReport, bruteSeconds: number, truth: Pair[]): string[] {
  const peer = bruteSeconds * (n / SUBSET) ** 2;
  const out = [
    `  ${r.api}, ${count(n)} records: ${s(r.seconds)} wall, ${s(r.cpuSeconds)} CPU, ${count(r.pairs)} pairs (${count(r.turned)} through a variant)`,
  ];
  if (r.oneThread !== null)
    out.push(
      `    findPairs (one thread), same records: ${s(r.oneThread.seconds)} wall, ${s(r.oneThread.cpuSeconds)} CPU`,
    );
  out.push(
    `    peak RSS ${mb(r.peakRss)}, of which ${mb(r.rssBefore)} before the search (corpus, records); target ≤ 1000 MB: ${r.peakRss <= 1e9 ? 'meets' : 'MISSES'}`,
  );
  out.push(
    `    brute force extrapolated (n²): ${s(peer)} (${(peer / 3600).toFixed(1)} h); ratio ${(peer / r.seconds).toFixed(0)}×`,
  );
  const subset = r.subset.map(([a, b, distance, k]): Pair => ({
    a,
    b,
    distance,
    kind: k === 0 ? 'pdq' : 'pdq-dihedral',
  }));
  out.push(`    its pairs among the first ${count(SUBSET)} vs brute force: ${compare(subset, truth)}`);
  return out;
}

async function benchCorpus(name: CorpusName, sizes: number[]): Promise<string[]> {
  const out: string[] = [`-- ${CORPORA[name].title} --`];
  const subsets = new Map<SearchName, Awaited<ReturnType<typeof benchSubset>>>();
  for (const search of Object.keys(SEARCHES) as SearchName[]) {
    const sub = await benchSubset(name, search);
    subsets.set(search, sub);
    out.push(...sub.lines);
  }
  for (const n of sizes) {
    let wall = 0;
    let cpu = 0;
    const pairs = new Map<SearchName, number>();
    for (const search of Object.keys(SEARCHES) as SearchName[]) {
      const sub = subsets.get(search)!;
      const r = await runInChild(name, n, search);
      wall += r.seconds;
      cpu += r.cpuSeconds;
      pairs.set(search, r.pairs);
      out.push(`- ${SEARCHES[search].title}`, ...sizeLines(n, r, sub.bruteSeconds, sub.truth));
    }
    const target = TARGET_SECONDS[name]?.get(n);
    const verdict =
      target === undefined ? '' : `; target ≤ ${target} s: ${wall <= target ? 'meets' : 'MISSES'}`;
    out.push(`${count(n)} objects, both searches: ${s(wall)} wall, ${s(cpu)} CPU${verdict}`);
    if (name === 'uniform' && target !== undefined) out.push(...nativeCeiling(n, pairs, target));
  }
  return out;
}

/**
 * The native ceiling, for the uniform corpus at a size with a target: the same corpus, plan and
 * tile sweep in C (bench/native-ceiling/mih.c, compiled here with gcc), each search timed in the
 * same run. It says how fast this machine runs this exact search at all, so whether a target is
 * within reach of any implementation of it; the pair counts must equal ours.
 */
function nativeCeiling(n: number, ours: ReadonlyMap<SearchName, number>, target: number): string[] {
  const binary = nativeBinary();
  if (typeof binary !== 'string') return [`  native ceiling: not measured (${binary.reason})`];
  const threads = availableParallelism();
  const out = [
    `  native ceiling: the same plan and sweep in C (bench/native-ceiling/mih.c, gcc -O3 -march=native, ${threads} threads)`,
  ];
  let total = 0;
  let sweeps = 0;
  for (const search of Object.keys(SEARCHES) as SearchName[]) {
    const { perRecord, threshold } = SEARCHES[search];
    const seed = CORPORA.uniform.seed + (search === 'dihedral' ? 0 : 100); // as corpusFor
    // The archive plans on its distinct hashes; a uniform corpus has no two alike.
    const plan = planSubstrings(n, n * (perRecord + 1), threshold);
    const args = [n, perRecord, threshold, seed, threads, ...plan.flatMap((p) => [p.start, p.length, p.radius])];
    const r = spawnSync(binary, args.map(String), { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`native ceiling (${search}) failed: ${r.stderr}`);
    const m = JSON.parse(r.stdout) as { build_s: number; sweep_s: number; total_s: number; pairs: number };
    total += m.total_s;
    sweeps += m.sweep_s;
    const same = m.pairs === ours.get(search) ? 'the same as ours' : `OURS: ${count(ours.get(search) ?? 0)}, NOT THE SAME`;
    out.push(
      `    ${search}: ${s(m.total_s)} (keys and scatter ${s(m.build_s)} on one thread, sweep ${s(m.sweep_s)}), ${count(m.pairs)} pairs, ${same}`,
    );
  }
  out.push(
    `    both searches natively: ${s(total)}, of which the sweeps on ${threads} threads ${s(sweeps)}; target ≤ ${target} s: ${total <= target ? 'within reach' : 'MISSES even natively'}`,
  );
  return out;
}

let compiled: string | { reason: string } | undefined;

/** The ceiling's binary, compiled once per run into a temporary folder (or why it could not be). */
function nativeBinary(): string | { reason: string } {
  if (compiled !== undefined) return compiled;
  const root = join(import.meta.dirname, import.meta.dirname.includes(`${sep}dist${sep}`) ? '../..' : '..');
  const binary = join(mkdtempSync(join(tmpdir(), 'custody-mih-')), 'mih');
  const r = spawnSync(
    'gcc',
    ['-O3', '-march=native', '-pthread', '-o', binary, join(root, 'bench/native-ceiling/mih.c')],
    { encoding: 'utf8' },
  );
  compiled = r.status === 0 ? binary : { reason: r.error?.message ?? `gcc: ${r.stderr.trim()}` };
  return compiled;
}

/** Lines to print; sizes from NEAR_DUP_SIZES (default 100000,1000000). Each size runs in a child process. */
export async function benchNearDuplicates(): Promise<string[]> {
  const sizes = (process.env.NEAR_DUP_SIZES ?? '100000,1000000').split(',').map(Number);
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const out = [`load average ${load} (2 cores, shared)`];
  out.push(...(await benchCorpus('uniform', sizes)));
  out.push(...(await benchCorpus('clustered', sizes)));
  return out;
}

const childRun = process.env.NEAR_DUP_BENCH_RUN;
if (childRun !== undefined) {
  const [name, n, search] = childRun.split(':');
  await runChild(name as CorpusName, Number(n), (search ?? 'dihedral') as SearchName);
}
