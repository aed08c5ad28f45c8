// From unit pairs to record pairs: expand each unit to the records holding that hash, keep the
// best plain and the best dihedral distance per record pair, and label the pair. The expansion
// runs twice (count, then fill) so that the record pairs sit in one exact-size table grouped by
// their lower record: at a million clustered records there are tens of millions of them.
import type { Units } from './dedupe.js';
import { VARIANTS, type Pair, type PairColumns, type RecordIds } from './packed.js';
import type { Hits } from './sweep.js';

/** Calls `visit(lo, hi, code)` for every record pair named by the hits or by a shared hash. */
function expand(
  count: number,
  perRecord: number,
  units: Units,
  hits: readonly Hits[],
  visit: (lo: number, hi: number, code: number) => void,
): void {
  const { next, reps } = units;
  const add = (o1: number, o2: number, d: number): void => {
    const v1 = o1 >= count;
    const v2 = o2 >= count;
    if (v1 && v2) return; // variant against variant is not part of the relation
    const r1 = v1 ? ((o1 - count) / perRecord) | 0 : o1;
    const r2 = v2 ? ((o2 - count) / perRecord) | 0 : o2;
    if (r1 === r2) return;
    visit(r1 < r2 ? r1 : r2, r1 < r2 ? r2 : r1, d * 2 + (v1 || v2 ? 1 : 0));
  };
  for (const h of hits) {
    for (let i = 0; i < h.length; i++) {
      const d = h.d[i]!;
      for (let o1 = h.a[i]!; o1 >= 0; o1 = next[o1]!) {
        for (let o2 = h.b[i]!; o2 >= 0; o2 = next[o2]!) add(o1, o2, d);
      }
    }
  }
  for (let u = 0; u < reps.length; u++) {
    for (let o1 = reps[u]!; o1 >= 0; o1 = next[o1]!) {
      for (let o2 = next[o1]!; o2 >= 0; o2 = next[o2]!) add(o1, o2, 0);
    }
  }
}

/** Spent buffers (largest first) that collectPairs may overwrite instead of allocating anew. */
export type Scratch = readonly ArrayBufferLike[];

