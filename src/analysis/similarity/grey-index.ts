// An approximate index for the grey-descriptor neighbours (grey-candidates.ts) of large archives,
// where the brute force (queries × objects × 8 turns) is out of reach: an inverted file whose
// coarse quantiser is closed under the 8 turns and flips. Seeded spherical k-means, taken modulo
// the turns (each descriptor joins the nearest centroid under whichever turn of it fits best),
// gives L centroids; the lists are their 8L turned copies. A descriptor's 8 turned copies then
// fall into 8 lists that follow from its own one by composing turns, so only the N descriptors
// are compared with the centroids (N × 8L products, not 8N × 8L), and the same products choose
// the lists each query probes. A list holds (object, turn) entries, never turned copies: a
// query compares its own 8 turned copies with the stored descriptors instead. Lists are chosen
// and scanned in the descriptors' first 24 principal directions (of 36; the covariance averaged
// over the turns), and the best 30 found are compared again exactly, in all cells under all 8
// turns. A product found while scanning for one query is offered to the other object too,
// when it is a query as well (the score is symmetric): a pair is found when either side's probes
// reach the other's list. Memory: N × (36 + 24) floats, 8N entries, N × probes list numbers and
// 30 candidates for each query, about 550 bytes an object when all are queries (55 MB at 100 000
// objects, 550 MB at 1 000 000), besides the rasters and the answer.
// Approximate, measured against the brute force (bench/grey-index.bench.ts): it only chooses
// which pairs to align, and the alignment's verification decides. Deterministic (the same
// descriptors and queries give the same answer): a fixed seed, a fixed number of rounds, ties to
// the lower index; one query's answer can depend on which others are asked, through the offers.
// Pure. The quantiser (principal directions, k-means modulo the turns) is grey-index-quantiser.ts.
import {
  centroidScores,
  compositionTable,
  dot,
  norm2,
  principalBasis,
  queryTurns,
  reduceTurns,
  topIndices,
  trainCentroids,
  turnedBasis,
  turnPermutations,
} from './grey-index-quantiser.js';

/**
 * The search's settings. The defaults were chosen on bench/grey-index.bench.ts (scenes, 20 000
 * objects, all queries): 24 directions and 6 probes find as much as all 36 directions and 4
 * probes, for less (recall@10 0.83 and 0.83; 2.8 and 3.5 s CPU); 12 directions lose too much
 * (0.59); all 36 and 6 probes find more for a third more time (0.88, 3.6 s). Offering each
 * product both ways then raised 24 directions and 6 probes to 0.87 (4 probes: 0.85).
 */
export interface GreyIndexOptions {
  /** Centroids before turning (8 × this many lists); default √(N · probes / 8), at least 1. */
  centroids?: number;
  /** Lists each query scans (of the 8 × centroids). */
  probes?: number;
  /** Principal directions the lists are chosen and scanned in (of the D cells). */
  dims?: number;
  /** Of those, the first few that choose the lists (the scan uses all `dims`). */
  coarseDims?: number;
  /** Objects kept from the scan and compared again in all cells under all 8 turns. */
  rerank?: number;
  /** Rounds of k-means. */
  rounds?: number;
  /** Descriptors k-means (and the principal directions) learn from, per centroid. */
  samplePerCentroid?: number;
}

export const GREY_INDEX_DEFAULTS = {
  probes: 6,
  dims: 24,
  coarseDims: 24,
  rerank: 30,
  rounds: 5,
  samplePerCentroid: 16,
};

/**
 * For each query (a row of `desc`, N rows of D = grid² floats), the `k` other rows whose
 * descriptor correlates best with the query's under one of their 8 turns and flips, best first
 * (ties to the lower row): approximately, from the lists the query's descriptor is nearest to.
 */
