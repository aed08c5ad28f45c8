// One multi-index pass: every distinct hash sorted by the key of substring j into a
// direct-addressed table (bucket k = off[k] .. off[k + 1]), and the queries (distinct originals)
// listed in key order. The sort is two-level, like the sweep that follows (sweep.ts): a scatter
// into groups by the high key bits (a few hundred write streams, which the caches absorb), then a
// counting sort inside each group of 2^15 slots, in cache. One scatter over the whole table
// costs about three cache misses per hash; this is about twice as fast at 8M hashes.
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
    lowKey: new Uint16Array(units),
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

/** Sorts the units by the key of `sub` into `buf` and lists the queries in key order; returns their number. */
export function buildPass(
  words: Uint32Array,
  reps: Uint32Array,
  count: number,
  sub: Substring,
  buf: PassBuffers,
): number {
  const { off, sortedEntry, sortedWords: sw, lowKey } = buf;
  const w = sub.start >>> 5;
  const o = sub.start & 31;
  const spill = o + sub.length > 32 ? 32 - o : 0;
  const mask = (1 << sub.length) - 1;
  const rot = rotationFor(sub);
  const groupBits = Math.min(sub.length, GROUP_BITS);
  const groups = 1 << (sub.length - groupBits);
  const keyAt = (base: number): number =>
    ((words[base + w]! >>> o) | (spill ? words[base + w + 1]! << spill : 0)) & mask;
  // Scatter into groups by the high key bits; a group ends up exactly where its slots will be.
  const cursor = new Uint32Array(groups + 1);
  for (let i = 0; i < reps.length; i++) cursor[(keyAt(reps[i]! * WORDS) >>> groupBits) + 1]!++;
  for (let g = 1; g <= groups; g++) cursor[g]! += cursor[g - 1]!;
  const groupStart = cursor.slice();
  for (let i = 0; i < reps.length; i++) {
    const e = reps[i]!;
    const base = e * WORDS;
    const key = keyAt(base);
    const pos = cursor[key >>> groupBits]!++;
    sortedEntry[pos] = e;
    lowKey[pos] = key & ((1 << groupBits) - 1);
    copyHalf(sw, pos * HALF, words, base + rot);
  }
  const scratch = { entry: new Uint32Array(0), key: new Uint16Array(0), words: new Uint32Array(0) };
  const tileBits = tileBitsFor(sub.length);
  let q = 0;
  for (let g = 0; g < groups; g++) {
    const from = groupStart[g]!;
    const size = groupStart[g + 1]! - from;
    if (scratch.entry.length < size) {
      scratch.entry = new Uint32Array(size * 2);
      scratch.key = new Uint16Array(size * 2);
      scratch.words = new Uint32Array(size * 2 * HALF);
    }
    sortGroup(buf, g << groupBits, 1 << groupBits, from, size, scratch);
    q = listQueries(
      buf,
      words,
      rot,
      g << groupBits,
      1 << groupBits,
      from,
      size,
      tileBits,
      count,
      q,
    );
  }
  off[1 << sub.length] = reps.length;
  buf.qStart[1 << (sub.length - tileBits)] = q;
  return q;
}

/** Copies the 4 words of a half hash. */
function copyHalf(to: Uint32Array, at: number, from: Uint32Array, first: number): void {
  to[at] = from[first]!;
  to[at + 1] = from[first + 1]!;
  to[at + 2] = from[first + 2]!;
  to[at + 3] = from[first + 3]!;
}

interface Scratch {
  entry: Uint32Array;
  key: Uint16Array;
  words: Uint32Array;
}

/** Counting sort of one group by its low key bits, through `scratch`; sets the group's slots in off. */
function sortGroup(
  buf: PassBuffers,
  slot0: number,
  slots: number,
  from: number,
  size: number,
  scratch: Scratch,
): void {
  const { off, sortedEntry, sortedWords: sw, lowKey } = buf;
  scratch.entry.set(sortedEntry.subarray(from, from + size));
  scratch.key.set(lowKey.subarray(from, from + size));
  scratch.words.set(sw.subarray(from * HALF, (from + size) * HALF));
  off.fill(0, slot0, slot0 + slots);
  for (let i = 0; i < size; i++) off[slot0 + scratch.key[i]!]!++;
  let run = from;
  for (let k = slot0; k < slot0 + slots; k++) {
    const c = off[k]!;
    off[k] = run;
    run += c;
  }
  for (let i = 0; i < size; i++) {
    const k = scratch.key[i]!;
    const p = off[slot0 + k]!++;
    sortedEntry[p] = scratch.entry[i]!;
    lowKey[p] = k;
    copyHalf(sw, p * HALF, scratch.words, i * HALF);
  }
  // Each off[slot] has advanced from its bucket's start to its end, the next bucket's start.
  for (let k = slot0 + slots - 1; k > slot0; k--) off[k] = off[k - 1]!;
  off[slot0] = from;
}

/**
 * Appends the group's queries (entries below `count`) in key order, noting where each of its tiles
 * starts. A query's row is its whole hash, rotated: the sorted half, then the other from `words`.
 */
function listQueries(
  buf: PassBuffers,
  words: Uint32Array,
  rot: number,
  slot0: number,
  slots: number,
  from: number,
  size: number,
  tileBits: number,
  count: number,
  q: number,
): number {
  const { sortedEntry, sortedWords: sw, lowKey, qKey, qPos, qWords, qStart } = buf;
  let tile = slot0 >>> tileBits;
  for (let p = from; p < from + size; p++) {
    if (sortedEntry[p]! >= count) continue;
    const k = slot0 + lowKey[p]!;
    while (tile <= k >>> tileBits) qStart[tile++] = q;
    qKey[q] = k;
    qPos[q] = p;
    copyHalf(qWords, q * WORDS, sw, p * HALF);
    copyHalf(qWords, q * WORDS + HALF, words, sortedEntry[p]! * WORDS + (rot ^ HALF));
    q++;
  }
  while (tile < (slot0 + slots) >>> tileBits) qStart[tile++] = q;
  return q;
}
