// Crop matches: a cheap prefilter over the hashes every analysis records (region hashes against
// full hashes, and the full hash over the 8 turns and flips, both at loose distances) selects
// candidate pairs; each candidate is verified by aligning the two small greyscale rasters
// (crop-align.ts), which also estimates the crop box. Measured in
// bench/near-duplicate-quality.bench.ts (thresholds tuned on one generator seed, reported on
// another).
import { findPairs, type HashRecord } from '../near-duplicates/index.js';
import { alignCrop, type AlignTransform, type CropAlignment, type CropBox } from './crop-align.js';
import type { OverlapAlignment } from './crop-overlap.js';

/** Region hash ↔ full hash distance that makes a pair a candidate for alignment. */
export const CANDIDATE_REGION_THRESHOLD = 64;
/**
 * Region hash ↔ region hash (of two objects) distance that makes a pair a candidate: a crop cut on
 * three or four sides is often nearer one of the original's regions with one of its own than with
 * its full hash (tune seed, 40 bases: crop variants ↔ base kept as candidates 404/560 instead of
 * 349/560, for 12 % more candidates; the search is the same one, these pairs were dropped).
 */
export const CANDIDATE_REGION_REGION_THRESHOLD = 64;
/** Full hash (min over the 8 turns and flips) distance that makes a pair a candidate. */
export const CANDIDATE_FULL_THRESHOLD = 80;
/**
 * Alignment verifies a crop when the detail correlation at the original's own resolution
 * (CropAlignment.native) reaches this…
 */
export const VERIFY_MIN_DETAIL = 0.7;
/**
 * …and no block of the box is further off than this (native residual, both sides slightly
 * blurred; see crop-align.ts). Tune seed, 40 bases, crop variants ↔ base / same-setting negatives
 * verified: detail 0.8 and the unblurred residual 0.3 (before) 507/560 and 41/410; detail 0.8,
 * blurred 0.2: 533/560 and 7/410; detail 0.7, blurred 0.2: 552/560 and 7/410; blurred 0.18:
 * 543/560 and 1/410 (the detail of a same-setting photo is as high as a crop's: the residual is
 * what tells them apart).
 */
export const VERIFY_MAX_RESIDUAL = 0.2;

/**
 * The loose searches are complete within this distance; a pair further apart (up to their
 * thresholds) is a candidate when one of its substrings is near enough (FindPairsOptions
 * .completeWithin). Complete at 64 and 80, they were all but a brute force: on random hashes 4.9,
 * 11.7 and 37.3 s for 1,000, 2,000 and 4,000 objects (23,000 s extrapolated at 100,000), against
 * 2.4 s at 4,000 within 40. Tune seed, 60 bases, the whole matching: recall and precision the same
 * complete or within 40 or 31 (0.9929 / 0.9931; 0.9930 within 31); within 20, recall 0.9892.
 */
export const CANDIDATE_COMPLETE_WITHIN = 40;

export interface CropCandidateInput {
  pdq: Uint8Array;
  dihedral: Uint8Array[];
  crops: Uint8Array[];
}

/** Candidate pairs (a < b by index) from the loose hash searches, with the smallest distance. */
export function cropCandidates(
  objects: readonly CropCandidateInput[],
  regionThreshold = CANDIDATE_REGION_THRESHOLD,
  fullThreshold = CANDIDATE_FULL_THRESHOLD,
  regionRegionThreshold = CANDIDATE_REGION_REGION_THRESHOLD,
): Map<string, number> {
  const out = new Map<string, number>();
  const add = (x: number, y: number, d: number): void => {
    if (x === y) return;
    const key = x < y ? `${x}:${y}` : `${y}:${x}`;
    const prior = out.get(key);
    if (prior === undefined || d < prior) out.set(key, d);
  };
  const loose = { dihedral: true, completeWithin: CANDIDATE_COMPLETE_WITHIN };
  const full: HashRecord[] = objects.map((o, i) => ({ id: i, hash: o.pdq, dihedral: o.dihedral }));
  for (const p of findPairs(full, { ...loose, threshold: fullThreshold }))
    add(p.a, p.b, p.distance);
  const n = objects.length;
  const owner: number[] = [];
  // Full hashes with their turns and flips, so that a turned crop meets the original's regions.
  const records: HashRecord[] = objects.map((o, i) => ({ id: i, hash: o.pdq, dihedral: o.dihedral }));
  objects.forEach((o, i) => {
    for (const c of o.crops) {
      owner.push(i);
      records.push({ id: n + owner.length - 1, hash: c });
    }
  });
  const ownerOf = (id: number): number => (id < n ? id : (owner[id - n] ?? -1));
  for (const p of findPairs(records, { ...loose, threshold: regionThreshold })) {
    // Full ↔ full pairs come from the search above; region ↔ region pairs only when asked.
    if (p.a < n && p.b < n) continue;
    if (p.a >= n && p.b >= n && !(p.distance <= regionRegionThreshold)) continue;
    add(ownerOf(p.a), ownerOf(p.b), p.distance);
  }
  return out;
}

