// Partial-overlap alignment: two crops of one original that overlap without either containing
// the other (a centre crop and a corner crop; a crop with the number card cut off and a crop from
// the other side). Neither is a crop of the other, so crop-align.ts's search (one raster inside
// the other) cannot find them; a blind search over every partial offset would be costly and would
// meet more look-alikes. The one-hop step of the matching knows better: both were aligned with a
// third object (their common original, or a copy of it), so the two known relations compose into
// the pair's relative offset, scale and turn. That estimate is refined a little and verified on
// the rasters, over the overlap only, with the rule crop matching uses (detail correlation and the
// worst block's residual at the coarser of the two resolutions).
//
// Frames: each raster's pixels in fractions of its stored width and height, (0, 0) top-left,
// (1, 1) bottom-right. A relation is an affine map between two frames (an axis scale and offset
// after one of the 8 turns and flips). Pure.
import {
  ALIGN_TRANSFORMS,
  correlation,
  highPassRect,
  smooth121,
  transformSquare,
  worstBlockResidual,
  type AlignTransform,
  type CropBox,
} from './crop-align.js';

/** x' = a·u + b·v + e, y' = c·u + d·v + f, in fractions of the frames. */
export interface FrameMap {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

/**
 * The map from a crop's frame to its original's, given an alignment's box and turn (crop-align.ts:
 * `transformSquare(crop, transform)` is the box of the original, stretched).
 */
export function cropToOriginal(box: CropBox, transform: AlignTransform): FrameMap {
  const scale: FrameMap = {
    a: box.right - box.left,
    b: 0,
    c: 0,
    d: box.bottom - box.top,
    e: box.left,
    f: box.top,
  };
  return compose(scale, invert(turnMap(transform)));
}

/**
 * transformSquare's turns as maps of frames: the turned raster's point p shows the source's point
 * turnMap(t)(p) (pixel x of n becomes fraction (x + ½)/n, and n−1−x becomes 1 − u).
 */
export function turnMap(t: AlignTransform): FrameMap {
  switch (t) {
    case 'original':
      return { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 };
    case 'rotate90':
      return { a: 0, b: 1, c: -1, d: 0, e: 0, f: 1 };
    case 'rotate180':
      return { a: -1, b: 0, c: 0, d: -1, e: 1, f: 1 };
    case 'rotate270':
      return { a: 0, b: -1, c: 1, d: 0, e: 1, f: 0 };
    case 'flipX':
      return { a: -1, b: 0, c: 0, d: 1, e: 1, f: 0 };
    case 'flipY':
      return { a: 1, b: 0, c: 0, d: -1, e: 0, f: 1 };
    case 'flipPlus1':
      return { a: 0, b: 1, c: 1, d: 0, e: 0, f: 0 };
    case 'flipMinus1':
      return { a: 0, b: -1, c: -1, d: 0, e: 1, f: 1 };
  }
}

/** The turn that undoes `t` (a quarter turn one way undoes one the other way; flips undo themselves). */
export function inverseTurn(t: AlignTransform): AlignTransform {
  return t === 'rotate90' ? 'rotate270' : t === 'rotate270' ? 'rotate90' : t;
}

/** f ∘ g: first g, then f. */
export function compose(f: FrameMap, g: FrameMap): FrameMap {
  return {
    a: f.a * g.a + f.b * g.c,
    b: f.a * g.b + f.b * g.d,
    c: f.c * g.a + f.d * g.c,
    d: f.c * g.b + f.d * g.d,
    e: f.a * g.e + f.b * g.f + f.e,
    f: f.c * g.e + f.d * g.f + f.f,
  };
}

export function invert(m: FrameMap): FrameMap {
  const det = m.a * m.d - m.b * m.c;
  const a = m.d / det;
  const b = -m.b / det;
  const c = -m.c / det;
  const d = m.a / det;
  return { a, b, c, d, e: -(a * m.e + b * m.f), f: -(c * m.e + d * m.f) };
}

/** Where `other` sits in `first`'s frame after turning it by `transform`: x = ox + sx·u (per axis). */
export interface OverlapParams {
  transform: AlignTransform;
  sx: number;
  ox: number;
  sy: number;
  oy: number;
}

/**
 * The map from `other`'s frame to `first`'s written as a turn of `other` and a scale and offset
 * per axis; null when it is no such map (a shear, or a scale far from any crop's).
 */
export function paramsOf(m: FrameMap): OverlapParams | null {
  for (const t of ALIGN_TRANSFORMS) {
    const p = compose(m, turnMap(t));
    if (Math.abs(p.b) > 1e-3 || Math.abs(p.c) > 1e-3 || p.a <= 0.2 || p.d <= 0.2) continue;
    if (p.a > 5 || p.d > 5) return null;
    return { transform: t, sx: p.a, ox: p.e, sy: p.d, oy: p.f };
  }
  return null;
}

export interface OverlapAlignment {
  params: OverlapParams;
  /** The refined relation: the map from other's frame to first's. */
  map: FrameMap;
  /** The overlap in each image's own stored frame (fractions; see CropBox). */
  boxFirst: CropBox;
  boxOther: CropBox;
  /** The overlap's share of each image's area. */
  shareFirst: number;
  shareOther: number;
  /** Detail correlation and worst-block residual over the overlap at the coarser resolution. */
  native: { detail: number; residual: number };
}

export interface OverlapOptions {
  /** How far the refinement may move an edge from the estimate (fraction of the frame). */
  reach?: number;
}

const STEP = 0.005;

/**
 * Verifies an estimated relation of two rasters (`estimate`: other's frame → first's frame) over
 * their overlap: refines the scale and offset a little (coordinate descent on the correlation),
 * then scores the overlap at the coarser resolution. Null when the rasters do not suit (sizes) or
 * the estimate is no turn-and-scale map or leaves no overlap.
 */
export function alignOverlap(
  first: Uint8Array,
  other: Uint8Array,
  size: number,
  estimate: FrameMap,
  opts: OverlapOptions = {},
): OverlapAlignment | null {
  if (first.length !== size * size || other.length !== size * size || size < 8) return null;
  const start = paramsOf(estimate);
  if (start === null) return null;
  const a = Float32Array.from(first);
  const b = transformSquare(other, size, start.transform);
  const p = refineOverlap(a, b, size, start, opts.reach ?? 0.04);
  const ov = overlapOf(p);
  if (ov === null) return null;
  const native = nativeOverlapScore(a, b, size, ov);
  const turn = turnMap(p.transform);
  const [o0, o1] = [apply(turn, ov.u0, ov.v0), apply(turn, ov.u1, ov.v1)];
  return {
    params: p,
    map: compose({ a: p.sx, b: 0, c: 0, d: p.sy, e: p.ox, f: p.oy }, invert(turn)),
    boxFirst: box(ov.x0, ov.y0, ov.x1, ov.y1),
    boxOther: box(
      Math.min(o0[0], o1[0]),
      Math.min(o0[1], o1[1]),
      Math.max(o0[0], o1[0]),
      Math.max(o0[1], o1[1]),
    ),
    shareFirst: (ov.x1 - ov.x0) * (ov.y1 - ov.y0),
    shareOther: (ov.u1 - ov.u0) * (ov.v1 - ov.v0),
    native,
  };
}

/** The overlap: [x0, x1]×[y0, y1] of the first frame, [u0, u1]×[v0, v1] of the turned other. */
interface Overlap {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  u0: number;
  u1: number;
  v0: number;
  v1: number;
}

function overlapOf(p: OverlapParams): Overlap | null {
  const x0 = Math.max(0, p.ox);
  const x1 = Math.min(1, p.ox + p.sx);
  const y0 = Math.max(0, p.oy);
  const y1 = Math.min(1, p.oy + p.sy);
  if (x1 - x0 < 0.2 || y1 - y0 < 0.2) return null;
  return {
    x0,
    x1,
    y0,
    y1,
    u0: (x0 - p.ox) / p.sx,
    u1: (x1 - p.ox) / p.sx,
    v0: (y0 - p.oy) / p.sy,
    v1: (y1 - p.oy) / p.sy,
  };
}

/**
 * Coordinate descent on the plain correlation between the turned other's pixels inside the
 * estimate's overlap (kept fixed, one pixel in from its edges, so that the scores compare) and
 * the first raster sampled at their places; each value stays within `reach` of the estimate.
 */
function refineOverlap(
  a: Float32Array,
  b: Float32Array,
  n: number,
  start: OverlapParams,
  reach: number,
): OverlapParams {
  const ov = overlapOf(start);
  if (ov === null) return start;
  const lo = (f: number): number => Math.max(0, Math.ceil(f * n - 0.5) + 1);
  const hi = (f: number): number => Math.min(n - 1, Math.floor(f * n - 0.5) - 1);
  const [i0, i1, j0, j1] = [lo(ov.u0), hi(ov.u1), lo(ov.v0), hi(ov.v1)];
  if (i1 - i0 < 4 || j1 - j0 < 4) return start;
  const w = i1 - i0 + 1;
  const h = j1 - j0 + 1;
  const mine = new Float32Array(w * h);
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) mine[j * w + i] = b[(j0 + j) * n + i0 + i]!;
  const theirs = new Float32Array(w * h);
  const at = (q: OverlapParams): number => {
    for (let j = 0; j < h; j++) {
      const y = (q.oy + (q.sy * (j0 + j + 0.5)) / n) * n - 0.5;
      for (let i = 0; i < w; i++) {
        const x = (q.ox + (q.sx * (i0 + i + 0.5)) / n) * n - 0.5;
        theirs[j * w + i] = sample2d(a, n, x, y);
      }
    }
    return correlation(theirs, mine);
  };
  let cur = start;
  let score = at(cur);
  for (let step = STEP; step >= STEP / 2; step /= 2) {
    let improved = true;
    for (let guard = 0; improved && guard < 8; guard++) {
      improved = false;
      for (const key of ['sx', 'ox', 'sy', 'oy'] as const) {
        for (const d of [-step, step]) {
          const q = { ...cur, [key]: cur[key] + d };
          if (Math.abs(q[key] - start[key]) > reach + 1e-9) continue;
          const s = at(q);
          if (s > score + 1e-6) {
            cur = q;
            score = s;
            improved = true;
          }
        }
      }
    }
  }
  return cur;
}

