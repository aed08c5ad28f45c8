// Crop alignment: is one image a crop of another (up to a rotation or flip, a resize, a
// re-compression or a change of brightness), and which box of the original does it show?
//
// Works on the small square greyscale rasters kept with each analysis (image/raster
// greyThumbnail): the whole frame stretched to N×N. Stretching turns any axis-aligned crop into a
// scale and an offset per axis (x_A = ox + sx·x_B in fractions of the frame), so the search is
// over four numbers, and separable: the column means of B match the column means of A's rows
// [oy, oy+sy] resampled by (sx, ox), and likewise for rows. A coarse 1-D search on those profiles,
// alternated between the axes, finds the box; a 2-D refinement and a normalised cross-correlation
// over the whole box (and its worst quarter) verify it. Pure; a few milliseconds per pair.

import { DIHEDRAL_NAMES, type DihedralName } from '../pdq/index.js';
/** The 8 ways a square raster can be turned or mirrored: PDQ's dihedral names, in its order. */
export const ALIGN_TRANSFORMS = DIHEDRAL_NAMES;
export type AlignTransform = DihedralName;

/**
 * Where the other image sits in the original, in fractions of the original's stored width and
 * height (pixels as decoded, before any EXIF orientation): left and top edges, right and bottom
 * edges, from the original's top-left corner. A 3 % cut on the right only is {0, 0, 0.97, 1}.
 */
export interface CropBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface CropAlignment {
  box: CropBox;
  /** How the other image was turned or mirrored relative to the original's pixels. */
  transform: AlignTransform;
  /** Normalised cross-correlation over the box (−1…1) and over its worst quarter. */
  score: number;
  worstQuarter: number;
  /**
   * The same correlation on the detail (each pixel minus its 3×3 neighbourhood): the horizon and
   * the vignette that every outdoor photo shares do not count here, so this is what verifies.
   */
  detail: number;
  /** The detail correlation of the worst quarter. */
  detailQuarter: number;
  /**
   * After fitting brightness and contrast over the whole box, the largest RMS residual of the
   * 16 blocks (4×4), relative to the other image's contrast: a changed subject leaves a block
   * that does not fit, where re-compression and resizing leave little anywhere.
   */
  residual: number;
  /**
   * The detail correlation and worst-block residual again, on the original's own grid inside the
   * box: the other raster area-averaged down to the box's size in the original's pixels, rather
   * than the original stretched up to the other's. Stretching blurs the original's side by up to
   * 1/0.7 and costs a true crop its detail; comparing at the coarser of the two resolutions does not.
   * The residual here is taken after a slight blur of both sides (smooth121).
   */
  native: { detail: number; residual: number };
}

export interface AlignOptions {
  /** Smallest side of the box kept, as a fraction (0.7 = up to 30 % cut from one axis). */
  minScale?: number;
}

/** Largest total cut per axis considered by default: 15 % from each side. */
export const DEFAULT_MIN_SCALE = 0.7;
const STEP = 0.01;

/**
 * The best alignment of `other` as a crop of `original` (both `size`×`size` rasters, row-major),
 * over the 8 turns and flips; null when the rasters are not square and equal in size.
 *
 * @example
 *   const a = alignCrop(greyOfOriginal, greyOfCrop, 32);
 *   // a.box ≈ { left: 0.03, top: 0, right: 0.95, bottom: 0.98 }, a.score ≈ 0.99
 */
export function alignCrop(
  original: Uint8Array,
  other: Uint8Array,
  size: number,
  opts: AlignOptions = {},
): CropAlignment | null {
  if (original.length !== size * size || other.length !== size * size || size < 8) return null;
  const minScale = opts.minScale ?? DEFAULT_MIN_SCALE;
  const a = Float32Array.from(original);
  const search = memoSearch(minScale);
  // A first pass on the profiles ranks the 8 turns; the full search runs on the two best.
  const colA = profile(a, size, 'cols', 0, 1);
  const rowA = profile(a, size, 'rows', 0, 1);
  const ranked = ALIGN_TRANSFORMS.map((t) => {
    const b = transformSquare(other, size, t);
    const r =
      search(colA, profile(b, size, 'cols', 0, 1)).r +
      search(rowA, profile(b, size, 'rows', 0, 1)).r;
    return { t, b, r };
  }).sort((x, y) => y.r - x.r);
  let best: CropAlignment | null = null;
  for (const { t, b } of ranked.slice(0, 2)) {
    const found = alignOne(a, b, size, minScale, search);
    if (best === null || found.native.detail > best.native.detail)
      best = { ...found, transform: t };
  }
  return best;
}

