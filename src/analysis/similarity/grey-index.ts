// An approximate index for the grey-descriptor neighbours (grey-candidates.ts) of large archives,
// where the brute force (queries × objects × 8 turns) is out of reach: an inverted file whose
// coarse quantiser is closed under the 8 turns and flips. Seeded spherical k-means, taken modulo
// the turns (each descriptor joins the nearest centroid under whichever turn of it fits best),
// gives L centroids; the lists are their 8L turned copies. A descriptor's 8 turned copies then
// fall into 8 lists that follow from its own one by composing turns, so only the N descriptors
// are compared with the centroids (N × 8L products, not 8N × 8L), and the same products choose
// the lists each query probes. A list holds (object, turn) entries, never turned copies: a
// query compares its own 8 turned copies with the stored descriptors instead, so the index keeps
// N × D floats and 8N entries. Approximate, measured against the brute force (bench/grey-index):
// it only chooses which pairs to align, and the alignment's verification decides. Deterministic:
// a fixed seed, a fixed number of rounds, ties to the lower index. Pure.
import { ALIGN_TRANSFORMS, transformSquare } from './crop-align.js';

/** The search's settings; the defaults are the ones bench/grey-index.bench.ts measured. */
export interface GreyIndexOptions {
  /** Centroids before turning (8 × this many lists); default √(N · probes / 8), at least 1. */
  centroids?: number;
  /** Lists each query scans (of the 8 × centroids). */
  probes?: number;
  /** Objects kept from the scan and compared again under all 8 turns, before the best k. */
  rerank?: number;
  /** Rounds of k-means. */
  rounds?: number;
  /** Descriptors k-means learns from (an evenly strided sample), per centroid. */
  samplePerCentroid?: number;
}

export const GREY_INDEX_DEFAULTS: Required<Omit<GreyIndexOptions, 'centroids'>> = {
  probes: 6,
  rerank: 30,
  rounds: 6,
  samplePerCentroid: 24,
};

/**
 * The cell permutation of each turn of a grid×grid descriptor, in ALIGN_TRANSFORMS order:
 * turned[c] = d[perm[t][c]], as transformSquare turns the raster (the margins and the grid are
 * symmetric, so turning the raster moves whole cells).
 */
export function turnPermutations(grid: number): Int32Array[] {
  const ids = Uint8Array.from({ length: grid * grid }, (_, i) => i);
  return ALIGN_TRANSFORMS.map((t) => Int32Array.from(transformSquare(ids, grid, t)));
}

/** The index in `perms` of "first b, then a" (turning by b and the result by a). */
function compositionTable(perms: readonly Int32Array[]): Int32Array {
  const n = perms.length;
  const table = new Int32Array(n * n);
  const key = (p: ArrayLike<number>): string => Array.from(p).join(',');
  const where = new Map(perms.map((p, i) => [key(p), i]));
  for (let a = 0; a < n; a++)
    for (let b = 0; b < n; b++) {
      // (T_a (T_b d))[c] = (T_b d)[pa[c]] = d[pb[pa[c]]].
      const pa = perms[a]!;
      const pb = perms[b]!;
      const found = where.get(key(pa.map((c) => pb[c]!)));
      if (found === undefined) throw new Error('the turns are not closed under composition');
      table[a * n + b] = found;
    }
  return table;
}

/**
 * Writes into `out` (8 × D) the vectors U_t with U_t · e = d · T_t e for every e: comparing them
 * with a stored descriptor compares d with each of its turned copies.
 */
function queryTurns(
  d: Float32Array,
  dOff: number,
  perms: readonly Int32Array[],
  out: Float64Array,
): void {
  const D = perms[0]!.length;
  perms.forEach((p, t) => {
    for (let c = 0; c < D; c++) out[t * D + p[c]!] = d[dOff + c]!;
  });
}

/** a[aOff…] · b[bOff…] over D; four running sums (a quarter faster in V8 than one, measured). */
function dot(a: Float64Array, aOff: number, b: Float32Array, bOff: number, D: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let c = 0;
  for (; c + 3 < D; c += 4) {
    s0 += a[aOff + c]! * b[bOff + c]!;
    s1 += a[aOff + c + 1]! * b[bOff + c + 1]!;
    s2 += a[aOff + c + 2]! * b[bOff + c + 2]!;
    s3 += a[aOff + c + 3]! * b[bOff + c + 3]!;
  }
  for (; c < D; c++) s0 += a[aOff + c]! * b[bOff + c]!;
  return s0 + s1 + s2 + s3;
}

/** A small LCG (Numerical Recipes constants): the only randomness, seeded, so runs repeat. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * For one descriptor row, the products with all 8 × L turned centroids, written to `scores`
 * at [s * L + c] = d · T_s(centroid c).
 */
function centroidScores(
  desc: Float32Array,
  row: number,
  centroids: Float32Array,
  L: number,
  perms: readonly Int32Array[],
  turns: Float64Array,
  scores: Float64Array,
): void {
  const D = perms[0]!.length;
  queryTurns(desc, row * D, perms, turns);
  for (let s = 0; s < 8; s++)
    for (let c = 0; c < L; c++) scores[s * L + c] = dot(turns, s * D, centroids, c * D, D);
}

/** Indices of the `p` largest of `scores` (ties to the lower index), best first. */
function topIndices(scores: Float64Array, p: number, out: Int32Array): void {
  let n = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (n === p && s <= scores[out[n - 1]!]!) continue;
    let at = n < p ? n++ : n - 1;
    while (at > 0 && scores[out[at - 1]!]! < s) {
      out[at] = out[at - 1]!;
      at--;
    }
    out[at] = i;
  }
}

