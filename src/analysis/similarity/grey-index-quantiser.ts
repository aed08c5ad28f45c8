// The coarse quantiser of the grey-descriptor index (grey-index.ts): the turns and flips of a
// grid×grid descriptor as cell permutations, the principal directions the lists are chosen and
// scanned in, and the seeded spherical k-means, taken modulo the turns, that gives the centroids.
// Also the small dense kernels (products, the best few of a row of scores) the search shares.
// Pure and deterministic: the only randomness is a seeded LCG.
import { ALIGN_TRANSFORMS, transformSquare } from './crop-align.js';

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
export function compositionTable(perms: readonly Int32Array[]): Int32Array {
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
export function queryTurns(
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
export function dot(
  a: Float64Array,
  aOff: number,
  b: Float32Array,
  bOff: number,
  D: number,
): number {
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
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Indices of the `p` largest of `scores` (ties to the lower index), best first. */
export function topIndices(scores: Float64Array, p: number, out: Int32Array): void {
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
export function principalBasis(
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
export function turnedBasis(
  basis: Float64Array,
  r: number,
  perms: readonly Int32Array[],
): Float64Array {
  const D = perms[0]!.length;
  const out = new Float64Array(8 * r * D);
  perms.forEach((p, t) => {
    for (let i = 0; i < r; i++)
      for (let c = 0; c < D; c++) out[(t * r + i) * D + c] = basis[i * D + p[c]!]!;
  });
  return out;
}

/** out[t·r + i] = (turned basis t, row i) · desc row: the 8 turned copies of the row, reduced. */
export function reduceTurns(
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
export function centroidScores(
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
export function trainCentroids(
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

export function norm2(desc: Float32Array, row: number, D: number): number {
  let ss = 0;
  for (let c = 0; c < D; c++) ss += desc[row * D + c]! ** 2;
  return ss;
}
