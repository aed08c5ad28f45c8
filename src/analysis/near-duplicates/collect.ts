// From unit pairs to record pairs: expand each unit to the records holding that hash, keep the
// best plain and the best dihedral distance per record pair, and label the pair. The expansion
// runs twice (count, then fill) so that the record pairs sit in one exact-size table grouped by
// their lower record: at a million clustered records there are tens of millions of them.
import type { Units } from './dedupe.js';
import { VARIANTS, type Pair, type RecordIds } from './packed.js';
import type { Hits } from './sweep.js';

/** Calls `visit(lo, hi, code)` for every record pair named by the hits or by a shared hash. */
function expand(
  count: number,
  units: Units,
  hits: readonly Hits[],
  visit: (lo: number, hi: number, code: number) => void,
): void {
  const { next, reps } = units;
  const add = (o1: number, o2: number, d: number): void => {
    const v1 = o1 >= count;
    const v2 = o2 >= count;
    if (v1 && v2) return; // variant against variant is not part of the relation
    const r1 = v1 ? ((o1 - count) / VARIANTS) | 0 : o1;
    const r2 = v2 ? ((o2 - count) / VARIANTS) | 0 : o2;
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

/**
 * Every record pair named by `hits` (unit pairs) or by two records sharing a hash (distance 0),
 * as Pairs ordered by record position. kind is 'pdq' when the plain distance achieves the
 * minimum (ties go to the plain hash), else 'pdq-dihedral'; distance is the minimum.
 */
export function collectPairs(
  count: number,
  units: Units,
  hits: readonly Hits[],
  ids: RecordIds,
): Pair[] {
  const start = new Uint32Array(count + 1);
  expand(count, units, hits, (lo) => {
    start[lo + 1]!++;
  });
  for (let r = 0; r < count; r++) start[r + 1]! += start[r]!;
  const fill = start.slice(0, count);
  const hi = new Int32Array(start[count]!);
  const code = new Uint16Array(start[count]!); // distance · 2 + dihedral ≤ 513
  expand(count, units, hits, (lo, b, c) => {
    const i = fill[lo]!++;
    hi[i] = b;
    code[i] = c;
  });
  return labelPairs(count, start, hi, code, ids);
}

function labelPairs(
  count: number,
  start: Uint32Array,
  hi: Int32Array,
  code: Uint16Array,
  ids: RecordIds,
): Pair[] {
  const stamp = new Int32Array(count).fill(-1);
  const plain = new Int32Array(count);
  const turned = new Int32Array(count);
  const touched = new Int32Array(count);
  const out: Pair[] = [];
  for (let lo = 0; lo < count; lo++) {
    let t = 0;
    for (let i = start[lo]!; i < start[lo + 1]!; i++) {
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
      const idLo = ids[lo]!;
      const idHi = ids[b]!;
      out.push({
        a: idLo < idHi ? idLo : idHi,
        b: idLo < idHi ? idHi : idLo,
        distance: p <= q ? p : q,
        kind: p <= q ? 'pdq' : 'pdq-dihedral',
      });
    }
  }
  return out;
}