/**
 * The overlap of both rasters area-averaged to the coarser of the two resolutions, compared as
 * crop-align.ts compares a crop with its box (its `native` score): the detail correlation, and the
 * largest block residual after fitting brightness and contrast (both sides slightly blurred alike).
 */
function nativeOverlapScore(
  a: Float32Array,
  b: Float32Array,
  n: number,
  ov: Overlap,
): { detail: number; residual: number } {
  const w = Math.max(8, Math.min(n, Math.round(n * Math.min(ov.x1 - ov.x0, ov.u1 - ov.u0))));
  const h = Math.max(8, Math.min(n, Math.round(n * Math.min(ov.y1 - ov.y0, ov.v1 - ov.v0))));
  const first = areaSample(a, n, ov.x0, ov.y0, ov.x1, ov.y1, w, h);
  const other = areaSample(b, n, ov.u0, ov.v0, ov.u1, ov.v1, w, h);
  return {
    detail: correlation(highPassRect(first, w, h), highPassRect(other, w, h)),
    residual: worstBlockResidual(smooth121(first, w, h), smooth121(other, w, h), w, h),
  };
}

/**
 * The rectangle [x0, x1]×[y0, y1] (fractions) of an n×n raster averaged into w×h cells, each
 * pixel weighted by the part of it a cell covers (a cell narrower than a pixel takes that pixel).
 */
