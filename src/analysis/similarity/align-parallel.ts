// alignPair on worker threads, for the alignment step of findSimilarPairsParallel: the pairs of a
// step are known before the step runs, so they are aligned on every core first and the step then
// reads the answers. alignPair is pure, so an answer is the one the main thread would have
// computed, byte for byte (similarity-parallel test, medium).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { VerifiedCrop } from './crop-match.js';

// Plain JavaScript evaluated from a string (as in identification/linkage/parallel-link.adapter.ts);
// it imports the compiled crop-match.js, whose URL it is given, and reads the rasters from one
// shared buffer (slot i holds object slots[i]'s raster).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.module).then(({ alignPair }) => {
  const { greys, size } = workerData;
  const area = size * size;
  const grey = (slot) => new Uint8Array(greys, slot * area, area);
  parentPort.on('message', ({ id, pairs, slots }) => {
    const out = [];
    for (let k = 0; k < pairs.length; k += 2)
      out.push(alignPair(pairs[k], pairs[k + 1], grey(slots[k]), grey(slots[k + 1]), size));
    parentPort.postMessage({ id, out });
  });
}, (error) => { throw error; });
`;

/** Pairs are sent to a worker this many at a time (a few hundred ms of work each). */
const CHUNK = 64;
/** Fewer pairs than this are aligned on the main thread: starting a worker costs more. */
export const MIN_PARALLEL_PAIRS = 256;

/**
 * The compiled crop-match.js: beside this file when it runs compiled; under the test runner the
 * sources are TypeScript, which a Node 20 worker cannot load, so the build's copy (npm run build),
 * or null when there is none (the caller then aligns on its own thread).
 */
function cropMatchModule(): string | null {
  const here = new URL('./crop-match.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here.href;
  const built = new URL(here.href.replace(/\/src\/analysis\//, '/dist/src/analysis/'));
  return existsSync(fileURLToPath(built)) ? built.href : null;
}

export interface AlignPool {
  /** alignPair(a, b, …) for each pair, keyed `${a}:${b}`; pairs whose rasters the pool lacks are left out. */
  alignAll(
    pairs: readonly (readonly [number, number])[],
  ): Promise<Map<string, VerifiedCrop | null>>;
  /**
   * Ends the threads. Until then they keep the process alive (not unref'd: an unref'd worker would
   * let the process end while a step still awaits its answers), so close in a finally.
   */
  close(): Promise<void>;
}

/**
 * A pool over the objects' rasters (those of the most common size; pairs of other sizes stay on
 * the caller's thread), or null with one thread, no compiled module, or fewer than two rasters.
 */
export function openAlignPool(
  greys: readonly (Uint8Array | undefined)[],
  threads = availableParallelism(),
): AlignPool | null {
  const module = cropMatchModule();
  if (threads < 2 || module === null) return null;
  const lengths = new Map<number, number>();
  for (const g of greys)
    if (g !== undefined) lengths.set(g.length, (lengths.get(g.length) ?? 0) + 1);
  const [area, count] = [...lengths].sort((x, y) => y[1] - x[1] || x[0] - y[0])[0] ?? [0, 0];
  const size = Math.round(Math.sqrt(area));
  if (count < 2 || size * size !== area) return null;
  const slots = new Int32Array(greys.length).fill(-1);
  const shared = new SharedArrayBuffer(count * area);
  let next = 0;
  greys.forEach((g, i) => {
    if (g === undefined || g.length !== area) return;
    new Uint8Array(shared, next * area, area).set(g);
    slots[i] = next++;
  });
  const workers = Array.from({ length: threads }, () => startWorker(module, shared, size));
  return {
    async alignAll(pairs) {
      const wanted = pairs.filter(([a, b]) => (slots[a] ?? -1) >= 0 && (slots[b] ?? -1) >= 0);
      const out = new Map<string, VerifiedCrop | null>();
      let taken = 0;
      const feed = async (w: PoolWorker): Promise<void> => {
        for (;;) {
          const chunk = wanted.slice(taken, taken + CHUNK);
          taken += chunk.length;
          if (chunk.length === 0) return;
          const flat = Int32Array.from(chunk.flat());
          const found = await w.run(
            flat,
            flat.map((i) => slots[i]!),
          );
          chunk.forEach(([a, b], k) => out.set(`${a}:${b}`, found[k] ?? null));
        }
      };
      await Promise.all(workers.map(feed));
      return out;
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}

interface PoolWorker {
  run(pairs: Int32Array, slots: Int32Array): Promise<(VerifiedCrop | null)[]>;
  close(): Promise<void>;
}

function startWorker(module: string, greys: SharedArrayBuffer, size: number): PoolWorker {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, greys, size } });
  let failed: Error | null = null;
  const waiting = new Map<
    number,
    { resolve: (out: (VerifiedCrop | null)[]) => void; reject: (e: Error) => void }
  >();
  const fail = (e: Error): void => {
    failed = e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  worker.on('message', (m: { id: number; out: (VerifiedCrop | null)[] }) => {
    waiting.get(m.id)?.resolve(m.out);
    waiting.delete(m.id);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`alignment worker exited with code ${code}`)));
  let ids = 0;
  return {
    run(pairs, slots) {
      if (failed !== null) return Promise.reject(failed);
      const id = ids++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, pairs, slots });
      });
    },
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
