// Near-duplicate search: exact all-pairs PDQ search (distance ≤ 31, dihedral variants included)
// over synthetic collections, against brute force on a 20,000-record subset in the same run (the
// peer, extrapolated quadratically). Two corpora: uniform hashes with planted near pairs, and a
// clustered collection (families of near-identical hashes, exact copies, turned copies). Each
// size runs in a child process of its own (this module with NEAR_DUP_BENCH_RUN=corpus:size), so
// that the peak RSS reported is that search's alone.
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  bruteForcePairs,
  findPackedPairsParallel,
  findPairs,
  findPairsParallel,
  type HashRecord,
  type PackedHashes,
  type Pair,
} from '../src/analysis/near-duplicates/index.js';
import { timeCommand } from './measure.js';

const THRESHOLD = 31;
const SUBSET = 20_000;
const WORDS = 8;
const TARGET_SECONDS = new Map([
  [100_000, 10],
  [1_000_000, 300],
]);

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

  constructor(count: number, seed: number) {
    this.count = count;
    this.words = new Uint32Array(new SharedArrayBuffer(count * 8 * WORDS * 4));
    this.next = rng(seed);
  }

  /** Word offset of record r's hash (v = 0) or its variant v (1..7). */
  at(r: number, v: number): number {
    return (v === 0 ? r : this.count + r * 7 + v - 1) * WORDS;
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
    const { count, words } = this;
    return {
      packed: { count, entries: count * 8, words, live: null },
      ids: Int32Array.from({ length: count }, (_, i) => i),
    };
  }
}