export function searchGreyIndex(
  desc: Float32Array,
  grid: number,
  queries: readonly number[],
  k: number,
  options: GreyIndexOptions = {},
): number[][] {
  const o = { ...GREY_INDEX_DEFAULTS, ...options };
  const index = buildGreyIndex(desc, grid, o);
  const R = Math.max(k, o.rerank);
  // A query asked twice is answered once.
  const slot = new Int32Array(index.N).fill(-1);
  queries.forEach((q, x) => {
    if (slot[q]! < 0) slot[q] = x;
  });
  const found = scanLists(index, desc, queries, slot, R);
  const answers = queries.map((q, x) =>
    slot[q] === x ? rerankExactly(index, desc, q, found.candidates(x), k) : [],
  );
  return queries.map((q) => answers[slot[q]!]!);
}

/** The quantiser and the lists: what the scan needs, built once per search. */
interface GreyIndex {
  /** Rows, cells per row, principal directions kept, lists each query probes. */
  N: number;
  D: number;
  r: number;
  probes: number;
  perms: Int32Array[];
  /** The basis seen from each turn (8 × r rows of D). */
  tb: Float64Array;
  /** Each row's lists, nearest first (N × probes). */
  probeLists: Int32Array;
  /** List l holds entries[starts[l] … starts[l + 1]): (position · 8 + turn). */
  starts: Int32Array;
  entries: Int32Array;
  /** The row at each position, and the reduced descriptors in position order (N × r). */
  rowAt: Int32Array;
  byList: Float32Array;
}

function buildGreyIndex(
  desc: Float32Array,
  grid: number,
  o: typeof GREY_INDEX_DEFAULTS & GreyIndexOptions,
): GreyIndex {
  const D = grid * grid;
  const N = desc.length / D;
  const L = Math.max(1, Math.min(N, o.centroids ?? Math.round(Math.sqrt((N * o.probes) / 8))));
  const probes = Math.min(o.probes, 8 * L);
  const r = Math.min(D, o.dims);
  const rc = Math.min(r, o.coarseDims);
  const perms = turnPermutations(grid);
  const compose = compositionTable(perms);
  const nonFlat: number[] = [];
  for (let i = 0; i < N; i++) if (norm2(desc, i, D) > 0.5) nonFlat.push(i);
  const want = Math.min(nonFlat.length, L * o.samplePerCentroid);
  const sample = Array.from(
    { length: want },
    (_, i) => nonFlat[Math.floor((i * nonFlat.length) / want)]!,
  );
  const tb = turnedBasis(principalBasis(desc, sample, perms, r), r, perms);
  const centroids = trainCentroids(desc, sample, L, perms, tb, r, rc, o.rounds);
  // Every row reduced, and its nearest turned centroids: the first is its list, all its probes.
  const reduced = new Float32Array(N * r);
  const turns = new Float64Array(8 * r);
  const scores = new Float64Array(8 * L);
  const near = new Int32Array(probes);
  const probeLists = new Int32Array(N * probes);
  for (let i = 0; i < N; i++) {
    reduceTurns(tb, r, desc, i, D, turns);
    for (let x = 0; x < r; x++) reduced[i * r + x] = turns[x]!;
    centroidScores(turns, centroids, L, r, rc, scores);
    topIndices(scores, probes, near);
    probeLists.set(near, i * probes);
  }
  // The lists (list s·L + c holds T_s(centroid c)): row i's turn t joins the list of
  // T_t T_s*(c*), with (s*, c*) its own nearest.
  const listOf = (i: number, t: number): number => {
    const own = probeLists[i * probes]!;
    return compose[t * 8 + Math.floor(own / L)]! * L + (own % L);
  };
  const starts = new Int32Array(8 * L + 1);
  for (let i = 0; i < N; i++) for (let t = 0; t < 8; t++) starts[listOf(i, t) + 1]!++;
  for (let l = 0; l < 8 * L; l++) starts[l + 1]! += starts[l]!;
  // The 8 lists of one centroid hold the same objects (each under the one turn that brings it
  // there): stored in centroid order, the reduced descriptors a list scans lie side by side.
  const order = Array.from({ length: N }, (_, i) => i);
  order.sort((a, b) => (probeLists[a * probes]! % L) - (probeLists[b * probes]! % L) || a - b);
  const rowAt = Int32Array.from(order);
  const byList = new Float32Array(N * r);
  rowAt.forEach((i, at) => byList.set(reduced.subarray(i * r, i * r + r), at * r));
  const entries = new Int32Array(8 * N);
  const fill = starts.slice(0, 8 * L);
  rowAt.forEach((i, at) => {
    for (let t = 0; t < 8; t++) entries[fill[listOf(i, t)]!++] = at * 8 + t;
  });
  return { N, D, r, probes, perms, tb, probeLists, starts, entries, rowAt, byList };
}

