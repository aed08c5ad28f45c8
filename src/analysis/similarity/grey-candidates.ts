// A candidate source for crops that no stored hash pairs with their original: an uneven crop cut
// by up to 15 % a side and then flipped or turned lies at PDQ 92–114 from its original (report
// seed, 80 bases), inside the range of unrelated scenes, so no threshold on the stored hashes can
// select it. The small greyscale raster every analysis keeps (crop-align.ts) can: its inner part,
// area-averaged to a coarse grid and normalised (brightness and contrast drop out), moves little
// under such a crop, and comparing it over the 8 turns and flips of the other makes it indifferent
// to them. Used ONLY to choose which pairs to align; the alignment's verification decides, as for
// every other candidate. Nothing is stored: the descriptor is computed at match time. Pure.
import { ALIGN_TRANSFORMS, transformSquare } from './crop-align.js';
import { searchGreyIndex, type GreyIndexOptions } from './grey-index.js';

/** The inner part described: this fraction is left out from each side of the frame… */
export const GREY_DESCRIPTOR_MARGIN = 0.1;
/**
 * …averaged to GRID × GRID cells. Tune seed, 40 bases, 320 crop variants of the kinds the hash
 * prefilter misses most (crop-flip, crop-flop, uneven 2–4, …): the nearest object of the same
 * group is the first of 1219 for 307 and within the first 3 for 312 with margin 0.1 and a 6×6
 * grid (4×4: 305 and 310; margins 0.15 and 0.2: fewer).
 */
export const GREY_DESCRIPTOR_GRID = 6;
/** How many nearest objects each query aligns with. */
export const GREY_NEIGHBOURS = 10;
/**
 * Up to this many queries × objects the search is brute force (× 8 turns × 36 cells), exact;
 * above it (about 5 000 objects that all need it) an approximate index answers instead
 * (grey-index.ts; its recall against the brute force in bench/grey-index.bench.ts).
 */
export const MAX_GREY_PAIRS = 25_000_000;

const D = GREY_DESCRIPTOR_GRID * GREY_DESCRIPTOR_GRID;

/**
 * The descriptor of an n×n raster: its inner part (GREY_DESCRIPTOR_MARGIN from each side)
 * area-averaged to GRID×GRID cells, minus its mean, scaled to unit length (zeros when flat).
 */
export function greyDescriptor(grey: Uint8Array | Float32Array, n: number): Float32Array {
  const g = GREY_DESCRIPTOR_GRID;
  const from = GREY_DESCRIPTOR_MARGIN * n;
  const cell = ((1 - 2 * GREY_DESCRIPTOR_MARGIN) * n) / g;
  // Per-cell pixel weights along one axis (the same for both axes: the frame is square).
  const weights: { i: number; k: number; w: number }[] = [];
  for (let k = 0; k < g; k++) {
    const s = from + k * cell;
    const e = s + cell;
    for (let i = Math.floor(s); i < Math.ceil(e); i++) {
      const w = Math.min(e, i + 1) - Math.max(s, i);
      if (w > 0) weights.push({ i, k, w });
    }
  }
  const out = new Float32Array(g * g);
  const area = cell * cell;
  for (const y of weights)
    for (const x of weights) out[y.k * g + x.k]! += (y.w * x.w * (grey[y.i * n + x.i] ?? 0)) / area;
  return unit(out);
}

function unit(v: Float32Array): Float32Array {
  let m = 0;
  for (const x of v) m += x;
  m /= v.length;
  let ss = 0;
  for (let i = 0; i < v.length; i++) {
    v[i] = v[i]! - m;
    ss += v[i]! ** 2;
  }
  // Cell means in grey levels: a raster flatter than a hundredth of a level is flat.
  const k = ss < 1e-4 * v.length ? 0 : 1 / Math.sqrt(ss);
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * k;
  return v;
}

/**
 * For each query (an index into `greys`), the `k` other objects whose descriptor correlates best
 * with the query's under one of their 8 turns and flips, best first: exactly (brute force) up to
 * `maxPairs` queries × objects, approximately (grey-index.ts, `index` its settings) above.
 * Rasters of another size than `size`² take no part.
 */
export function nearestByGrey(
  greys: readonly (Uint8Array | undefined)[],
  size: number,
  queries: readonly number[],
  k = GREY_NEIGHBOURS,
  maxPairs = MAX_GREY_PAIRS,
  index: GreyIndexOptions = {},
): Map<number, number[]> {
  const usable = greys.flatMap((g, i) => (g !== undefined && g.length === size * size ? [i] : []));
  if (queries.length * usable.length > maxPairs)
    return nearestByIndex(greys, size, usable, queries, k, index);
  // Every object's descriptor under each turn (turning the raster turns the grid's cells alike).
  const turned = new Float32Array(usable.length * 8 * D);
  const own = new Map<number, Float32Array>();
  usable.forEach((i, u) => {
    const g = greys[i]!;
    ALIGN_TRANSFORMS.forEach((t, ti) => {
      const d = greyDescriptor(transformSquare(g, size, t), size);
      turned.set(d, (u * 8 + ti) * D);
      if (ti === 0) own.set(i, d);
    });
  });
  const out = new Map<number, number[]>();
  for (const q of queries) {
    const d = own.get(q);
    if (d === undefined) continue;
    const top: { j: number; s: number }[] = [];
    for (let u = 0; u < usable.length; u++) {
      const j = usable[u]!;
      if (j === q) continue;
      let best = -2;
      for (let t = 0; t < 8; t++) {
        const base = (u * 8 + t) * D;
        let s = 0;
        for (let c = 0; c < D; c++) s += d[c]! * turned[base + c]!;
        if (s > best) best = s;
      }
      if (top.length < k || best > top[top.length - 1]!.s) {
        top.push({ j, s: best });
        top.sort((x, y) => y.s - x.s);
        if (top.length > k) top.pop();
      }
    }
    out.set(
      q,
      top.map((x) => x.j),
    );
  }
  return out;
}

/** The search above its brute-force limit: own descriptors only (the index turns the cells). */
function nearestByIndex(
  greys: readonly (Uint8Array | undefined)[],
  size: number,
  usable: readonly number[],
  queries: readonly number[],
  k: number,
  options: GreyIndexOptions,
): Map<number, number[]> {
  const desc = new Float32Array(usable.length * D);
  const row = new Int32Array(greys.length).fill(-1);
  usable.forEach((i, u) => {
    desc.set(greyDescriptor(greys[i]!, size), u * D);
    row[i] = u;
  });
  const asked = queries.filter((q) => (row[q] ?? -1) >= 0);
  const found = searchGreyIndex(
    desc,
    GREY_DESCRIPTOR_GRID,
    asked.map((q) => row[q]!),
    k,
    options,
  );
  return new Map(asked.map((q, x) => [q, found[x]!.map((u) => usable[u]!)]));
}