/** Spherical k-means modulo the turns on an evenly strided sample. */
function trainCentroids(
  desc: Float32Array,
  N: number,
  L: number,
  perms: readonly Int32Array[],
  o: Required<GreyIndexOptions>,
): Float32Array {
  const D = perms[0]!.length;
  const nonFlat: number[] = [];
  for (let i = 0; i < N; i++) {
    let ss = 0;
    for (let c = 0; c < D; c++) ss += desc[i * D + c]! ** 2;
    if (ss > 0.5) nonFlat.push(i);
  }
  const want = Math.min(nonFlat.length, Math.max(L, L * o.samplePerCentroid));
  const sample = Array.from(
    { length: want },
    (_, i) => nonFlat[Math.floor((i * nonFlat.length) / want)]!,
  );
  const centroids = new Float32Array(L * D);
  // Seeded start: L distinct sample rows (a partial Fisher–Yates shuffle of the sample).
  const rnd = lcg(0x67726579);
  const order = sample.slice();
  for (let c = 0; c < L && c < order.length; c++) {
    const k = c + Math.floor(rnd() * (order.length - c));
    [order[c], order[k]] = [order[k]!, order[c]!];
    centroids.set(desc.subarray(order[c]! * D, order[c]! * D + D), c * D);
  }
  const inverse = perms.map((p) => {
    const q = new Int32Array(D);
    p.forEach((src, c) => (q[src] = c));
    return q;
  });
  const turns = new Float64Array(8 * D);
  const scores = new Float64Array(8 * L);
  const best = new Int32Array(1);
  const sums = new Float64Array(L * D);
  for (let round = 0; round < o.rounds; round++) {
    sums.fill(0);
    for (const i of sample) {
      centroidScores(desc, i, centroids, L, perms, turns, scores);
      topIndices(scores, 1, best);
      const s = Math.floor(best[0]! / L);
      const c = best[0]! % L;
      // d ≈ T_s(centroid), i.e. centroid[p_s[x]] ≈ d[x]: the centroid's frame sees d[p_s⁻¹[y]].
      const p = inverse[s]!;
      for (let x = 0; x < D; x++) sums[c * D + x]! += desc[i * D + p[x]!]!;
    }
    for (let c = 0; c < L; c++) {
      let ss = 0;
      for (let x = 0; x < D; x++) ss += sums[c * D + x]! ** 2;
      if (ss < 1e-12) continue; // an empty centroid keeps its place
      const k = 1 / Math.sqrt(ss);
      for (let x = 0; x < D; x++) centroids[c * D + x] = sums[c * D + x]! * k;
    }
  }
  return centroids;
}

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
  const D = grid * grid;
  const N = desc.length / D;
  const probes0 = options.probes ?? GREY_INDEX_DEFAULTS.probes;
  const L = Math.max(1, Math.min(N, options.centroids ?? Math.round(Math.sqrt((N * probes0) / 8))));
  const o: Required<GreyIndexOptions> = { ...GREY_INDEX_DEFAULTS, ...options, centroids: L };
  const probes = Math.min(o.probes, 8 * L);
  const perms = turnPermutations(grid);
  const compose = compositionTable(perms);
  const centroids = trainCentroids(desc, N, L, perms, o);
  // Every row's nearest turned centroids: the first is its list, all of them are its probes.
  const turns = new Float64Array(8 * D);
  const scores = new Float64Array(8 * L);
  const near = new Int32Array(probes);
  const probeLists = new Int32Array(N * probes);
  for (let i = 0; i < N; i++) {
    centroidScores(desc, i, centroids, L, perms, turns, scores);
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
  const entries = new Int32Array(8 * N);
  const fill = starts.slice(0, 8 * L);
  for (let i = 0; i < N; i++)
    for (let t = 0; t < 8; t++) entries[fill[listOf(i, t)]!++] = i * 8 + t;

  const R = Math.max(k, o.rerank);
  const topId = new Int32Array(R);
  const topS = new Float64Array(R);
  return queries.map((q) => {
    queryTurns(desc, q * D, perms, turns);
    let n = 0;
    let minAt = 0;
    for (let p = 0; p < probes; p++) {
      const l = probeLists[q * probes + p]!;
      for (let e = starts[l]!; e < starts[l + 1]!; e++) {
        const j = entries[e]! >> 3;
        if (j === q) continue;
        const s = dot(turns, (entries[e]! & 7) * D, desc, j * D, D);
        if (n === R && s <= topS[minAt]!) continue;
        let at = topId.subarray(0, n).indexOf(j);
        if (at >= 0) {
          if (s <= topS[at]!) continue;
        } else at = n < R ? n++ : minAt;
        topId[at] = j;
        topS[at] = s;
        if (n === R) for (let x = 0; x < R; x++) if (topS[x]! < topS[minAt]!) minAt = x;
      }
    }
    // Again under all 8 turns (a candidate's best turn may lie in a list not scanned).
    const found = Array.from(topId.subarray(0, n), (j) => {
      let best = -2;
      for (let t = 0; t < 8; t++) best = Math.max(best, dot(turns, t * D, desc, j * D, D));
      return { j, s: best };
    });
    found.sort((a, b) => b.s - a.s || a.j - b.j);
    return found.slice(0, k).map((x) => x.j);
  });
}
