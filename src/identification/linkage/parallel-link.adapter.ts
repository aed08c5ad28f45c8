// linkRecords on worker threads (issue 15: the whole linkage on both cores). The main thread plans
// (prepares, blocks, draws the random pairs); the candidate pairs are cut into one contiguous slice
// per thread, each worker compares its slice (compare-all.ts, the same function linkRecords runs),
// the slices are joined in order, and the main thread trains and scores: the result is the one
// linkRecords gives, byte for byte (parallel-link.test.ts).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BLOCKING_RULES, type BlockingRule } from './blocking.js';
import { compareAll } from './compare-all.js';
import { finishLinkage, linkRecords, planLinkage } from './link.js';
import type { LinkRecord, LinkageOptions, LinkageResult } from './types.js';

// Plain JavaScript evaluated from a string (as in store/hash-files.adapter.ts); it imports the
// compiled compare-all.js, whose URL it is given.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.module).then(({ compareSlice }) => {
  const out = compareSlice(workerData.input, workerData.handling, workerData.codes);
  parentPort.postMessage(out, [out.buffer]);
}, (error) => { throw error; });
`;

/**
 * The compiled compare-all.js: beside this file when it runs compiled; under the test runner the
 * sources are TypeScript, which a Node 20 worker cannot load, so the build's copy (npm run build).
 */
function compareModule(): string {
  const here = new URL('./compare-all.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here.href;
  const built = new URL(here.href.replace(/\/src\/identification\//, '/dist/src/identification/'));
  if (existsSync(fileURLToPath(built))) return built.href;
  throw new Error(`no compiled compare-all.js at ${here.href} or ${built.href}: run npm run build`);
}

function compareOn(
  input: readonly LinkRecord[],
  handling: string,
  codes: Float64Array,
  module: string,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module, input, handling, codes },
    });
    worker.once('message', (out: Uint8Array) => {
      resolve(out);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`linkage worker exited with code ${code}`));
    });
  });
}

export interface ParallelLinkOptions {
  /** Worker threads comparing pairs; one per available core by default. 1 compares on this thread. */
  readonly threads?: number;
}

/** linkRecords with the candidate pairs compared on worker threads: the same result. */
export async function linkRecordsParallel(
  input: readonly LinkRecord[],
  options: LinkageOptions = {},
  parallel: ParallelLinkOptions = {},
  rules: readonly BlockingRule[] = BLOCKING_RULES,
): Promise<LinkageResult> {
  const plan = planLinkage(input, options, rules);
  const threads = Math.max(1, Math.floor(parallel.threads ?? availableParallelism()));
  const codes = plan.candidates.pairs;
  if (threads === 1 || codes.length < 2) {
    return finishLinkage(plan, compareAll(plan.records, codes));
  }
  const module = compareModule();
  const size = Math.ceil(codes.length / threads);
  const slices = Array.from({ length: threads }, (_, t) =>
    Float64Array.from(codes.slice(t * size, (t + 1) * size)),
  ).filter((s) => s.length > 0);
  const parts = await Promise.all(
    slices.map((s) => compareOn(plan.input, plan.o.names, s, module)),
  );
  const vectors = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    vectors.set(p, at);
    at += p.length;
  }
  return finishLinkage(plan, vectors);
}

/** From this many records on, linkRecordsFor compares on worker threads (below, starting the threads costs more than it saves). */
export const PARALLEL_FROM = 2_000;

/** Which way linkRecordsFor links `records` records. */
export function linkageMode(records: number, from = PARALLEL_FROM): 'parallel' | 'single' {
  return records >= from ? 'parallel' : 'single';
}

/**
 * linkRecords for a service (the links port): on worker threads when the input is large, on this
 * thread otherwise; the result is the same either way.
 */
export function linkRecordsFor(
  input: readonly LinkRecord[],
  options: LinkageOptions = {},
  parallel: ParallelLinkOptions & { readonly from?: number } = {},
): Promise<LinkageResult> {
  return linkageMode(input.length, parallel.from) === 'parallel'
    ? linkRecordsParallel(input, options, parallel)
    : Promise.resolve(linkRecords(input, options));
}