export interface Params {
  sx: number;
  ox: number;
  sy: number;
  oy: number;
}

type Search1d = (a: Float32Array, b: Float32Array) => { s: number; o: number; r: number };

/**
 * search1d at one minScale, remembering its answers for the profiles it has seen. A turn or flip
 * only reverses a profile or swaps the two axes', so the 8 turns of the ranking bring 4 distinct
 * profiles per axis, not 8; and the first search of alignOne is the ranking's own. The profiles
 * are sums of whole grey levels, exact in float32 whatever the order of summation, so equal
 * profiles are equal bit for bit and the answer is the one search1d would give again.
 */
function memoSearch(minScale: number): Search1d {
  const seen: { a: Float32Array; b: Float32Array; found: { s: number; o: number; r: number } }[] =
    [];
  return (a, b) => {
    const hit = seen.find((m) => sameValues(m.a, a) && sameValues(m.b, b));
    if (hit !== undefined) return hit.found;
    const found = search1d(a, b, minScale);
    seen.push({ a, b, found });
    return found;
  };
}

function sameValues(x: Float32Array, y: Float32Array): boolean {
  if (x === y) return true;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function alignOne(
  a: Float32Array,
  b: Float32Array,
  n: number,
  minScale: number,
  search: Search1d,
): Omit<CropAlignment, 'transform'> {
  let p: Params = { sx: 1, ox: 0, sy: 1, oy: 0 };
  const colB = profile(b, n, 'cols', 0, 1);
  const rowB = profile(b, n, 'rows', 0, 1);
  for (let round = 0; round < 2; round++) {
    const x = search(profile(a, n, 'cols', p.oy, p.oy + p.sy), colB);
    p = { ...p, sx: x.s, ox: x.o };
    const y = search(profile(a, n, 'rows', p.ox, p.ox + p.sx), rowB);
    p = { ...p, sy: y.s, oy: y.o };
  }
  // One sampler for the descent and the final score: the score's point is the descent's last.
  const rows = new RowSampler(a, n);
  p = refine(rows, b, n, p, minScale);
  return {
    ...score2d(rows, a, b, n, p),
    box: {
      left: clamp01(p.ox),
      top: clamp01(p.oy),
      right: clamp01(p.ox + p.sx),
      bottom: clamp01(p.oy + p.sy),
    },
  };
}

/** Mean of each column over rows [from, to) (fractions), or of each row over columns. */
function profile(
  g: Float32Array,
  n: number,
  axis: 'cols' | 'rows',
  from: number,
  to: number,
): Float32Array {
  const lo = Math.max(0, Math.min(n - 1, Math.floor(from * n)));
  const hi = Math.max(lo + 1, Math.min(n, Math.ceil(to * n)));
  const out = new Float32Array(n);
  for (let k = lo; k < hi; k++) {
    for (let i = 0; i < n; i++) {
      const v = axis === 'cols' ? g[k * n + i] : g[i * n + k];
      out[i] = (out[i] ?? 0) + (v ?? 0);
    }
  }
  return out;
}

/**
 * Scale and offset of `b` within `a` (1-D profiles), maximising their correlation: a coarse grid
 * (steps of 2 %), then a fine one (0.5 %) around its best.
 */
function search1d(
  a: Float32Array,
  b: Float32Array,
  minScale: number,
): { s: number; o: number; r: number } {
  const n = b.length;
  const bn = normalise(b);
  const sampled = new Float32Array(n);
  const last = a.length - 1;
  /** (s · (i + 0.5)) / n for the scale being searched: the same for every offset. */
  const spread = new Float64Array(n);
  const scaleBy = (s: number): void => {
    for (let i = 0; i < n; i++) spread[i] = (s * (i + 0.5)) / n;
  };
  const at = (o: number): number => {
    // sample1d inlined (the hot loop of the search): the same arithmetic, so the same result.
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const p = Math.max(0, Math.min(last, (o + spread[i]!) * n - 0.5));
      const k = Math.min(last - 1, Math.floor(p));
      const f = p - k;
      const v = Math.fround(a[k]! * (1 - f) + a[k + 1]! * f); // as stored in `sampled`
      sampled[i] = v;
      sum += v;
    }
    return dotNormalisedWithSum(sampled, sum, bn);
  };
  let best = { s: 1, o: 0, r: -Infinity };
  for (let s = 1; s >= minScale - 1e-9; s -= 2 * STEP) {
    scaleBy(s);
    for (let o = 0; o + s <= 1 + 1e-9; o += 2 * STEP) {
      const r = at(o);
      if (r > best.r) best = { s, o, r };
    }
  }
  const coarse = best;
  for (let ds = -4; ds <= 4; ds++) {
    const s = coarse.s + (ds * STEP) / 2;
    if (s < minScale - 1e-9 || s > 1 + 1e-9) continue;
    scaleBy(s);
    for (let dO = -4; dO <= 4; dO++) {
      const o = coarse.o + (dO * STEP) / 2;
      if (o < -1e-9 || o + s > 1 + 1e-9) continue;
      const r = at(o);
      if (r > best.r) best = { s, o, r };
    }
  }
  return best;
}

