// One multi-index pass: every distinct hash sorted by the key of substring j into a
// direct-addressed table (bucket k = off[k] .. off[k + 1]), and the queries (distinct originals)
// listed in key order. The sort is two-level, like the sweep that follows (sweep.ts): a scatter
// into groups by the high key bits (a few hundred write streams, which the caches absorb), then a
// counting sort inside each group of 2^15 slots, in cache. One scatter over the whole table
// costs about three cache misses per hash; this is about twice as fast at 8M hashes.
import { countChunk, placeChunks, scatterChunk, sortGroups, type BuildJob } from './build.js';
import { WORDS } from './packed.js';
import type { Substring } from './plan.js';

/** Words in a sorted row: one half of the hash. */
export const HALF = 4;

export interface PassBuffers {
  /** Bucket k of the current pass is sorted positions [off[k], off[k + 1]). 2^maxBits + 1 slots. */
  readonly off: Uint32Array;
  /** The entry (unit rep) at each sorted position. */
  readonly sortedEntry: Uint32Array;
  /**
   * Half of the hash at each sorted position: the 4 words of the half the substring is not in
   * (word rotation + i at slot i), the first 3 of which filter candidates. The other half is read
   * from the packed words for the few candidates that pass: storing whole hashes here cost 32
   * bytes a unit (350 MB at a million objects with their region hashes), the gigabyte target.
   */
  readonly sortedWords: Uint32Array;
  /** The low key bits per sorted position (scratch of the sort). */
  readonly lowKey: Uint16Array;
  /** The query units in key order: key, sorted position, rotated hash. */
  readonly qKey: Uint32Array;
  readonly qPos: Uint32Array;
  readonly qWords: Uint32Array;
  /** Queries whose key has high part h are qKey[qStart[h] .. qStart[h + 1]). */
  readonly qStart: Uint32Array;
}

/**
 * The low `tileBits` bits of a key address a slot within a tile: 2^12 slots and their hashes
 * (~16 KiB + ~70 KiB at 8M hashes) stay in the core's L2 while every query that can reach the
 * tile probes it (12 beat 10, 14 and 16 on the target machine).
 */
export function tileBitsFor(length: number): number {
  return Math.min(length, 12);
}

/** Allocates the pass buffers once for all passes (on SharedArrayBuffers when workers help). */
export function allocPassBuffers(
  maxBits: number,
  units: number,
  queries: number,
  shared: boolean,
): PassBuffers {
  const bytes = (n: number): ArrayBuffer | SharedArrayBuffer =>
    shared ? new SharedArrayBuffer(n) : new ArrayBuffer(n);
  const u32 = (n: number): Uint32Array => new Uint32Array(bytes(n * 4));
  return {
    off: u32((1 << maxBits) + 1),
    sortedEntry: u32(units),
    sortedWords: u32(units * HALF),
    lowKey: new Uint16Array(bytes(units * 2)),
    qKey: u32(queries),
    qPos: u32(queries),
    qWords: u32(queries * WORDS),
    qStart: u32((1 << (maxBits - tileBitsFor(maxBits))) + 1),
  };
}

/** The first word (0 or 4) of the half `sub` does not lie in: it filters candidates. */
export function rotationFor(sub: Substring): number {
  return sub.start + sub.length <= 128 ? 4 : 0;
}

/** Low key bits sorted inside one group: 2^15 slots and their hashes stay in L2 while sorted. */
const GROUP_BITS = 15;

/** The job that sorts the units by the key of `sub` into `buf`, in `chunks` chunks (build.ts). */
export function buildJobFor(
  words: Uint32Array,
  reps: Uint32Array,
  count: number,
  sub: Substring,
  buf: PassBuffers,
  chunks: number,
  shared: boolean,
): BuildJob {
  const groupBits = Math.min(sub.length, GROUP_BITS);
  const groups = 1 << (sub.length - groupBits);
  const u32 = (n: number): Uint32Array =>
    new Uint32Array(shared ? new SharedArrayBuffer(n * 4) : new ArrayBuffer(n * 4));
  const { off, sortedEntry, sortedWords, lowKey, qKey, qPos, qWords, qStart } = buf;
  return {
    words,
    reps,
    count,
    start: sub.start,
    length: sub.length,
    rot: rotationFor(sub),
    groupBits,
    tileBits: tileBitsFor(sub.length),
    chunks,
    cursor: u32(chunks * groups),
    queries: u32(chunks * groups),
    groupStart: u32(groups + 1),
    qFirst: u32(groups),
    counter: new Int32Array(shared ? new SharedArrayBuffer(4) : new ArrayBuffer(4)),
    off,
    sortedEntry,
    sortedWords,
    lowKey,
    qKey,
    qPos,
    qWords,
    qStart,
  };
}

/** After the groups are sorted: the ends of the last bucket and of the last tile's queries. */
export function finishPass(job: BuildJob, queries: number): void {
  job.off[1 << job.length] = job.reps.length;
  job.qStart[1 << (job.length - job.tileBits)] = queries;
}

/** Sorts the units by the key of `sub` into `buf` on this thread and lists the queries in key order; returns their number. */
export function buildPass(
  words: Uint32Array,
  reps: Uint32Array,
  count: number,
  sub: Substring,
  buf: PassBuffers,
): number {
  const job = buildJobFor(words, reps, count, sub, buf, 1, false);
  countChunk(job, 0);
  const queries = placeChunks(job);
  scatterChunk(job, 0);
  sortGroups(job);
  finishPass(job, queries);
  return queries;
}
