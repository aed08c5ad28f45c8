// The approximate grey-descriptor index (grey-index.ts) on generated data: its turned cells are the
// descriptor of the turned raster, it finds planted turned copies among many random descriptors,
// it repeats itself, and below the brute-force limit nearestByGrey stays exact.
import { describe, expect, it } from 'vitest';
import { scene } from '../../../test/support/raster-scenes.js';
import { greyThumbnail } from '../image/raster.js';
import { ALIGN_TRANSFORMS, transformSquare } from './crop-align.js';
import { GREY_DESCRIPTOR_GRID, greyDescriptor, nearestByGrey } from './grey-candidates.js';
import { searchGreyIndex, turnPermutations } from './grey-index.js';

const G = GREY_DESCRIPTOR_GRID;
const D = G * G;

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * n unit descriptors (mean removed), uniform on the sphere, where every tenth is a turned or
 * flipped copy of an earlier one with noise (correlation about 0.99 under the right turn).
 */
function plantedDescriptors(
  n: number,
  seed: number,
): { desc: Float32Array; planted: Map<number, number> } {
  const rnd = lcg(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const perms = turnPermutations(G);
  const desc = new Float32Array(n * D);
  const planted = new Map<number, number>();
  const v = new Float64Array(D);
  for (let i = 0; i < n; i++) {
    const from = i % 10 === 9 ? Math.floor(rnd() * i) : -1;
    const p = perms[1 + Math.floor(rnd() * 7)]!;
    for (let c = 0; c < D; c++)
      v[c] = from < 0 ? gauss() : desc[from * D + p[c]!]! + (0.15 * gauss()) / Math.sqrt(D);
    const m = v.reduce((s, x) => s + x, 0) / D;
    const norm = Math.sqrt(v.reduce((s, x) => s + (x - m) ** 2, 0));
    for (let c = 0; c < D; c++) desc[i * D + c] = (v[c]! - m) / norm;
    if (from >= 0) planted.set(i, from);
  }
  return { desc, planted };
}

const greys = Array.from({ length: 400 }, (_, i) => greyThumbnail(scene(3000 + i, 96, 72)));

describe('turnPermutations', () => {
  it('moves the cells as turning the raster moves the descriptor', () => {
    const g = greyThumbnail(scene(7));
    const own = greyDescriptor(g, 32);
    const perms = turnPermutations(G);
    ALIGN_TRANSFORMS.forEach((t, ti) => {
      const turned = greyDescriptor(transformSquare(g, 32, t), 32);
      for (let c = 0; c < D; c++) expect(own[perms[ti]![c]!]!).toBeCloseTo(turned[c]!, 5);
    });
  });
});

describe('searchGreyIndex', () => {
  it('finds planted turned copies among random descriptors, both ways', () => {
    const { desc, planted } = plantedDescriptors(6000, 11);
    const queries = [...planted.keys()];
    const found = searchGreyIndex(desc, G, [...queries, ...planted.values()], 10);
    // Random descriptors have no clusters for the lists to follow: a pair can straddle a
    // boundary the probes do not cross. Measured: 1 of 600 copies misses its original.
    const missed = queries.filter((q, x) => !found[x]!.includes(planted.get(q)!));
    expect(missed.length).toBeLessThanOrEqual(queries.length / 100);
    // …and the original meets its copy (several copies of one original may compete for it).
    const back = queries.filter((q, x) => !found[queries.length + x]!.includes(q));
    expect(back.length).toBeLessThanOrEqual(queries.length / 100);
  });

  it('answers the same run after run, ten others for each query, a repeated query alike', () => {
    const { desc } = plantedDescriptors(3000, 12);
    const asked = [5, 17, 2999, 1000, 17];
    const first = searchGreyIndex(desc, G, asked, 10);
    expect(searchGreyIndex(desc, G, asked, 10)).toEqual(first);
    expect(first[4]).toEqual(first[1]);
    for (const [x, q] of asked.entries()) {
      expect(first[x]).toHaveLength(10);
      expect(first[x]).not.toContain(q);
      expect(new Set(first[x]).size).toBe(10);
    }
  });
});

describe('nearestByGrey around its limit', () => {
  /** The brute force written out again: each other object's best turn, best first. */
  function exact(q: number, turned: Float32Array[][]): number[] {
    const d = greyDescriptor(greys[q]!, 32);
    const scores = turned.map((es, j) =>
      j === q ? -3 : Math.max(...es.map((e) => d.reduce((s, x, c) => s + x * e[c]!, 0))),
    );
    return Array.from(scores.keys())
      .sort((a, b) => scores[b]! - scores[a]! || a - b)
      .slice(0, 10);
  }

  it('is the exact search below the limit, where the index would differ', () => {
    const queries = Array.from({ length: 40 }, (_, i) => i * 10);
    const below = nearestByGrey(greys, 32, queries, 10);
    const turned = greys.map((g) =>
      ALIGN_TRANSFORMS.map((t) => greyDescriptor(transformSquare(g, 32, t), 32)),
    );
    for (const q of queries) expect(below.get(q)).toEqual(exact(q, turned));
    // Not vacuous: over the limit (forced) the same queries get a different, approximate answer.
    const over = nearestByGrey(greys, 32, queries, 10, 0, { probes: 1 });
    expect(queries.some((q) => JSON.stringify(over.get(q)) !== JSON.stringify(below.get(q)))).toBe(
      true,
    );
  });
});