/** `x` minus its mean, scaled to unit length (all zeros when flat). */
function normalise(x: Float32Array): Float32Array {
  let m = 0;
  for (let i = 0; i < x.length; i++) m += x[i] ?? 0;
  m /= x.length;
  let ss = 0;
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const d = (x[i] ?? 0) - m;
    out[i] = d;
    ss += d * d;
  }
  const k = ss < 1e-9 ? 0 : 1 / Math.sqrt(ss);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * k;
  return out;
}

/** Correlation of `x` with an already normalised `yn`, given the sum of `x` (added in index order). */
function dotNormalisedWithSum(x: Float32Array, sum: number, yn: Float32Array): number {
  const m = sum / x.length;
  let xy = 0;
  let xx = 0;
  for (let i = 0; i < x.length; i++) {
    const d = (x[i] ?? 0) - m;
    xy += d * (yn[i] ?? 0);
    xx += d * d;
  }
  return xx < 1e-9 ? 0 : xy / Math.sqrt(xx);
}

/** Coordinate descent on the 2-D correlation, from `p`, with halving steps. */
function refine(rows: RowSampler, b: Float32Array, n: number, p: Params, minScale: number): Params {
  const bn = normalise(b);
  const sampled = new Float32Array(n * n);
  // The descent comes back to points it has scored (a fifth of them): each is scored once.
  const scored = new Map<string, number>();
  const at = (q: Params): number => {
    const key = `${q.sx} ${q.ox} ${q.sy} ${q.oy}`;
    let r = scored.get(key);
    if (r === undefined) {
      r = dotNormalisedWithSum(sampled, rows.resampleSum(q, sampled), bn);
      scored.set(key, r);
    }
    return r;
  };
  let cur = p;
  let cur2 = at(cur);
  for (let step = STEP / 2; step >= STEP / 4; step /= 2) {
    let improved = true;
    for (let guard = 0; improved && guard < 6; guard++) {
      improved = false;
      for (const key of ['sx', 'ox', 'sy', 'oy'] as const) {
        for (const d of [-step, step]) {
          const q = { ...cur, [key]: cur[key] + d };
          if (!valid(q, minScale)) continue;
          const s = at(q);
          if (s > cur2 + 1e-6) {
            cur = q;
            cur2 = s;
            improved = true;
          }
        }
      }
    }
  }
  return cur;
}

/**
 * `a` resampled bilinearly into b's frame under `p`, for the many nearby parameters of `refine`,
 * in two passes: each row of `a` interpolated at the columns' positions (kept while sx and ox stay
 * the same, as they do whenever the descent moves sy or oy), then the rows interpolated at each
 * output row's position. The same arithmetic as sampling each pixel between its four neighbours
 * (each row's interpolation is kept as the very double that per-pixel computation makes), so the
 * same result; the test keeps the per-pixel computation as its oracle.
 */