export interface VerifiedCrop {
  /** Index of the object that is the larger view (the likely original). */
  original: number;
  /** Index of the object that shows a part of it. */
  cropped: number;
  /** The box of the original that the cropped one shows (fractions; see CropBox). */
  box: CropBox;
  transform: AlignTransform;
  detail: number;
  worstQuarter: number;
  detailQuarter: number;
  residual: number;
  native: { detail: number; residual: number };
}

/**
 * Aligns the two rasters both ways (either may be the crop) and keeps the better; whether it
 * verifies is `verifiesCrop`'s call, so that the bench can try thresholds on the same alignments.
 */
export function alignPair(
  a: number,
  b: number,
  greyA: Uint8Array,
  greyB: Uint8Array,
  size: number,
): VerifiedCrop | null {
  const ab = alignCrop(greyA, greyB, size);
  const ba = alignCrop(greyB, greyA, size);
  if (ab === null || ba === null) return null;
  // The direction that verifies; of two that do (or neither), the one with more detail in common.
  const passes = (x: CropAlignment): boolean => verifies(x.native.detail, x.native.residual);
  const first = passes(ab) === passes(ba) ? ab.native.detail >= ba.native.detail : passes(ab);
  const [original, cropped, al] = first ? [a, b, ab] : [b, a, ba];
  return {
    original,
    cropped,
    box: al.box,
    transform: al.transform,
    detail: al.detail,
    worstQuarter: al.worstQuarter,
    detailQuarter: al.detailQuarter,
    residual: al.residual,
    native: al.native,
  };
}

export function verifiesCrop(
  v: VerifiedCrop,
  minDetail = VERIFY_MIN_DETAIL,
  maxResidual = VERIFY_MAX_RESIDUAL,
): boolean {
  return verifies(v.native.detail, v.native.residual, minDetail, maxResidual);
}

function verifies(
  detail: number,
  residual: number,
  minDetail = VERIFY_MIN_DETAIL,
  maxResidual = VERIFY_MAX_RESIDUAL,
): boolean {
  return detail >= minDetail && residual <= maxResidual;
}

/**
 * Two views that overlap verify when the overlap covers at least this share of each one's area
 * (two crops of up to 15 % a side each, from opposite sides, share 0.7 × 0.7 of the original and
 * at least (0.7 / 0.85)² ≈ 0.68 of each)…
 */
export const OVERLAP_MIN_SHARE = 0.6;
/** …and the overlap passes the crop rule: its detail correlation… */
export const OVERLAP_MIN_DETAIL = VERIFY_MIN_DETAIL;
/**
 * …and its worst block's residual (at the coarser resolution, blurred as a crop's; see
 * crop-overlap.ts). Both views are already verified against the third, so what this decides is
 * whether they agree with each other where they overlap; a brightened copy (its highlights
 * clipped) against a small crop is what fails it. Tune seed, 60 bases (1,828 files), the whole
 * matching, crop residual 0.2, false pairs all same-setting:
 *
 *   overlap residual   pair recall   precision (false)   cluster precision
 *   0.18 (until now)   0.9826        0.9963 (89)         0.9916
 *   0.22               0.9904        0.9944 (136)        0.9916
 *   0.24               0.9929        0.9931 (167)        0.9916
 *   0.26 (crop 0.22)   0.9942        0.9924 (186)        0.9904
 *
 * Up to 0.24 no same-setting photo joins a group that none had joined: the false pairs it adds
 * link the few that had (each verified against the whole group at this raster size) with more
 * of that group's views. Loosening the crop residual instead (0.24 and 0.22) gave recall 0.9918
 * at precision 0.9926, with more same-setting photos in groups; a monotone (isotonic) tone fit in
 * place of the linear one, recall 0.9918 at 0.9923.
 */
export const OVERLAP_MAX_RESIDUAL = 0.24;

export function verifiesOverlap(
  v: OverlapAlignment,
  minShare = OVERLAP_MIN_SHARE,
  minDetail = OVERLAP_MIN_DETAIL,
  maxResidual = OVERLAP_MAX_RESIDUAL,
): boolean {
  return (
    Math.min(v.shareFirst, v.shareOther) >= minShare &&
    v.native.detail >= minDetail &&
    v.native.residual <= maxResidual
  );
}
