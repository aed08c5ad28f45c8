// Exact duplicates first. Collections are clustered: the same picture arrives from many sources,
// and an indexed family of k identical hashes would put k copies into every bucket it touches
// and k² candidates into the search. Each distinct hash (original or variant) becomes one unit,
// searched once; its occurrences are expanded only when pairs are reported.
import { memoryOf, WORDS, type PackedHashes } from './packed.js';

export interface Units {
  /** The first entry of each distinct live hash, ascending. Originals come first in entry order. */
  readonly reps: Uint32Array;
  /** reps[0 .. queryCount) are the units holding at least one original (their rep is < count). */
  readonly queryCount: number;
  /** next[e] is the next entry holding the same hash as e (a chain from the rep), or -1. */
  readonly next: Int32Array;
}

/** Partitions by the top bits of the mixed hash: each partition's table then fits in cache. */
const PARTITION_BITS = 10;

function mixHash(words: Uint32Array, base: number): number {
  let h = 0x9e3779b9;
  for (let i = 0; i < WORDS; i++) {
    h = Math.imul(h ^ words[base + i]!, 0x85ebca6b);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function sameHash(words: Uint32Array, a: number, b: number): boolean {
  for (let i = 0; i < WORDS; i++) if (words[a + i] !== words[b + i]) return false;
  return true;
}

/**
 * Groups identical hashes: entries are mixed to 32 bits, scattered into partitions by the top
 * bits, and each partition is deduped with a small open-addressing table (linear probing, load
 * ≤ 1/2) that compares whole hashes only when the mixes agree. One global table would miss the
 * cache at nearly every entry. `shared`: reps on a SharedArrayBuffer, for worker threads.
 * `scratch` (at least 8 bytes an entry) holds the mixes and the partitioned order: the search
 * lends it the memory of its sorted rows, which the first pass overwrites. Allocated here,
 * those 88 MB at a million objects with their region hashes stayed resident as garbage while the
 * worker threads sorted the first pass (the main thread, waiting, collected nothing).
 */
export function dedupeEntries(
  packed: PackedHashes,
  shared: boolean,
  scratch: ArrayBufferLike,
): Units {
  const { entries, words, live, count } = packed;
  const mixes = new Uint32Array(scratch, 0, entries);
  const start = new Uint32Array((1 << PARTITION_BITS) + 1);
  const shift = 32 - PARTITION_BITS;
  for (let e = 0; e < entries; e++) {
    if (live !== null && live[e] === 0) continue;
    const h = mixHash(words, e * WORDS);
    mixes[e] = h;
    start[(h >>> shift) + 1]!++;
  }
  for (let p = 1; p < start.length; p++) start[p]! += start[p - 1]!;
  const liveCount = start[start.length - 1]!;
  const order = new Uint32Array(scratch, entries * 4, liveCount);
  const cursor = start.slice();
  for (let e = 0; e < entries; e++) {
    if (live !== null && live[e] === 0) continue;
    order[cursor[mixes[e]! >>> shift]!++] = e; // ascending within each partition
  }
  const next = new Int32Array(entries).fill(-1);
  const isRep = new Uint8Array(entries);
  let table = new Int32Array(16);
  for (let p = 0; p + 1 < start.length; p++) {
    const from = start[p]!;
    const size = start[p + 1]! - from;
    let slots = 16;
    while (slots < size * 2) slots *= 2;
    if (table.length < slots) table = new Int32Array(slots);
    table.fill(-1, 0, slots);
    for (let i = from; i < from + size; i++)
      insert(order[i]!, words, mixes, table, slots - 1, next, isRep);
  }
  let units = 0;
  for (let e = 0; e < entries; e++) units += isRep[e]!;
  const reps = new Uint32Array(memoryOf(units * 4, shared)); // worker threads sort by them
  units = 0;
  let queryCount = 0;
  for (let e = 0; e < entries; e++) {
    if (isRep[e] === 0) continue;
    reps[units++] = e;
    if (e < count) queryCount++;
  }
  return { reps, queryCount, next };
}

/** Adds entry e to its partition's table: a new unit, or chained after the rep of its hash. */
function insert(
  e: number,
  words: Uint32Array,
  mixes: Uint32Array,
  table: Int32Array,
  mask: number,
  next: Int32Array,
  isRep: Uint8Array,
): void {
  const h = mixes[e]!;
  for (let slot = h & mask; ; slot = (slot + 1) & mask) {
    const r = table[slot]!;
    if (r < 0) {
      table[slot] = e;
      isRep[e] = 1;
      return;
    }
    if (mixes[r] === h && sameHash(words, r * WORDS, e * WORDS)) {
      next[e] = next[r]!;
      next[r] = e;
      return;
    }
  }
}