export class RowSampler {
  readonly #a: Float32Array;
  readonly #n: number;
  /**
   * Row r of `a` at column position x, for two (sx, ox): the descent's current point, and the
   * one it tries along sx or ox (the most recently used is first).
   */
  readonly #kept: { sx: number; ox: number; across: Float64Array }[];
  readonly #xi: Int32Array;
  readonly #xf: Float64Array;

  constructor(a: Float32Array, n: number) {
    this.#a = a;
    this.#n = n;
    this.#kept = [0, 1].map(() => ({
      sx: Number.NaN,
      ox: Number.NaN,
      across: new Float64Array(n * n),
    }));
    this.#xi = new Int32Array(n);
    this.#xf = new Float64Array(n);
  }

  resampleSum(p: Params, out: Float32Array): number {
    const n = this.#n;
    const a = this.#a;
    const kept = this.#kept;
    if (kept[0]!.sx !== p.sx || kept[0]!.ox !== p.ox) kept.reverse();
    const slot = kept[0]!;
    const across = slot.across;
    if (slot.sx !== p.sx || slot.ox !== p.ox) {
      const xi = this.#xi;
      const xf = this.#xf;
      for (let x = 0; x < n; x++) {
        const px = Math.max(0, Math.min(n - 1, (p.ox + (p.sx * (x + 0.5)) / n) * n - 0.5));
        xi[x] = Math.min(n - 2, Math.floor(px));
        xf[x] = px - xi[x]!;
      }
      for (let r = 0; r < n; r++) {
        const r0 = r * n;
        for (let x = 0; x < n; x++) {
          const i = xi[x]!;
          const fx = xf[x]!;
          across[r0 + x] = a[r0 + i]! * (1 - fx) + a[r0 + i + 1]! * fx;
        }
      }
      slot.sx = p.sx;
      slot.ox = p.ox;
    }
    let sum = 0;
    for (let y = 0; y < n; y++) {
      const py = Math.max(0, Math.min(n - 1, (p.oy + (p.sy * (y + 0.5)) / n) * n - 0.5));
      const j = Math.min(n - 2, Math.floor(py));
      const fy = py - j;
      const r0 = j * n;
      const r1 = r0 + n;
      for (let x = 0; x < n; x++) {
        const v = Math.fround(across[r0 + x]! * (1 - fy) + across[r1 + x]! * fy);
        out[y * n + x] = v;
        sum += v;
      }
    }
    return sum;
  }
}

function valid(p: Params, minScale: number): boolean {
  const tol = 0.01;
  return (
    p.sx >= minScale - tol &&
    p.sy >= minScale - tol &&
    p.sx <= 1 + tol &&
    p.sy <= 1 + tol &&
    p.ox >= -tol &&
    p.oy >= -tol &&
    p.ox + p.sx <= 1 + tol &&
    p.oy + p.sy <= 1 + tol
  );
}

/** Correlation of `b` with `rows`' raster resampled into b's frame, overall and in its worst quarter. */
function score2d(
  rows: RowSampler,
  a: Float32Array,
  b: Float32Array,
  n: number,
  p: Params,
): Omit<CropAlignment, 'box' | 'transform'> {
  const sampled = new Float32Array(n * n);
  rows.resampleSum(p, sampled);
  const score = correlation(sampled, b);
  const ha = highPass(sampled, n);
  const hb = highPass(b, n);
  return {
    score,
    worstQuarter: worstQuarterOf(sampled, b, n),
    detail: correlation(ha, hb),
    detailQuarter: worstQuarterOf(ha, hb, n),
    residual: worstBlockResidual(sampled, b, n, n),
    native: nativeScore(a, b, n, p),
  };
}