/**
 * Scans each query's probed lists in the r principal directions and keeps its best R. A product
 * found scanning for q is also j's with q (the same turn, undone): when j is asked too, it is
 * offered to j as well, so a pair is found when either side's probes reach the other's list.
 */
function scanLists(
  index: GreyIndex,
  desc: Float32Array,
  queries: readonly number[],
  slot: Int32Array,
  R: number,
): { candidates: (x: number) => Int32Array } {
  const { D, r, probes, tb, probeLists, starts, entries, rowAt, byList } = index;
  const topId = new Int32Array(queries.length * R);
  const topS = new Float32Array(queries.length * R);
  const count = new Int32Array(queries.length);
  const minAt = new Int32Array(queries.length);
  // The score to beat for each query, apart from its candidates: most offers stop here, without
  // touching another query's R candidates (at 100 000 queries, a cache miss each).
  const floor = new Float32Array(queries.length).fill(-Infinity);
  const offer = (x: number, j: number, s: number): void => {
    if (s <= floor[x]!) return;
    const base = x * R;
    const n = count[x]!;
    let at = topId.subarray(base, base + n).indexOf(j);
    if (at >= 0) {
      if (s <= topS[base + at]!) return;
    } else at = n < R ? count[x]!++ : minAt[x]!;
    topId[base + at] = j;
    topS[base + at] = s;
    if (count[x] === R) {
      let m = 0;
      for (let y = 1; y < R; y++) if (topS[base + y]! < topS[base + m]!) m = y;
      minAt[x] = m;
      floor[x] = topS[base + m]!;
    }
  };
  const turns = new Float64Array(8 * r);
  queries.forEach((q, x) => {
    if (slot[q] !== x) return;
    reduceTurns(tb, r, desc, q, D, turns);
    for (let p = 0; p < probes; p++) {
      const l = probeLists[q * probes + p]!;
      for (let e = starts[l]!; e < starts[l + 1]!; e++) {
        const at = entries[e]! >> 3;
        const j = rowAt[at]!;
        if (j === q) continue;
        const s = dot(turns, (entries[e]! & 7) * r, byList, at * r, r);
        offer(x, j, s);
        if (slot[j]! >= 0) offer(slot[j]!, q, s);
      }
    }
  });
  return { candidates: (x) => topId.subarray(x * R, x * R + count[x]!) };
}

/** The candidates compared again exactly, in all D cells and under all 8 turns; the best k. */
function rerankExactly(
  index: GreyIndex,
  desc: Float32Array,
  q: number,
  candidates: Int32Array,
  k: number,
): number[] {
  const { D, perms } = index;
  const full = new Float64Array(8 * D);
  queryTurns(desc, q * D, perms, full);
  const found = Array.from(candidates, (j) => {
    let best = -2;
    for (let t = 0; t < 8; t++) best = Math.max(best, dot(full, t * D, desc, j * D, D));
    return { j, s: best };
  });
  found.sort((a, b) => b.s - a.s || a.j - b.j);
  return found.slice(0, k).map((f) => f.j);
}
