// Exact duplicates first. Collections are clustered: the same picture arrives from many sources,
// and an indexed family of k identical hashes would put k copies into every bucket it touches
// and k² candidates into the search. Each distinct hash (original or variant) becomes one unit,
// searched once; its occurrences are expanded only when pairs are reported.
import { WORDS, type PackedHashes } from './packed.js';

export interface Units {
  /** The first entry of each distinct live hash, ascending. Originals come first in entry order. */
  readonly reps: Uint32Array;
  /** reps[0 .. queryCount) are the units holding at least one original (their rep is < count). */
  readonly queryCount: number;
  /** next[e] is the next entry holding the same hash as e (a chain from the rep), or -1. */
  readonly next: Int32Array;
}

function mixHash(words: Uint32Array, base: number): number {
  let h = 0x9e3779b9;
  for (let i = 0; i < WORDS; i++) {
    h = Math.imul(h ^ words[base + i]!, 0x85ebca6b);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function sameHash(words: Uint32Array, a: number, b: number): boolean {
  for (let i = 0; i < WORDS; i++) if (words[a + i] !== words[b + i]) return false;
  return true;
}

/** Groups identical hashes with an open-addressing table (linear probing, load ≤ 1/2). */
export function dedupeEntries(packed: PackedHashes): Units {
  const { entries, words, live, count } = packed;
  let size = 16;
  while (size < entries * 2) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const next = new Int32Array(entries).fill(-1);
  const reps = new Uint32Array(entries);
  let units = 0;
  let queryCount = 0;
  for (let e = 0; e < entries; e++) {
    if (live !== null && live[e] === 0) continue;
    const base = e * WORDS;
    let slot = mixHash(words, base) & mask;
    for (;;) {
      const r = table[slot]!;
      if (r < 0) {
        table[slot] = e;
        reps[units++] = e;
        if (e < count) queryCount++;
        break;
      }
      if (sameHash(words, r * WORDS, base)) {
        next[e] = next[r]!;
        next[r] = e;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return { reps: reps.slice(0, units), queryCount, next };
}