export function areaSample(
  g: Float32Array,
  n: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  w: number,
  h: number,
): Float32Array {
  const weights = (from: number, to: number, cells: number): { i: number; k: number; wt: number }[] => {
    const out: { i: number; k: number; wt: number }[] = [];
    const step = ((to - from) * n) / cells;
    for (let k = 0; k < cells; k++) {
      const s = from * n + k * step;
      const e = s + step;
      for (let i = Math.max(0, Math.floor(s)); i < Math.min(n, Math.ceil(e)); i++) {
        const wt = Math.min(e, i + 1) - Math.max(s, i);
        if (wt > 0) out.push({ i, k, wt: wt / step });
      }
    }
    return out;
  };
  const xs = weights(x0, x1, w);
  const ys = weights(y0, y1, h);
  const rows = new Float32Array(w * n);
  for (let y = 0; y < n; y++) for (const { i, k, wt } of xs) rows[y * w + k]! += wt * g[y * n + i]!;
  const out = new Float32Array(w * h);
  for (const { i, k, wt } of ys) for (let x = 0; x < w; x++) out[k * w + x]! += wt * rows[i * w + x]!;
  return out;
}

function sample2d(a: Float32Array, n: number, x: number, y: number): number {
  const px = Math.max(0, Math.min(n - 1, x));
  const py = Math.max(0, Math.min(n - 1, y));
  const i = Math.min(n - 2, Math.floor(px));
  const j = Math.min(n - 2, Math.floor(py));
  const fx = px - i;
  const fy = py - j;
  const top = a[j * n + i]! * (1 - fx) + a[j * n + i + 1]! * fx;
  const bottom = a[(j + 1) * n + i]! * (1 - fx) + a[(j + 1) * n + i + 1]! * fx;
  return top * (1 - fy) + bottom * fy;
}

function apply(m: FrameMap, u: number, v: number): [number, number] {
  return [m.a * u + m.b * v + m.e, m.c * u + m.d * v + m.f];
}

function box(left: number, top: number, right: number, bottom: number): CropBox {
  const r = (v: number): number => Math.round(Math.max(0, Math.min(1, v)) * 10000) / 10000;
  return { left: r(left), top: r(top), right: r(right), bottom: r(bottom) };
}
