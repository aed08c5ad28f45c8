// The crop-alignment step measured: how many true pairs the loose hash prefilter keeps as
// candidates (and how many candidates there are), the cost of aligning them, the detail and
// worst-quarter correlations of true pairs against the rest, a small grid of verification
// thresholds, and the error of the estimated crop box against the planted one.
import type { HashedObject } from '../src/analysis/similarity/similarity.service.js';
import {
  alignPair,
  cropCandidates,
  verifiesCrop,
  VERIFY_MAX_RESIDUAL,
  VERIFY_MIN_DETAIL,
  type VerifiedCrop,
} from '../src/analysis/similarity/crop-match.js';
import { ALIGN_GREY_SIZE } from '../src/analysis/image/raster.js';
import type { Pair } from './pair-score.js';
import { union } from './region-hashes.js';
import type { QualityFile } from './variants.js';

type Evaluate = (label: string, search: () => Pair[], detail?: boolean) => number;

export function alignment(
  files: QualityFile[],
  objects: HashedObject[],
  reference: Pair[],
  evaluate: Evaluate,
): string[] {
  const out: string[] = ['crop alignment (prefilter on hashes, then the 32×32 grey rasters):'];
  const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
  const inputs = objects.map((o) => ({
    pdq: hex(o.pdq),
    dihedral: o.dihedral.map(hex),
    crops: o.crops.map(hex),
  }));
  const truePair = (a: number, b: number): boolean => files[a]!.group === files[b]!.group;
  const crops = new Set(files.flatMap((f, i) => (f.box !== undefined ? [i] : [])));
  const baseOf = new Map<number, number>();
  files.forEach((f, i) => f.kind === 'base' && baseOf.set(f.group, i));
  const cropTruth = [...crops].map((i) => [baseOf.get(files[i]!.group)!, i] as const);
  const found = new Set(reference.map((p) => `${Math.min(p.a, p.b)}:${Math.max(p.a, p.b)}`));
  const k = (a: number, b: number): string => `${Math.min(a, b)}:${Math.max(a, b)}`;

  const levels = (process.env.QUALITY_PREFILTER ?? '36:48:-1,64:80:-1,64:80').split(',');
  let candidates = new Map<string, number>();
  for (const level of levels) {
    const [region, full, regions] = level.split(':').map(Number) as [number, number, number?];
    const t0 = performance.now();
    candidates = cropCandidates(inputs, region, full, regions);
    const ms = performance.now() - t0;
    const kept = cropTruth.filter(([a, b]) => candidates.has(k(a, b)) || found.has(k(a, b))).length;
    out.push(
      `  prefilter region ≤ ${region}, full ≤ ${full}, region ↔ region ≤ ${regions ?? 'default'}: ${candidates.size} candidates in ${ms.toFixed(0)} ms; crop variants ↔ base kept ${kept}/${cropTruth.length}`,
    );
    const missed = new Map<string, number>();
    for (const [a, b] of cropTruth)
      if (!candidates.has(k(a, b)) && !found.has(k(a, b))) missed.set(files[b]!.kind, (missed.get(files[b]!.kind) ?? 0) + 1);
    out.push(`    missed by kind: ${[...missed].map(([x, n]) => `${x} ${n}`).join(', ')}`);
  }
  if (process.env.QUALITY_ALIGN === '0') return out;
  // Align every candidate of the widest prefilter once; thresholds are tried on these.
  const t0 = performance.now();
  const aligned: { a: number; b: number; v: VerifiedCrop }[] = [];
  for (const key of candidates.keys()) {
    if (found.has(key)) continue; // matched already: production aligns only the others
    const [a, b] = key.split(':').map(Number) as [number, number];
    const ga = objects[a]!.grey;
    const gb = objects[b]!.grey;
    if (ga === undefined || gb === undefined) continue;
    const v = alignPair(a, b, ga, gb, ALIGN_GREY_SIZE);
    if (v !== null) aligned.push({ a, b, v });
  }
  const ms = performance.now() - t0;
  out.push(
    `  aligned ${aligned.length} candidates in ${(ms / 1000).toFixed(1)} s (${(ms / Math.max(1, aligned.length)).toFixed(2)} ms a pair, main thread)`,
  );
  const q = (xs: number[], p: number): string =>
    xs.length === 0 ? '-' : [...xs].sort((x, y) => x - y)[Math.floor(p * (xs.length - 1))]!.toFixed(3);
  const describe = (label: string, xs: { v: VerifiedCrop }[]): void => {
    const d = xs.map((x) => x.v.detail);
    const w = xs.map((x) => x.v.worstQuarter);
    const dq = xs.map((x) => x.v.detailQuarter);
    const rs = xs.map((x) => x.v.residual);
    const nd = xs.map((x) => x.v.native.detail);
    const nr = xs.map((x) => x.v.native.residual);
    out.push(
      `  ${label.padEnd(34)} n ${String(xs.length).padStart(6)}; detail p1 ${q(d, 0.01)} p5 ${q(d, 0.05)} p50 ${q(d, 0.5)} p95 ${q(d, 0.95)} p99 ${q(d, 0.99)} max ${q(d, 1)}; worst quarter p1 ${q(w, 0.01)} p50 ${q(w, 0.5)} p99 ${q(w, 0.99)}; residual p1 ${q(rs, 0.01)} p5 ${q(rs, 0.05)} p50 ${q(rs, 0.5)} p95 ${q(rs, 0.95)} p99 ${q(rs, 0.99)}; detail worst quarter p1 ${q(dq, 0.01)} p5 ${q(dq, 0.05)} p50 ${q(dq, 0.5)} p95 ${q(dq, 0.95)} p99 ${q(dq, 0.99)}`,
      `    native (at the original's resolution): detail p1 ${q(nd, 0.01)} p5 ${q(nd, 0.05)} p50 ${q(nd, 0.5)} p95 ${q(nd, 0.95)} p99 ${q(nd, 0.99)}; residual p1 ${q(nr, 0.01)} p5 ${q(nr, 0.05)} p50 ${q(nr, 0.5)} p95 ${q(nr, 0.95)} p99 ${q(nr, 0.99)}`,
    );
  };
  const isBurst = (a: number, b: number): boolean =>
    !truePair(a, b) && files[a]!.sceneSeed === files[b]!.sceneSeed;
  const isSetting = (a: number, b: number): boolean =>
    !truePair(a, b) && (files[a]!.kind === 'setting' || files[b]!.kind === 'setting');
  describe('crop variant ↔ its base', aligned.filter((x) => truePair(x.a, x.b) && ((crops.has(x.a) && files[x.b]!.kind === 'base') || (crops.has(x.b) && files[x.a]!.kind === 'base'))));
  describe('true pairs, one a crop variant', aligned.filter((x) => truePair(x.a, x.b) && (crops.has(x.a) || crops.has(x.b))));
  describe('true pairs, others', aligned.filter((x) => truePair(x.a, x.b) && !crops.has(x.a) && !crops.has(x.b)));
  describe('burst frames ↔ own scene', aligned.filter((x) => isBurst(x.a, x.b)));
  describe('same setting, other subject', aligned.filter((x) => isSetting(x.a, x.b)));
  describe('other scenes', aligned.filter((x) => !truePair(x.a, x.b) && !isBurst(x.a, x.b) && !isSetting(x.a, x.b)));

  // Box error of the crop variants against their base (the planted box).
  const errors: number[] = [];
  for (const x of aligned) {
    const [o, c] = [x.v.original, x.v.cropped];
    const box = files[c]!.box;
    if (box === undefined || files[o]!.kind !== 'base' || !truePair(o, c)) continue;
    const b = x.v.box;
    errors.push(Math.max(Math.abs(b.left - box[0]), Math.abs(b.top - box[1]), Math.abs(b.right - box[2]), Math.abs(b.bottom - box[3])));
  }
  out.push(
    `  crop box error (largest of the 4 edges, fraction of the original), crop variant ↔ base: p50 ${q(errors, 0.5)} p90 ${q(errors, 0.9)} p99 ${q(errors, 0.99)} max ${q(errors, 1)}; within 2 %: ${errors.filter((e) => e <= 0.02).length}/${errors.length}`,
  );
  // native detail ≥ d and native worst-block residual ≤ r
  const grid = (process.env.QUALITY_GRID ?? '0.75:0.35,0.8:0.3,0.8:0.35,0.85:0.3').split(',');
  for (const g of grid) {
    const [d, w] = g.split(':').map(Number) as [number, number];
    const verified = aligned.filter((x) => verifiesCrop(x.v, d, w)).map((x) => ({ a: Math.min(x.a, x.b), b: Math.max(x.a, x.b) }));
    // VERIFY_MIN_DETAIL / VERIFY_MAX_RESIDUAL (chosen on the tune seed) is what findSimilarPairs
    // runs: these are its pairs.
    const production = d === VERIFY_MIN_DETAIL && w === VERIFY_MAX_RESIDUAL;
    evaluate(`${production ? '(the thresholds findSimilarPairs runs) ' : ''}before + aligned crops, native detail ≥ ${d}, residual ≤ ${w}`, () => union(reference, verified), production);
  }
  if (process.env.QUALITY_VETO !== '1') return out;
  // Offline, not what findSimilarPairs does: the hash matches too must align (native detail and
  // residual at the production thresholds), so that a same-setting photo within PDQ 31 is dropped.
  const t1 = performance.now();
  const kept = reference.filter((p) => {
    const ga = objects[p.a]!.grey;
    const gb = objects[p.b]!.grey;
    if (ga === undefined || gb === undefined) return true;
    const v = alignPair(p.a, p.b, ga, gb, ALIGN_GREY_SIZE);
    return v !== null && verifiesCrop(v);
  });
  out.push(`  veto: aligned the ${reference.length} hash matches in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  const verified = aligned.filter((x) => verifiesCrop(x.v)).map((x) => ({ a: Math.min(x.a, x.b), b: Math.max(x.a, x.b) }));
  evaluate('veto: hash matches that do not align dropped, + aligned crops', () => union(kept, verified), true);
  return out;
}