/** See CropAlignment.native. */
function nativeScore(
  a: Float32Array,
  b: Float32Array,
  n: number,
  p: Params,
): { detail: number; residual: number } {
  const w = Math.max(8, Math.min(n, Math.round(p.sx * n)));
  const h = Math.max(8, Math.min(n, Math.round(p.sy * n)));
  const down = areaResample(b, n, n, w, h);
  const here = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const ay = (p.oy + (p.sy * (y + 0.5)) / h) * n - 0.5;
    for (let x = 0; x < w; x++) {
      const ax = (p.ox + (p.sx * (x + 0.5)) / w) * n - 0.5;
      here[y * w + x] = sample2d(a, n, ax, ay);
    }
  }
  return {
    detail: correlation(highPassRect(here, w, h), highPassRect(down, w, h)),
    residual: worstBlockResidual(smooth121(here, w, h), smooth121(down, w, h), w, h),
  };
}

/**
 * `g` (w×h) blurred by [1 2 1]/4 along each axis (edges repeated). The two sides of a comparison
 * reach their common grid differently (one bilinearly sampled at sub-pixel offsets, the other area
 * averaged), so a sharp edge, such as the number card's, leaves a residual along it even in a true
 * crop; blurring both alike evens that out, while a changed subject (a blob the size of several
 * pixels) still leaves its block off (tune seed, 40 bases, crop variants ↔ base verified: 507/560
 * before, 552/560 after; same-setting negatives: 41/410 before, 7/410 after).
 */
export function smooth121(g: Float32Array, w: number, h: number): Float32Array {
  const rows = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const r = y * w;
    for (let x = 0; x < w; x++)
      rows[r + x] =
        (g[r + Math.max(0, x - 1)]! + 2 * g[r + x]! + g[r + Math.min(w - 1, x + 1)]!) / 4;
  }
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const up = Math.max(0, y - 1) * w;
    const down = Math.min(h - 1, y + 1) * w;
    for (let x = 0; x < w; x++)
      out[y * w + x] = (rows[up + x]! + 2 * rows[y * w + x]! + rows[down + x]!) / 4;
  }
  return out;
}

/** `src` (sw×sh) area-averaged to dw×dh (dw ≤ sw, dh ≤ sh), separably, with partial pixels weighted. */
export function areaResample(
  src: Float32Array,
  sw: number,
  sh: number,
  dw: number,
  dh: number,
): Float32Array {
  const rows = new Float32Array(dw * sh);
  const kx = sw / dw;
  for (let x = 0; x < dw; x++) {
    const from = x * kx;
    const to = from + kx;
    for (let i = Math.floor(from); i < Math.min(sw, Math.ceil(to)); i++) {
      const wgt = Math.min(to, i + 1) - Math.max(from, i);
      for (let y = 0; y < sh; y++)
        rows[y * dw + x] = (rows[y * dw + x] ?? 0) + wgt * (src[y * sw + i] ?? 0);
    }
  }
  const out = new Float32Array(dw * dh);
  const ky = sh / dh;
  for (let y = 0; y < dh; y++) {
    const from = y * ky;
    const to = from + ky;
    for (let j = Math.floor(from); j < Math.min(sh, Math.ceil(to)); j++) {
      const wgt = Math.min(to, j + 1) - Math.max(from, j);
      for (let x = 0; x < dw; x++)
        out[y * dw + x] = (out[y * dw + x] ?? 0) + wgt * (rows[j * dw + x] ?? 0);
    }
  }
  const area = kx * ky;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / area;
  return out;
}

export function worstBlockResidual(x: Float32Array, y: Float32Array, w: number, h: number): number {
  const size = w * h;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < size; i++) {
    mx += x[i] ?? 0;
    my += y[i] ?? 0;
  }
  mx /= size;
  my /= size;
  let xy = 0;
  let xx = 0;
  let yy = 0;
  for (let i = 0; i < size; i++) {
    const dx = (x[i] ?? 0) - mx;
    const dy = (y[i] ?? 0) - my;
    xy += dx * dy;
    xx += dx * dx;
    yy += dy * dy;
  }
  if (yy < 1e-9) return 1;
  const gain = xx < 1e-9 ? 0 : xy / xx;
  const sd = Math.sqrt(yy / size);
  let worst = 0;
  // 4×4 blocks; the last row and column of blocks take the remainder.
  for (let by = 0; by < 4; by++) {
    const y0 = Math.floor((by * h) / 4);
    const y1 = Math.floor(((by + 1) * h) / 4);
    for (let bx = 0; bx < 4; bx++) {
      const x0 = Math.floor((bx * w) / 4);
      const x1 = Math.floor(((bx + 1) * w) / 4);
      let ss = 0;
      for (let j = y0; j < y1; j++) {
        for (let i = x0; i < x1; i++) {
          const k = j * w + i;
          const r = (y[k] ?? 0) - my - gain * ((x[k] ?? 0) - mx);
          ss += r * r;
        }
      }
      worst = Math.max(worst, Math.sqrt(ss / Math.max(1, (y1 - y0) * (x1 - x0))) / sd);
    }
  }
  return worst;
}

