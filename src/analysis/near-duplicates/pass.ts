// One multi-index pass: every distinct hash sorted by the key of substring j into a
// direct-addressed table, and the queries (distinct originals) listed in key order. Keys split
// into a tile (high bits) and a slot within it (low bits); the sweep works tile by tile (see
// sweep.ts), and so does the sort: first a scatter into tile groups (a few thousand write
// streams, which the caches absorb), then a counting sort inside each tile, in cache. A direct
// scatter over the whole table costs three cache misses per hash; this is ~3× faster at 8M.
import { WORDS } from './packed.js';
import type { Substring } from './plan.js';

export interface PassBuffers {
  /** Bucket k of the current pass is sorted positions [off[k], off[k + 1]). 2^maxBits + 1 slots. */
  readonly off: Uint32Array;
  /** The entry (unit rep) at each sorted position. */
  readonly sortedEntry: Uint32Array;
  /** FILTER_WORDS words per sorted position, from the half of the hash the substring is not in. */
  readonly sortedFilter: Uint32Array;
  /** The low key bits per sorted position (scratch of the sort). */
  readonly lowKey: Uint16Array;
  /** The query units in key order: key, sorted position, filter words. */
  readonly qKey: Uint32Array;
  readonly qPos: Uint32Array;
  readonly qFilter: Uint32Array;
  /** Queries whose key has high part h are qKey[qStart[h] .. qStart[h + 1]). */
  readonly qStart: Uint32Array;
}

/**
 * 96 bits filter a candidate: a random pair is within 31 of them with probability ~3.5e-4, so
 * the full hash is fetched almost only for true pairs, and an entry costs 12 bytes per pass.
 */
export const FILTER_WORDS = 3;

/**
 * The low `tileBits` bits of a key address a slot within a tile: 2^12 slots and their entries
 * (~40–60 KiB) stay in the core's L2 while every query that can reach the tile probes it (12 beat
 * 10, 14 and 16 on the target machine).
 */
export function tileBitsFor(length: number): number {
  return Math.min(length, 12);
}

/** Allocates the pass buffers once for all passes (on SharedArrayBuffers when workers help). */
export function allocPassBuffers(maxBits: number, units: number, queries: number, shared: boolean): PassBuffers {
  const bytes = (n: number): ArrayBuffer | SharedArrayBuffer => (shared ? new SharedArrayBuffer(n) : new ArrayBuffer(n));
  const u32 = (n: number): Uint32Array => new Uint32Array(bytes(n * 4));
  return {
    off: u32((1 << maxBits) + 1),
    sortedEntry: u32(units),
    sortedFilter: u32(units * FILTER_WORDS),
    lowKey: new Uint16Array(units),
    qKey: u32(queries),
    qPos: u32(queries),
    qFilter: u32(queries * FILTER_WORDS),
    qStart: u32((1 << (maxBits - tileBitsFor(maxBits))) + 1),
  };
}

/** Word offset (0 or 4) of the half that `sub` does not lie in: its first words filter candidates. */
export function filterHalf(sub: Substring): number {
  return sub.start + sub.length <= 128 ? 4 : 0;
}

