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
// Pure.
import { ALIGN_TRANSFORMS, transformSquare } from './crop-align.js';

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

/**
 * The principal directions of the descriptors and all their turned copies (the covariance of a
 * sample, averaged over the 8 turns, diagonalised by cyclic Jacobi rotations): the first `r`
 * rows of the returned r × D basis, largest variance first. Photo-like descriptors keep most of
 * their variance in few directions (bench/grey-index), so lists are chosen and scanned there.
 */
function principalBasis(
  desc: Float32Array,
  sample: readonly number[],
  perms: readonly Int32Array[],
  r: number,
): Float64Array {
  const D = perms[0]!.length;
  const S = new Float64Array(D * D);
  for (const i of sample)
    for (let a = 0; a < D; a++) {
      const x = desc[i * D + a]!;
      if (x !== 0) for (let b = 0; b < D; b++) S[a * D + b]! += x * desc[i * D + b]!;
    }
  const A = new Float64Array(D * D);
  for (const p of perms)
    for (let a = 0; a < D; a++) for (let b = 0; b < D; b++) A[a * D + b]! += S[p[a]! * D + p[b]!]!;
  const V = new Float64Array(D * D);
  for (let a = 0; a < D; a++) V[a * D + a] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diag = 0;
    for (let a = 0; a < D; a++) {
      diag += A[a * D + a]! ** 2;
      for (let b = 0; b < D; b++) if (b !== a) off += A[a * D + b]! ** 2;
    }
    if (off <= 1e-24 * diag) break;
    for (let p = 0; p < D - 1; p++)
      for (let q = p + 1; q < D; q++) {
        const apq = A[p * D + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (A[q * D + q]! - A[p * D + p]!) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < D; k++) {
          const [kp, kq] = [A[k * D + p]!, A[k * D + q]!];
          A[k * D + p] = c * kp - s * kq;
          A[k * D + q] = s * kp + c * kq;
        }
        for (let k = 0; k < D; k++) {
          const [pk, qk] = [A[p * D + k]!, A[q * D + k]!];
          A[p * D + k] = c * pk - s * qk;
          A[q * D + k] = s * pk + c * qk;
          const [vp, vq] = [V[k * D + p]!, V[k * D + q]!];
          V[k * D + p] = c * vp - s * vq;
          V[k * D + q] = s * vp + c * vq;
        }
      }
  }
  const order = Array.from({ length: D }, (_, a) => a).sort(
    (a, b) => A[b * D + b]! - A[a * D + a]! || a - b,
  );
  const basis = new Float64Array(r * D);
  order.slice(0, r).forEach((a, i) => {
    for (let c = 0; c < D; c++) basis[i * D + c] = V[c * D + a]!;
  });
  return basis;
}

/**
 * The basis seen from each turn: row i of turn t is basis[i][p_t[c]], so that it applied to a
 * descriptor d gives the basis applied to U_t (queryTurns): d's 8 turned copies, in r numbers each.
 */
function turnedBasis(basis: Float64Array, r: number, perms: readonly Int32Array[]): Float64Array {
  const D = perms[0]!.length;
  const out = new Float64Array(8 * r * D);
  perms.forEach((p, t) => {
    for (let i = 0; i < r; i++)
      for (let c = 0; c < D; c++) out[(t * r + i) * D + c] = basis[i * D + p[c]!]!;
  });
  return out;
}

/** out[t·r + i] = (turned basis t, row i) · desc row: the 8 turned copies of the row, reduced. */
function reduceTurns(
  tb: Float64Array,
  r: number,
  desc: Float32Array,
  row: number,
  D: number,
  out: Float64Array,
): void {
  for (let x = 0; x < 8 * r; x++) out[x] = dot(tb, x * D, desc, row * D, D);
}

/**
 * Products of the 8 reduced turns (8 × r) with all L reduced centroids, over the first `rc` ≤ r
 * principal directions: [s·L + c] ≈ d · T_s(c).
 */
function centroidScores(
  turns: Float64Array,
  reduced: Float32Array,
  L: number,
  r: number,
  rc: number,
  scores: Float64Array,
): void {
  for (let s = 0; s < 8; s++)
    for (let c = 0; c < L; c++) scores[s * L + c] = dot(turns, s * r, reduced, c * r, rc);
}

