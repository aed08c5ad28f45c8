// Offline alternatives to the crop signal, for the near-duplicate quality bench: more regions,
// the dihedral variants of region hashes (pdqFromRgb computes them anyway), region hashes taken
// at another scale, and a crop search like findSimilarPairs' over any set of hashes.
import { readFile } from 'node:fs/promises';
import { decodeForAnalysis } from '../src/analysis/image/image-decode.adapter.js';
import {
  CROP_REGIONS,
  cropRaster,
  halveWhileAbove,
  type Raster,
} from '../src/analysis/image/raster.js';
import { findPairs, type HashRecord } from '../src/analysis/near-duplicates/index.js';
import { DIHEDRAL_VARIANTS, pdqFromRgb, type PdqResult } from '../src/analysis/pdq/index.js';
import type { Pair } from './pair-score.js';


/** Regions tried on top of CROP_REGIONS: one side off (full other axis), and a milder centre crop. */
export const EXTRA_REGIONS: { name: string; box: [number, number, number, number] }[] = [
  { name: 'left-90', box: [0, 0, 0.9, 1] },
  { name: 'right-90', box: [0.1, 0, 0.9, 1] },
  { name: 'top-90', box: [0, 0, 1, 0.9] },
  { name: 'bottom-90', box: [0, 0.1, 1, 0.9] },
  { name: 'center-95', box: [0.025, 0.025, 0.95, 0.95] },
];
const ALL_REGIONS = [...CROP_REGIONS.map((c) => c.box), ...EXTRA_REGIONS.map((c) => c.box)];

export interface Regions {
  /** EXTRA_REGIONS on the analysis' region raster (halved to a short side ≥ 128). */
  extra: string[];
  /** The 7 dihedral variants of every region hash (default and extra), same raster. */
  dihedral: string[];
  /** PDQ of the whole halved raster: a full hash at the regions' own scale. */
  smallFull: string;
  /** All 11 regions and their dihedral variants on the unhalved raster (short side ≥ 256). */
  unhalved: string[];
}

/** Milliseconds spent (main thread, all files) on the 11 regions at each scale. */
export const regionCost = { halvedMs: 0, unhalvedMs: 0, files: 0 };

export async function regionHashes(path: string): Promise<Regions> {
  const d = await decodeForAnalysis(await readFile(path));
  let t0 = performance.now();
  const small = halveWhileAbove(d.raster, 128);
  const halved = ALL_REGIONS.map((box) => hashRegion(small, box));
  regionCost.halvedMs += performance.now() - t0;
  t0 = performance.now();
  const unhalved = ALL_REGIONS.map((box) => hashRegion(d.raster, box));
  regionCost.unhalvedMs += performance.now() - t0;
  regionCost.files++;
  return {
    extra: halved.slice(CROP_REGIONS.length).map((h) => h.hash),
    dihedral: halved.flatMap(variantsOf),
    smallFull: pdqFromRgb(small.data, small.width, small.height, small.channels).hash,
    unhalved: [...unhalved.map((h) => h.hash), ...unhalved.flatMap(variantsOf)],
  };
}

function hashRegion(r: Raster, box: readonly [number, number, number, number]): PdqResult {
  const c = cropRaster(r, box);
  return pdqFromRgb(c.data, c.width, c.height, c.channels);
}

function variantsOf(h: PdqResult): string[] {
  return DIHEDRAL_VARIANTS.map((k) => h.dihedral[k]);
}

/** Plain PDQ and its dihedral variants, as findSimilarPairs' first search. */
export function pdqPairs(pdq: string[], dihedral: string[][], threshold = 31): Pair[] {
  const records = pdq.map((h, i) => ({ id: i, hash: hex(h), dihedral: dihedral[i]!.map(hex) }));
  return findPairs(records, { threshold, dihedral: true }).map((p) => ({
    a: p.a,
    b: p.b,
    distance: p.distance,
  }));
}

/**
 * The crop signal as findSimilarPairs runs it (every region hash of one object against the
 * `full` hash of every other object), over any hashes: pairs with their smallest distance.
 */
export function cropPairs(full: string[], regions: string[][], threshold: number): Pair[] {
  const n = full.length;
  const owner: number[] = [];
  const records: HashRecord[] = full.map((h, i) => ({ id: i, hash: hex(h) }));
  regions.forEach((rs, i) =>
    rs.forEach((h) => {
      owner.push(i);
      records.push({ id: n + owner.length - 1, hash: hex(h) });
    }),
  );
  const out: Pair[] = [];
  for (const p of findPairs(records, { threshold, dihedral: false })) {
    if (p.a >= n === p.b >= n) continue;
    const original = p.a >= n ? p.b : p.a;
    const o = owner[(p.a >= n ? p.a : p.b) - n]!;
    if (o !== original)
      out.push({ a: Math.min(o, original), b: Math.max(o, original), distance: p.distance });
  }
  return out;
}

/** Pairs of all lists, each once, with the smallest distance. */
export function union(...lists: Pair[][]): Pair[] {
  const best = new Map<string, Pair>();
  for (const p of lists.flat()) {
    const k = `${p.a}:${p.b}`;
    const prior = best.get(k);
    if (prior === undefined || (p.distance ?? 0) < (prior.distance ?? 0)) best.set(k, p);
  }
  return [...best.values()];
}

export function hex(h: string): Uint8Array {
  return Uint8Array.from(Buffer.from(h, 'hex'));
}