type TypedArrayOf<T> = {
  new (length: number): T;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

/**
 * Typed arrays carved from the spent buffers, first fit, else allocated. Nothing is zeroed: a
 * carved array holds whatever the search left there, so every entry must be written before it
 * is read. At a million clustered objects the collection's tables and the result's columns come
 * to about 200 MB, which would otherwise sit on top of the ~300 MB of pass buffers that hold
 * nothing any more (issue 14's peak-memory target): a spent buffer is freed only when the
 * garbage collector gets to it, and it does not get to it before the collection allocates.
 * The result's columns are carved too, so the spent buffers live as long as the result does:
 * a caller that keeps a large result long after the search should copy it.
 */
export class ScratchArena {
  private readonly used: number[];

  constructor(private readonly buffers: Scratch) {
    this.used = buffers.map(() => 0);
  }

  take<T>(type: TypedArrayOf<T>, length: number): T {
    const size = type.BYTES_PER_ELEMENT;
    for (let i = 0; i < this.buffers.length; i++) {
      const at = Math.ceil(this.used[i]! / size) * size;
      if (at + length * size > this.buffers[i]!.byteLength) continue;
      this.used[i] = at + length * size;
      return new type(this.buffers[i]!, at, length);
    }
    return new type(length);
  }
}

/**
 * Every record pair named by `hits` (unit pairs) or by two records sharing a hash (distance 0),
 * as columns ordered by record position. A pair is 'turned' when a variant achieves the minimum
 * and the plain distance does not (ties go to the plain hash); distance is the minimum.
 * `scratch` holds buffers nothing else uses any more (the search's spent pass buffers).
 */
export function collectPairs(
  count: number,
  units: Units,
  hits: readonly Hits[],
  ids: RecordIds,
  perRecord = VARIANTS,
  scratch: Scratch = [],
): PairColumns {
  const arena = new ScratchArena(scratch);
  const start = arena.take(Uint32Array, count + 1).fill(0);
  expand(count, perRecord, units, hits, (lo) => {
    start[lo + 1]!++;
  });
  for (let r = 0; r < count; r++) start[r + 1]! += start[r]!;
  const fill = arena.take(Uint32Array, count);
  fill.set(start.subarray(0, count));
  const hi = arena.take(Int32Array, start[count]!);
  const code = arena.take(Uint16Array, start[count]!); // distance · 2 + turned ≤ 513
  expand(count, perRecord, units, hits, (lo, b, c) => {
    const i = fill[lo]!++;
    hi[i] = b;
    code[i] = c;
  });
  const kept = labelInPlace(count, start, hi, code, arena);
  return columnsOf(count, start, hi, code, kept, ids, arena);
}

/**
 * Keeps one entry per record pair (the best plain and the best turned distance decide its code),
 * compacted in place to the front of `hi` and `code`: no second table of tens of millions of
 * entries. Afterwards start[lo] .. start[lo + 1] are the kept pairs of record lo; returns their number.
 */
function labelInPlace(
  count: number,
  start: Uint32Array,
  hi: Int32Array,
  code: Uint16Array,
  arena: ScratchArena,
): number {
  const stamp = arena.take(Int32Array, count).fill(-1);
  const plain = arena.take(Int32Array, count); // written when stamped
  const turned = arena.take(Int32Array, count);
  const touched = arena.take(Int32Array, count);
  let w = 0;
  for (let lo = 0; lo < count; lo++) {
    let t = 0;
    const from = start[lo]!;
    const to = start[lo + 1]!;
    start[lo] = w;
    for (let i = from; i < to; i++) {
      const b = hi[i]!;
      if (stamp[b] !== lo) {
        stamp[b] = lo;
        plain[b] = 0x7fffffff;
        turned[b] = 0x7fffffff;
        touched[t++] = b;
      }
      const c = code[i]!;
      if ((c & 1) === 0) plain[b] = Math.min(plain[b]!, c >> 1);
      else turned[b] = Math.min(turned[b]!, c >> 1);
    }
    for (const b of touched.subarray(0, t).sort()) {
      const p = plain[b]!;
      const q = turned[b]!;
      hi[w] = b; // w ≤ i: only entries already read are overwritten
      code[w++] = p <= q ? p * 2 : q * 2 + 1;
    }
  }
  start[count] = w;
  return w;
}

function columnsOf(
  count: number,
  start: Uint32Array,
  hi: Int32Array,
  code: Uint16Array,
  kept: number,
  ids: RecordIds,
  arena: ScratchArena,
): PairColumns {
  const wide = ids instanceof Float64Array;
  const a = wide ? arena.take(Float64Array, kept) : arena.take(Int32Array, kept);
  const b = wide ? arena.take(Float64Array, kept) : arena.take(Int32Array, kept);
  const distance = arena.take(Uint16Array, kept);
  const turned = arena.take(Uint8Array, kept);
  for (let lo = 0; lo < count; lo++) {
    const idLo = ids[lo]!;
    for (let i = start[lo]!; i < start[lo + 1]!; i++) {
      const idHi = ids[hi[i]!]!;
      a[i] = idLo < idHi ? idLo : idHi;
      b[i] = idLo < idHi ? idHi : idLo;
      distance[i] = code[i]! >> 1;
      turned[i] = code[i]! & 1;
    }
  }
  return { length: kept, a, b, distance, turned };
}

/** The columns as Pair objects (about 70 bytes each: for results that are not huge). */
export function pairsOf(columns: PairColumns): Pair[] {
  const out: Pair[] = new Array<Pair>(columns.length);
  const { a, b, distance, turned } = columns;
  for (let i = 0; i < columns.length; i++) {
    out[i] = {
      a: a[i]!,
      b: b[i]!,
      distance: distance[i]!,
      kind: turned[i] === 1 ? 'pdq-dihedral' : 'pdq',
    };
  }
  return out;
}