/** Uniform hashes; every 10th record planted near its predecessor at 0..40 bits, a third of them through a variant. */
export function uniformCorpus(n: number, seed: number): Corpus {
  const w = new Writer(n, seed);
  for (let r = 0; r < n; r++) {
    for (let v = 0; v < 8; v++) w.random(w.at(r, v));
    if (r % 10 !== 1) continue;
    const d = w.next() % 41;
    const v = 1 + (w.next() % 7);
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
export function clusteredCorpus(n: number, seed: number): Corpus {
  const w = new Writer(n, seed);
  const unit = (): number => w.next() / 2 ** 32;
  let r = 0;
  while (r < n) {
    const base = r;
    for (let v = 0; v < 8; v++) w.random(w.at(base, v));
    const size = unit() < 0.4 ? 1 : 2 + Math.floor(48 * unit() ** 3);
    for (r = base + 1; r < Math.min(n, base + size); r++) {
      const kind = unit();
      const flips = w.next() % 21;
      for (let v = 0; v < 8; v++) {
        if (kind < 0.15) w.near(w.at(r, v), w.at(base, v), 0);
        else if (kind < 0.25) w.random(w.at(r, v));
        else w.near(w.at(r, v), w.at(base, v), v === 0 ? flips : w.next() % 21);
      }
      if (kind >= 0.15 && kind < 0.25) w.near(w.at(r, 0), w.at(base, 1 + (w.next() % 7)), flips);
    }
  }
  return w.corpus();
}

/** HashRecord views over the packed words (no copies; each view still costs V8 ~100 bytes). */
function recordsOf(c: Corpus, limit = c.packed.count): HashRecord[] {
  const { count, words } = c.packed;
  const bytes = (entry: number): Uint8Array => new Uint8Array(words.buffer, entry * WORDS * 4, 32);
  return Array.from({ length: limit }, (_, r) => ({
    id: r,
    hash: bytes(r),
    dihedral: Array.from({ length: 7 }, (_, v) => bytes(count + r * 7 + v)),
  }));
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

async function timed(
  f: () => Pair[] | Promise<Pair[]>,
): Promise<{ seconds: number; cpuSeconds: number; pairs: Pair[] }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const pairs = await f();
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6, pairs };
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

/** What a child process measured: one search, alone in its process, so that peak RSS is its own. */
interface ChildReport {
  api: string;
  seconds: number;
  cpuSeconds: number;
  rssBefore: number;
  peakRss: number;
  pairs: number;
  dihedral: number;
  oneThread: { seconds: number; cpuSeconds: number } | null;
  /** Pairs within the first SUBSET records, as [a, b, distance, dihedral ? 1 : 0]. */
  subset: [number, number, number, number][];
}

/** Child side: builds the corpus, searches it, prints a ChildReport as one JSON line. */
async function runChild(name: CorpusName, n: number): Promise<void> {
  const corpus = CORPORA[name].make(n, CORPORA[name].seed);
  const useRecords = n <= 200_000; // a million records as objects cost ~1.1 GB of V8 heap alone
  const records = useRecords ? recordsOf(corpus) : [];
  const rssBefore = process.memoryUsage().rss;
  const run = await timed(() =>
    useRecords
      ? findPairsParallel(records, { threshold: THRESHOLD, dihedral: true })
      : findPackedPairsParallel(corpus.packed, corpus.ids, THRESHOLD),
  );
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const oneThread = useRecords
    ? await timed(() => findPairs(records, { threshold: THRESHOLD, dihedral: true }))
    : null;
  const report: ChildReport = {
    api: useRecords ? 'findPairsParallel(records)' : 'findPackedPairsParallel(packed)',
    seconds: run.seconds,
    cpuSeconds: run.cpuSeconds,
    rssBefore,
    peakRss,
    pairs: run.pairs.length,
    dihedral: run.pairs.filter((p) => p.kind === 'pdq-dihedral').length,
    oneThread: oneThread && { seconds: oneThread.seconds, cpuSeconds: oneThread.cpuSeconds },
    subset: run.pairs
      .filter((p) => p.b < SUBSET)
      .map((p) => [p.a, p.b, p.distance, p.kind === 'pdq' ? 0 : 1]),
  };
  console.log(JSON.stringify(report));
}

async function runInChild(name: CorpusName, n: number): Promise<ChildReport> {
  const env = { ...process.env, NEAR_DUP_BENCH_RUN: `${name}:${n}` };
  const child = await timeCommand(process.execPath, [fileURLToPath(import.meta.url)], { env });
  if (child.code !== 0) throw new Error(`near-duplicate run ${name}:${n} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop() ?? '') as ChildReport;
}

async function benchCorpus(name: CorpusName, sizes: number[]): Promise<string[]> {
  const { title, make, seed } = CORPORA[name];
  const out: string[] = [`-- ${title} --`];
  const subRecords = recordsOf(make(SUBSET, seed)); // the first SUBSET records of every size
  const opts = { threshold: THRESHOLD, dihedral: true };
  const brute = await timed(() => bruteForcePairs(subRecords, opts));
  const ours = await timed(() => findPairs(subRecords, opts));
  const speedup = (brute.seconds / ours.seconds).toFixed(0);
  out.push(
    `brute force (peer), ${count(SUBSET)} records: ${s(brute.seconds)}, ${count(brute.pairs.length)} pairs`,
  );
  out.push(
    `findPairs, same records: ${s(ours.seconds)} (${speedup}× brute force); ${compare(ours.pairs, brute.pairs)}`,
  );
  for (const n of sizes) {
    const r = await runInChild(name, n);
    const peer = brute.seconds * (n / SUBSET) ** 2;
    const target = TARGET_SECONDS.get(n);
    const verdict =
      target === undefined
        ? ''
        : `; target ≤ ${target} s: ${r.seconds <= target ? 'meets' : 'MISSES'}`;
    out.push(
      `${r.api}, ${count(n)} records: ${s(r.seconds)} wall, ${s(r.cpuSeconds)} CPU, ${count(r.pairs)} pairs (${count(r.dihedral)} dihedral)${verdict}`,
    );
    if (r.oneThread !== null)
      out.push(
        `  findPairs (one thread), same records: ${s(r.oneThread.seconds)} wall, ${s(r.oneThread.cpuSeconds)} CPU`,
      );
    out.push(
      `  peak RSS ${mb(r.peakRss)}, of which ${mb(r.rssBefore)} before the search (corpus, records); target ≤ 2000 MB: ${r.peakRss <= 2e9 ? 'meets' : 'MISSES'}`,
    );
    out.push(
      `  brute force extrapolated (n²): ${s(peer)} (${(peer / 3600).toFixed(1)} h); ratio ${(peer / r.seconds).toFixed(0)}×`,
    );
    const subset = r.subset.map(([a, b, distance, k]): Pair => ({
      a,
      b,
      distance,
      kind: k === 0 ? 'pdq' : 'pdq-dihedral',
    }));
    out.push(
      `  its pairs among the first ${count(SUBSET)} vs brute force: ${compare(subset, brute.pairs)}`,
    );
  }
  return out;
}

/** Lines to print; sizes from NEAR_DUP_SIZES (default 100000,1000000). Each size runs in a child process. */
export async function benchNearDuplicates(): Promise<string[]> {
  const sizes = (process.env.NEAR_DUP_SIZES ?? '100000,1000000').split(',').map(Number);
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const out = [
    `threshold ${THRESHOLD}, dihedral variants on; load average ${load} (2 cores, shared)`,
  ];
  out.push(...(await benchCorpus('uniform', sizes)));
  out.push(...(await benchCorpus('clustered', sizes)));
  return out;
}

const childRun = process.env.NEAR_DUP_BENCH_RUN;
if (childRun !== undefined) {
  const [name, n] = childRun.split(':');
  await runChild(name as CorpusName, Number(n));
}
