// The same search on worker threads: the workers sort each pass into SharedArrayBuffers (each
// phase of the sort in parts, pass.ts), then sweep its tiles, taking chunks from one Atomics
// counter.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { collectPairs, pairsOf, type Scratch } from './collect.js';
import { DEFAULT_THRESHOLD, type FindPairsOptions } from './find-pairs.js';
import {
  checkPacked,
  checkThreshold,
  idsOf,
  packRecords,
  type HashRecord,
  type PackedHashes,
  type Pair,
  type PairColumns,
  type RecordIds,
} from './packed.js';
import type { Units } from './dedupe.js';
import type { Substring } from './plan.js';
import { sortPass, type SortJob } from './pass.js';
import { passSortOf, prepareSearch, spentBuffers, sweepJob } from './search.js';
import { sweepQueries, type Hits, type SweepJob } from './sweep.js';

// Plain JavaScript evaluated from a string (as in store/hash-files.adapter.ts), built from the
// kernel's own source so that compiled code and TypeScript under test run the same function.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const sweepQueries = ${sweepQueries.toString()};
const sortPass = ${sortPass.toString()};
parentPort.on('message', (job) => {
  if ('phase' in job) {
    sortPass(job);
    parentPort.postMessage([]);
    return;
  }
  const hits = sweepQueries(job);
  parentPort.postMessage(hits, hits.flatMap((h) => [h.a.buffer, h.b.buffer, h.d.buffer]));
});
`;

export interface ParallelOptions {
  /** Worker threads sweeping (the main thread sorts); one per available core by default. */
  threads?: number;
}

/** findPairs on worker threads; same result, same order. */
export async function findPairsParallel(
  records: readonly HashRecord[],
  opts: FindPairsOptions & ParallelOptions,
): Promise<Pair[]> {
  const threshold = checkThreshold(opts.threshold ?? DEFAULT_THRESHOLD);
  const ids = idsOf(records);
  const packed = packRecords(records, opts.dihedral, true, opts.variantsPerRecord);
  const within = checkThreshold(opts.completeWithin ?? threshold);
  return pairsOf(await columnsOf(packed, ids, threshold, opts, undefined, within));
}

/** findPackedPairs on worker threads (words not on a SharedArrayBuffer are copied to one). */
export async function findPackedPairsParallel(
  packed: PackedHashes,
  ids: RecordIds,
  threshold: number,
  opts: ParallelOptions = {},
  plan?: Substring[],
): Promise<PairColumns> {
  checkPacked(packed, ids);
  return columnsOf(packed, ids, checkThreshold(threshold), opts, plan);
}

async function columnsOf(
  packed: PackedHashes,
  ids: RecordIds,
  threshold: number,
  opts: ParallelOptions,
  plan?: Substring[],
  completeWithin = threshold,
): Promise<PairColumns> {
  const shared =
    packed.words.buffer instanceof SharedArrayBuffer
      ? packed
      : { ...packed, words: toShared(packed.words) };
  const threads = Math.max(1, opts.threads ?? availableParallelism());
  const workers = Array.from({ length: threads }, () => new Worker(WORKER_SOURCE, { eval: true }));
  let found: { units: Units; hits: Hits[]; scratch: Scratch };
  try {
    found = await searchUnits(shared, threshold, workers, plan, completeWithin);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return collectPairs(packed.count, found.units, found.hits, ids, packed.perRecord, found.scratch);
}

async function searchUnits(
  packed: PackedHashes,
  threshold: number,
  workers: Worker[],
  plan: Substring[] | undefined,
  completeWithin: number,
): Promise<{ units: Units; hits: Hits[]; scratch: Scratch }> {
  const prepared = prepareSearch(packed, threshold, plan, true, completeWithin);
  const hits: Hits[] = [];
  const counter = new Int32Array(new SharedArrayBuffer(4));
  for (let j = 0; j < prepared.plan.length; j++) {
    const sort = passSortOf(prepared, j, workers.length);
    await runOn(workers, sort.count());
    await runOn(workers, sort.scatter());
    await runOn(workers, sort.groups());
    sort.finish();
    const job = sweepJob(prepared, j, counter);
    counter[0] = 0;
    for (const swept of await Promise.all(workers.map((w) => runJob(w, job)))) hits.push(...swept);
  }
  return { units: prepared.units, hits, scratch: spentBuffers(prepared.buffers) };
}

/** Runs job i on worker i (a sort phase's parts: no more of them than workers). */
async function runOn(workers: Worker[], jobs: SortJob[]): Promise<void> {
  await Promise.all(jobs.map((job, i) => runJob(workers[i]!, job)));
}

function runJob(worker: Worker, job: SweepJob | SortJob): Promise<Hits[]> {
  return new Promise((resolve, reject) => {
    const done = (hits: Hits[]): void => {
      worker.off('error', reject);
      resolve(hits);
    };
    worker.once('message', done);
    worker.once('error', reject);
    worker.postMessage(job);
  });
}

function toShared(words: Uint32Array): Uint32Array {
  const copy = new Uint32Array(new SharedArrayBuffer(words.byteLength));
  copy.set(words);
  return copy;
}