/** The seeded coarse quantiser: spherical k-means modulo the turns, on an evenly strided sample. */
function trainCentroids(
  desc: Float32Array,
  sample: readonly number[],
  L: number,
  perms: readonly Int32Array[],
  tb: Float64Array,
  r: number,
  rc: number,
  rounds: number,
): Float32Array {
  const D = perms[0]!.length;
  const centroids = new Float64Array(L * D);
  // Seeded start: L distinct sample rows (a partial Fisher–Yates shuffle of the sample).
  const rnd = lcg(0x67726579);
  const order = sample.slice();
  for (let c = 0; c < L && c < order.length; c++) {
    const k = c + Math.floor(rnd() * (order.length - c));
    [order[c], order[k]] = [order[k]!, order[c]!];
    for (let x = 0; x < D; x++) centroids[c * D + x] = desc[order[c]! * D + x]!;
  }
  const inverse = perms.map((p) => {
    const q = new Int32Array(D);
    p.forEach((src, c) => (q[src] = c));
    return q;
  });
  const reduced = new Float32Array(L * r);
  const reduce = (): void => {
    for (let c = 0; c < L; c++)
      for (let i = 0; i < r; i++) {
        let v = 0;
        for (let x = 0; x < D; x++) v += tb[i * D + x]! * centroids[c * D + x]!;
        reduced[c * r + i] = v;
      }
  };
  reduce();
  const turns = new Float64Array(8 * r);
  const scores = new Float64Array(8 * L);
  const best = new Int32Array(1);
  const sums = new Float64Array(L * D);
  for (let round = 0; round < rounds; round++) {
    sums.fill(0);
    for (const i of sample) {
      reduceTurns(tb, r, desc, i, D, turns);
      centroidScores(turns, reduced, L, r, rc, scores);
      topIndices(scores, 1, best);
      const s = Math.floor(best[0]! / L);
      const c = best[0]! % L;
      // d ≈ T_s(centroid), i.e. centroid[p_s[x]] ≈ d[x]: the centroid's frame sees d[p_s⁻¹[y]].
      const p = inverse[s]!;
      for (let y = 0; y < D; y++) sums[c * D + y]! += desc[i * D + p[y]!]!;
    }
    for (let c = 0; c < L; c++) {
      let ss = 0;
      for (let x = 0; x < D; x++) ss += sums[c * D + x]! ** 2;
      if (ss < 1e-12) continue; // an empty centroid keeps its place
      const k = 1 / Math.sqrt(ss);
      for (let x = 0; x < D; x++) centroids[c * D + x] = sums[c * D + x]! * k;
    }
    reduce();
  }
  return reduced;
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
  const o = { ...GREY_INDEX_DEFAULTS, ...options };
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
  let reduced = new Float32Array(N * r);
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
  reduced = new Float32Array(0); // not kept twice
  const entries = new Int32Array(8 * N);
  const fill = starts.slice(0, 8 * L);
  rowAt.forEach((i, at) => {
    for (let t = 0; t < 8; t++) entries[fill[listOf(i, t)]!++] = at * 8 + t;
  });

  // Each query's best R so far. A product found scanning for q is also j's with q (the same
  // turn, undone): when j is asked too, it is offered to j as well, so a pair is found when
  // either side's probes reach the other's list.
  const R = Math.max(k, o.rerank);
  const slot = new Int32Array(N).fill(-1);
  queries.forEach((q, x) => {
    if (slot[q]! < 0) slot[q] = x;
  });
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
  // Exactly, in all D cells and under all 8 turns (the scan saw r of them, and one turn).
  const full = new Float64Array(8 * D);
  const answers = queries.map((q, x) => {
    if (slot[q] !== x) return [];
    queryTurns(desc, q * D, perms, full);
    const found = Array.from(topId.subarray(x * R, x * R + count[x]!), (j) => {
      let best = -2;
      for (let t = 0; t < 8; t++) best = Math.max(best, dot(full, t * D, desc, j * D, D));
      return { j, s: best };
    });
    found.sort((a, b) => b.s - a.s || a.j - b.j);
    return found.slice(0, k).map((f) => f.j);
  });
  return queries.map((q) => answers[slot[q]!]!);
}

function norm2(desc: Float32Array, row: number, D: number): number {
  let ss = 0;
  for (let c = 0; c < D; c++) ss += desc[row * D + c]! ** 2;
  return ss;
}
