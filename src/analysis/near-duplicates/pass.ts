// One multi-index pass: every distinct hash sorted by the key of substring j into a
// direct-addressed table (bucket k = off[k] .. off[k + 1]), and the queries (distinct originals)
// listed in key order. The sort is two-level, like the sweep that follows (sweep.ts): a scatter
// into groups by the high key bits (a few hundred write streams, which the caches absorb), then a
// counting sort inside each group of 2^15 slots, in cache. One scatter over the whole table
// costs about three cache misses per hash; this is about twice as fast at 8M hashes. Each of its
// three phases splits into parts (sortPass) that worker threads run side by side
// (find-pairs-parallel.ts); buildPass runs them one after another.
import { memoryOf, WORDS } from './packed.js';
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

/**
 * Allocates the pass buffers once for all passes (on SharedArrayBuffers when workers help); the
 * sorted rows are the first units · HALF words of `rows` (prepareSearch lends it to the dedupe first).
 */
export function allocPassBuffers(
  maxBits: number,
  units: number,
  queries: number,
  shared: boolean,
  rows: Uint32Array,
): PassBuffers {
  const bytes = (n: number): ArrayBuffer | SharedArrayBuffer => memoryOf(n, shared);
  const u32 = (n: number): Uint32Array => new Uint32Array(bytes(n * 4));
  return {
    off: u32((1 << maxBits) + 1),
    sortedEntry: u32(units),
    sortedWords: new Uint32Array(rows.buffer, rows.byteOffset, units * HALF),
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

/**
 * One part of one phase of a pass's sort, on plain data (typed arrays, on SharedArrayBuffers when
 * workers run it):
 * - phase 0 counts, per group, the units (counts[g]) and the queries (counts[groups + g]) among
 *   reps[from .. to);
 * - phase 1 scatters reps[from .. to) into their groups, the units of group g from counts[g] on;
 * - phase 2 sorts groups from .. to - 1 by their low key bits and lists their queries, group g's
 *   from qBase[g] on.
 */
export interface SortJob {
  phase: 0 | 1 | 2;
  from: number;
  to: number;
  counts: Uint32Array;
  groupStart: Uint32Array;
  qBase: Uint32Array;
  words: Uint32Array;
  reps: Uint32Array;
  /** Number of records: entries below it are originals. */
  count: number;
  /** The substring: its first bit and length. */
  start: number;
  length: number;
  rotation: number;
  groupBits: number;
  tileBits: number;
  off: Uint32Array;
  sortedEntry: Uint32Array;
  sortedWords: Uint32Array;
  lowKey: Uint16Array;
  qKey: Uint32Array;
  qPos: Uint32Array;
  qWords: Uint32Array;
  qStart: Uint32Array;
}

/**
 * Runs one SortJob. Self-contained (no imports, no outer names), like sweepQueries: the worker
 * threads run it from its own source text.
 */
export function sortPass(job: SortJob): void {
  const { phase, from, to, counts, words, reps, count, rotation: rot, groupBits, tileBits } = job;
  const { off, sortedEntry, sortedWords: sw, lowKey, qKey, qPos, qWords, qStart } = job;
  const w = job.start >>> 5;
  const o = job.start & 31;
  const spill = o + job.length > 32 ? 32 - o : 0;
  const mask = (1 << job.length) - 1;
  const groups = 1 << (job.length - groupBits);
  const lowMask = (1 << groupBits) - 1;
  const keyAt = (base: number): number =>
    ((words[base + w]! >>> o) | (spill ? words[base + w + 1]! << spill : 0)) & mask;
  if (phase === 0) {
    for (let i = from; i < to; i++) {
      const e = reps[i]!;
      const g = keyAt(e * 8) >>> groupBits;
      counts[g]!++;
      if (e < count) counts[groups + g]!++;
    }
    return;
  }
  if (phase === 1) {
    for (let i = from; i < to; i++) {
      const e = reps[i]!;
      const base = e * 8;
      const key = keyAt(base);
      const pos = counts[key >>> groupBits]!++;
      sortedEntry[pos] = e;
      lowKey[pos] = key & lowMask;
      sw[pos * 4] = words[base + rot]!;
      sw[pos * 4 + 1] = words[base + rot + 1]!;
      sw[pos * 4 + 2] = words[base + rot + 2]!;
      sw[pos * 4 + 3] = words[base + rot + 3]!;
    }
    return;
  }
  const slots = 1 << groupBits;
  let sEntry = new Uint32Array(0);
  let sKey = new Uint16Array(0);
  let sWords = new Uint32Array(0);
  for (let g = from; g < to; g++) {
    const first = job.groupStart[g]!;
    const size = job.groupStart[g + 1]! - first;
    const slot0 = g << groupBits;
    // Counting sort of the group by its low key bits, through the scratch copies.
    if (sEntry.length < size) {
      sEntry = new Uint32Array(size * 2);
      sKey = new Uint16Array(size * 2);
      sWords = new Uint32Array(size * 2 * 4);
    }
    sEntry.set(sortedEntry.subarray(first, first + size));
    sKey.set(lowKey.subarray(first, first + size));
    sWords.set(sw.subarray(first * 4, (first + size) * 4));
    off.fill(0, slot0, slot0 + slots);
    for (let i = 0; i < size; i++) off[slot0 + sKey[i]!]!++;
    let run = first;
    for (let k = slot0; k < slot0 + slots; k++) {
      const c = off[k]!;
      off[k] = run;
      run += c;
    }
    for (let i = 0; i < size; i++) {
      const k = sKey[i]!;
      const p = off[slot0 + k]!++;
      sortedEntry[p] = sEntry[i]!;
      lowKey[p] = k;
      sw[p * 4] = sWords[i * 4]!;
      sw[p * 4 + 1] = sWords[i * 4 + 1]!;
      sw[p * 4 + 2] = sWords[i * 4 + 2]!;
      sw[p * 4 + 3] = sWords[i * 4 + 3]!;
    }
    // Each off[slot] has advanced from its bucket's start to its end, the next bucket's start.
    for (let k = slot0 + slots - 1; k > slot0; k--) off[k] = off[k - 1]!;
    off[slot0] = first;
    // The group's queries (entries below count) in key order, noting where each tile starts. A
    // query's row is its whole hash, rotated: the sorted half, then the other from words.
    let q = job.qBase[g]!;
    let tile = slot0 >>> tileBits;
    for (let p = first; p < first + size; p++) {
      const e = sortedEntry[p]!;
      if (e >= count) continue;
      const k = slot0 + lowKey[p]!;
      while (tile <= k >>> tileBits) qStart[tile++] = q;
      qKey[q] = k;
      qPos[q] = p;
      for (let i = 0; i < 4; i++) {
        qWords[q * 8 + i] = sw[p * 4 + i]!;
        qWords[q * 8 + 4 + i] = words[e * 8 + (rot ^ 4) + i]!;
      }
      q++;
    }
    while (tile < (slot0 + slots) >>> tileBits) qStart[tile++] = q;
  }
}

/** A pass's sort split into `parts` parts per phase: run each phase's jobs (in any order, or side by side), then finish(). */
export interface PassSort {
  /** Phase 0's jobs; once they have run, phase 1's (scatter), then phase 2's (groups). */
  count(): SortJob[];
  scatter(): SortJob[];
  groups(): SortJob[];
  /** Sets the table's last bucket end and the queries' end; returns the number of queries. */
  finish(): number;
}

/** Prepares the sort of `reps` by the key of `sub` into `buf`, in `parts` parts a phase. */
export function passSort(
  words: Uint32Array,
  reps: Uint32Array,
  count: number,
  sub: Substring,
  buf: PassBuffers,
  parts: number,
  shared: boolean,
): PassSort {
  const groupBits = Math.min(sub.length, GROUP_BITS);
  const groups = 1 << (sub.length - groupBits);
  const tileBits = tileBitsFor(sub.length);
  const u32 = (n: number): Uint32Array => new Uint32Array(memoryOf(n * 4, shared));
  const groupStart = u32(groups + 1);
  const qBase = u32(groups + 1);
  const job = (phase: 0 | 1 | 2, from: number, to: number, counts: Uint32Array): SortJob => ({
    phase,
    from,
    to,
    counts,
    groupStart,
    qBase,
    words,
    reps,
    count,
    start: sub.start,
    length: sub.length,
    rotation: rotationFor(sub),
    groupBits,
    tileBits,
    ...buf,
  });
  const cut = (total: number, t: number): number => Math.floor((total * t) / parts);
  const counted = Array.from({ length: parts }, (_, t) =>
    job(0, cut(reps.length, t), cut(reps.length, t + 1), u32(2 * groups)),
  );
  return {
    count: () => [...counted],
    scatter() {
      // Group g's units start after every earlier group's; a part's after the earlier parts'.
      let units = 0;
      let queries = 0;
      for (let g = 0; g < groups; g++) {
        groupStart[g] = units;
        qBase[g] = queries;
        for (const c of counted) {
          units += c.counts[g]!;
          queries += c.counts[groups + g]!;
        }
      }
      groupStart[groups] = units;
      qBase[groups] = queries;
      const cursor = groupStart.slice(0, groups);
      return counted.map((c) => {
        const at = u32(groups);
        at.set(cursor);
        for (let g = 0; g < groups; g++) cursor[g]! += c.counts[g]!;
        return job(1, c.from, c.to, at);
      });
    },
    groups() {
      // Parts of about equal numbers of units, in whole groups.
      const jobs: SortJob[] = [];
      let g = 0;
      for (let t = 0; t < parts; t++) {
        const first = g;
        const until = cut(reps.length, t + 1);
        while (g < groups && (t === parts - 1 || groupStart[g + 1]! <= until)) g++;
        if (g > first) jobs.push(job(2, first, g, groupStart));
      }
      return jobs;
    },
    finish() {
      buf.off[1 << sub.length] = reps.length;
      buf.qStart[1 << (sub.length - tileBits)] = qBase[groups]!;
      return qBase[groups]!;
    },
  };
}

/** Sorts the units by the key of `sub` into `buf` and lists the queries in key order; returns their number. */
export function buildPass(
  words: Uint32Array,
  reps: Uint32Array,
  count: number,
  sub: Substring,
  buf: PassBuffers,
): number {
  const sort = passSort(words, reps, count, sub, buf, 1, false);
  sort.count().forEach(sortPass);
  sort.scatter().forEach(sortPass);
  sort.groups().forEach(sortPass);
  return sort.finish();
}