function worstQuarterOf(x: Float32Array, y: Float32Array, n: number): number {
  const h = n >> 1;
  let worst = Infinity;
  const qa = new Float32Array(h * h);
  const qb = new Float32Array(h * h);
  for (const [x0, y0] of [
    [0, 0],
    [h, 0],
    [0, h],
    [h, h],
  ] as const) {
    for (let j = 0; j < h; j++) {
      for (let i = 0; i < h; i++) {
        qa[j * h + i] = x[(y0 + j) * n + x0 + i] ?? 0;
        qb[j * h + i] = y[(y0 + j) * n + x0 + i] ?? 0;
      }
    }
    worst = Math.min(worst, correlation(qa, qb));
  }
  return worst;
}

/** Each pixel minus the mean of its 3×3 neighbourhood (edges: the pixels that exist). */
function highPass(g: Float32Array, n: number): Float32Array {
  return highPassRect(g, n, n);
}

export function highPassRect(g: Float32Array, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      let count = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
          sum += g[yy * w + xx] ?? 0;
          count++;
        }
      }
      out[y * w + x] = (g[y * w + x] ?? 0) - sum / count;
    }
  }
  return out;
}

function sample2d(a: Float32Array, n: number, x: number, y: number): number {
  const px = Math.max(0, Math.min(n - 1, x));
  const py = Math.max(0, Math.min(n - 1, y));
  const i = Math.min(n - 2, Math.floor(px));
  const j = Math.min(n - 2, Math.floor(py));
  const fx = px - i;
  const fy = py - j;
  const top = (a[j * n + i] ?? 0) * (1 - fx) + (a[j * n + i + 1] ?? 0) * fx;
  const bottom = (a[(j + 1) * n + i] ?? 0) * (1 - fx) + (a[(j + 1) * n + i + 1] ?? 0) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** Pearson correlation; 0 when either side is flat. */
export function correlation(x: Float32Array, y: Float32Array): number {
  const n = x.length;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += x[i] ?? 0;
    sy += y[i] ?? 0;
  }
  const mx = sx / n;
  const my = sy / n;
  let xy = 0;
  let xx = 0;
  let yy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] ?? 0) - mx;
    const dy = (y[i] ?? 0) - my;
    xy += dx * dy;
    xx += dx * dx;
    yy += dy * dy;
  }
  return xx < 1e-9 || yy < 1e-9 ? 0 : xy / Math.sqrt(xx * yy);
}

/**
 * `g` turned or mirrored as the PDQ dihedral variants are (analysis/pdq/dct): rotate90 is a
 * quarter turn clockwise, flipX mirrors left–right, flipY top–bottom, flipPlus1 transposes.
 */
export function transformSquare(g: Uint8Array, n: number, t: AlignTransform): Float32Array {
  const out = new Float32Array(n * n);
  const m = n - 1;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      let sx = x;
      let sy = y;
      switch (t) {
        case 'original':
          break;
        case 'rotate90':
          sx = y;
          sy = m - x;
          break;
        case 'rotate180':
          sx = m - x;
          sy = m - y;
          break;
        case 'rotate270':
          sx = m - y;
          sy = x;
          break;
        case 'flipX':
          sx = m - x;
          break;
        case 'flipY':
          sy = m - y;
          break;
        case 'flipPlus1':
          sx = y;
          sy = x;
          break;
        case 'flipMinus1':
          sx = m - y;
          sy = m - x;
          break;
      }
      out[y * n + x] = g[sy * n + sx] ?? 0;
    }
  }
  return out;
}

function clamp01(v: number): number {
  return Math.round(Math.max(0, Math.min(1, v)) * 10000) / 10000;
}