/** Sorts the units by the key of `sub` into `buf` and lists the queries in key order; returns their number. */
export function buildPass(words: Uint32Array, reps: Uint32Array, count: number, sub: Substring, buf: PassBuffers): number {
  const { off, sortedEntry, sortedFilter: flt, lowKey } = buf;
  const w = sub.start >>> 5;
  const o = sub.start & 31;
  const spill = o + sub.length > 32 ? 32 - o : 0;
  const mask = (1 << sub.length) - 1;
  const fh = filterHalf(sub);
  const tileBits = tileBitsFor(sub.length);
  const tiles = 1 << (sub.length - tileBits);
  const keyAt = (base: number): number => ((words[base + w]! >>> o) | (spill ? words[base + w + 1]! << spill : 0)) & mask;
  // Scatter into tile groups; a tile's group ends up exactly where its sorted slots will be.
  const cursor = new Uint32Array(tiles + 1);
  for (let i = 0; i < reps.length; i++) {
    const t = (keyAt(reps[i]! * WORDS) >>> tileBits) + 1;
    cursor[t] = cursor[t]! + 1;
  }
  for (let t = 1; t <= tiles; t++) cursor[t] = cursor[t]! + cursor[t - 1]!;
  const tileStart = cursor.slice();
  for (let i = 0; i < reps.length; i++) {
    const e = reps[i]!;
    const base = e * WORDS;
    const key = keyAt(base);
    const t = key >>> tileBits;
    const pos = cursor[t]!;
    cursor[t] = pos + 1;
    sortedEntry[pos] = e;
    lowKey[pos] = key & ((1 << tileBits) - 1);
    flt[pos * 3] = words[base + fh]!;
    flt[pos * 3 + 1] = words[base + fh + 1]!;
    flt[pos * 3 + 2] = words[base + fh + 2]!;
  }
  let q = 0;
  let scratch = new Uint32Array(0);
  for (let t = 0; t < tiles; t++) {
    const from = tileStart[t]!;
    const size = tileStart[t + 1]! - from;
    if (scratch.length < size * 5) scratch = new Uint32Array(size * 10);
    q = sortTile(buf, t << tileBits, 1 << tileBits, from, size, scratch, count, q);
  }
  off[1 << sub.length] = reps.length;
  buf.qStart[tiles] = q;
  return q;
}

/** Counting sort of one tile's group in place (via `scratch`), then its queries appended in order. */
function sortTile(buf: PassBuffers, slot0: number, slots: number, from: number, size: number, scratch: Uint32Array, count: number, q: number): number {
  const { off, sortedEntry, sortedFilter: flt, lowKey, qKey, qPos, qFilter, qStart } = buf;
  qStart[slot0 / slots] = q;
  off.fill(0, slot0, slot0 + slots);
  for (let i = 0; i < size; i++) {
    const p = from + i;
    const k = lowKey[p]!;
    off[slot0 + k] = off[slot0 + k]! + 1;
    scratch[i * 5] = sortedEntry[p]!;
    scratch[i * 5 + 1] = k;
    scratch[i * 5 + 2] = flt[p * 3]!;
    scratch[i * 5 + 3] = flt[p * 3 + 1]!;
    scratch[i * 5 + 4] = flt[p * 3 + 2]!;
  }
  let run = from;
  for (let k = slot0; k < slot0 + slots; k++) {
    const c = off[k]!;
    off[k] = run;
    run += c;
  }
  for (let i = 0; i < size; i++) {
    const k = slot0 + scratch[i * 5 + 1]!;
    const p = off[k]!;
    off[k] = p + 1;
    sortedEntry[p] = scratch[i * 5]!;
    flt[p * 3] = scratch[i * 5 + 2]!;
    flt[p * 3 + 1] = scratch[i * 5 + 3]!;
    flt[p * 3 + 2] = scratch[i * 5 + 4]!;
  }
  // Each off[slot] has advanced from its bucket's start to its end, the next bucket's start.
  for (let k = slot0 + slots - 1; k > slot0; k--) off[k] = off[k - 1]!;
  off[slot0] = from;
  for (let k = slot0; k < slot0 + slots; k++) {
    const end = k + 1 < slot0 + slots ? off[k + 1]! : from + size;
    for (let p = off[k]!; p < end; p++) {
      if (sortedEntry[p]! >= count) continue;
      qKey[q] = k;
      qPos[q] = p;
      qFilter[q * 3] = flt[p * 3]!;
      qFilter[q * 3 + 1] = flt[p * 3 + 1]!;
      qFilter[q * 3 + 2] = flt[p * 3 + 2]!;
      q++;
    }
  }
  return q;
}
