// The approximate grey-descriptor index (grey-index.ts) on generated data: its turned cells are the
// descriptor of the turned raster, it finds planted turned copies among many random descriptors,
// it repeats itself, and below the brute-force limit nearestByGrey stays exact.
import { describe, expect, it } from 'vitest';
import { plantedDescriptors } from '../../../test/support/grey-descriptors.js';
import { scene } from '../../../test/support/raster-scenes.js';
import { greyThumbnail } from '../image/raster.js';
import { ALIGN_TRANSFORMS, transformSquare } from './crop-align.js';
import { GREY_DESCRIPTOR_GRID, greyDescriptor, nearestByGrey } from './grey-candidates.js';
import { turnPermutations } from './grey-index-quantiser.js';
import { searchGreyIndex } from './grey-index.js';

const G = GREY_DESCRIPTOR_GRID;
const D = G * G;

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
