// The grey-descriptor candidate source on generated rasters: an uneven crop, flipped or turned, whose
// stored hashes are nowhere near its original's, meets it among unrelated scenes, and the alignment
// it leads to verifies with the crop box within 2 % of the truth.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { crop, scene, type Box } from '../../../test/support/raster-scenes.js';
import { greyThumbnail, type Raster } from '../image/raster.js';
import { greyDescriptor, nearestByGrey } from './grey-candidates.js';
import { greyStepCoverage, MAX_GREY_QUERIES } from './grey-coverage.js';
import { findSimilarPairs, type HashedObject } from './similarity.service.js';

function hash(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}

/** Mirrored left–right. */
function flop(r: Raster): Raster {
  const data = new Uint8Array(r.data.length);
  for (let y = 0; y < r.height; y++)
    for (let x = 0; x < r.width; x++)
      for (let c = 0; c < r.channels; c++)
        data[(y * r.width + x) * r.channels + c] =
          r.data[(y * r.width + (r.width - 1 - x)) * r.channels + c] ?? 0;
  return { ...r, data };
}

/** Turned a quarter clockwise. */
function turn(r: Raster): Raster {
  const [w, h] = [r.height, r.width];
  const data = new Uint8Array(r.data.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < r.channels; c++)
        data[(y * w + x) * r.channels + c] =
          r.data[((r.height - 1 - x) * r.width + y) * r.channels + c] ?? 0;
  return { data, width: w, height: h, channels: r.channels };
}

/** An object whose stored hashes are all unrelated to every other's (as a crop-flip's are). */
function object(sha: string, grey: Uint8Array): HashedObject {
  return {
    sha256: sha,
    pdq: hash(sha),
    dihedral: Array.from({ length: 7 }, (_, i) => hash(`${sha}:d${i}`)),
    crops: Array.from({ length: 4 }, (_, i) => hash(`${sha}:c${i}`)),
    grey,
  };
}

function expectBox(
  box: { left: number; top: number; right: number; bottom: number },
  [l, t, r, b]: Box,
): void {
  expect(Math.abs(box.left - l)).toBeLessThanOrEqual(0.02);
  expect(Math.abs(box.top - t)).toBeLessThanOrEqual(0.02);
  expect(Math.abs(box.right - r)).toBeLessThanOrEqual(0.02);
  expect(Math.abs(box.bottom - b)).toBeLessThanOrEqual(0.02);
}

const distractors = Array.from({ length: 24 }, (_, i) => greyThumbnail(scene(1000 + i)));

describe('greyDescriptor', () => {
  it('is unit length and indifferent to brightness and contrast', () => {
    const g = greyThumbnail(scene(5));
    const d = greyDescriptor(g, 32);
    expect(d.reduce((s, x) => s + x * x, 0)).toBeCloseTo(1, 5);
    const brighter = g.map((v) => Math.min(255, Math.round(20 + 0.8 * v)));
    const e = greyDescriptor(brighter, 32);
    expect(d.reduce((s, x, i) => s + x * e[i]!, 0)).toBeGreaterThan(0.999);
    expect(greyDescriptor(new Uint8Array(32 * 32).fill(7), 32).every((x) => x === 0)).toBe(true);
  });
});

describe('nearestByGrey', () => {
  it('finds the original of an uneven crop, flipped or turned, among unrelated scenes', () => {
    const base = scene(41);
    const box: Box = [0.02, 0.12, 0.88, 0.97]; // 2, 12, 12 and 3 % cut
    const greys = [
      greyThumbnail(base),
      greyThumbnail(flop(crop(base, box))),
      greyThumbnail(turn(crop(base, box))),
      ...distractors,
    ];
    const near = nearestByGrey(greys, 32, [1, 2], 3);
    expect(near.get(1)).toContain(0);
    expect(near.get(2)).toContain(0);
    expect(near.get(1)).toHaveLength(3);
    // A descriptor of the unrelated scenes only does not bring the base up.
    const none = nearestByGrey([greys[0]!, ...distractors], 32, [0], 3);
    expect(none.get(0)).not.toContain(0);
  });

  it('above its brute-force limit answers from the index, which finds the same originals', () => {
    const base = scene(41);
    const box: Box = [0.02, 0.12, 0.88, 0.97];
    const greys = [
      greyThumbnail(base),
      greyThumbnail(flop(crop(base, box))),
      greyThumbnail(turn(crop(base, box))),
      ...distractors,
    ];
    // One pair over the limit: the index (two centroids, so the lists really divide the objects).
    const near = nearestByGrey(greys, 32, [1, 2], 3, 2 * greys.length - 1, {
      centroids: 2,
      probes: 2,
    });
    expect(near.get(1)).toContain(0);
    expect(near.get(2)).toContain(0);
    expect(near.get(1)).toHaveLength(3);
  });
});

describe('findSimilarPairs: grey candidates', () => {
  it('links a flipped uneven crop that no hash signal pairs with its original, box within 2 %', () => {
    const base = scene(57);
    const box: Box = [0.1, 0.03, 0.97, 0.86];
    const objects = [
      object('base', greyThumbnail(base)),
      object('crop-flop', greyThumbnail(flop(crop(base, box)))),
      ...distractors.map((g, i) => object(`other-${i}`, g)),
    ];
    const pairs = findSimilarPairs(objects);
    expect(pairs.map((p) => `${p.a} ${p.b}`)).toEqual(['base crop-flop']);
    expect(pairs[0]!.kind).toBe('crop');
    expect(pairs[0]!.crop?.original).toBe('base');
    expect(pairs[0]!.crop?.transform).toBe('flipX');
    expectBox(pairs[0]!.crop!.box, box);
    // Without the grey candidates the two are never compared.
    expect(findSimilarPairs(objects, { grey: false })).toEqual([]);
    // Nor when more objects need the step than it takes (every one of these is alone).
    expect(findSimilarPairs(objects, { greyMaxQueries: objects.length - 1 })).toEqual([]);
    expect(findSimilarPairs(objects, { greyMaxQueries: objects.length })).toHaveLength(1);
    // Four whole searches with crop alignment: about 4 s alone, more on a loaded machine.
  }, 60_000);
});

describe('findSimilarPairs: a lone crop whose nearest view is another crop', () => {
  /** A hash `bits` bits away from `hex` (the first bits flipped). */
  function near(hex: string, bits: number): string {
    const b = Buffer.from(hex, 'hex');
    for (let i = 0; i < bits; i++) b[i >> 3]! ^= 1 << (i & 7);
    return b.toString('hex');
  }

  it('is aligned with the widest view that crop is part of, and linked with it, box within 2 %', () => {
    const base = scene(63);
    const box: Box = [0.05, 0.05, 0.9, 0.92];
    // A crop of the same original cut from other sides: neither contains the other. Its hash is
    // 12 bits from the original's, so the hash step links the two and records it as a crop.
    const other = object('other-crop', greyThumbnail(crop(base, [0.08, 0.06, 0.95, 0.95])));
    const original = object('original', greyThumbnail(base));
    const objects = [
      original,
      { ...other, pdq: near(original.pdq, 12) },
      object('crop-flop', greyThumbnail(flop(crop(base, box)))),
      ...distractors.map((g, i) => object(`other-${i}`, g)),
    ];
    const greys = objects.map((o) => o.grey);
    expect(nearestByGrey(greys, 32, [2], 1).get(2)).toEqual([1]); // its nearest: the other crop
    const pairs = findSimilarPairs(objects, { greyNeighbours: 1 });
    const linked = pairs.find((p) => p.a === 'original' && p.b === 'other-crop');
    expect(linked?.crop?.original).toBe('original'); // the hash step's crop, which leads there
    const found = pairs.find((p) => p.a === 'crop-flop' && p.b === 'original');
    expect(found?.kind).toBe('crop');
    expect(found?.crop?.original).toBe('original');
    expect(found?.crop?.transform).toBe('flipX');
    expectBox(found!.crop!.box, box);
  }, 60_000);
});

describe('greyStepCoverage: whether the grey step ran, from the pairs alone', () => {
  it('says so exactly at the bound and one below, and names the objects that needed the step', () => {
    const base = scene(57);
    const box: Box = [0.1, 0.03, 0.97, 0.86];
    // A family of four views with one hash: linked by the hash step, in a group too large to need
    // the grey step. Everything else is alone, the crop-flop included.
    const family = distractors
      .slice(0, 4)
      .map((g, i) => ({ ...object(`family-${i}`, g), pdq: hash('family') }));
    const objects = [
      object('base', greyThumbnail(base)),
      object('crop-flop', greyThumbnail(flop(crop(base, box)))),
      ...family,
      ...distractors.slice(4, 14).map((g, i) => object(`other-${i}`, g)),
    ];
    const flags = objects.map((o) => ({ sha256: o.sha256, grey: true }));
    const alone = objects.map((o) => o.sha256).filter((s) => !s.startsWith('family-'));
    // With the step off, the groups at the end are those it would have counted.
    const without = greyStepCoverage(flags, findSimilarPairs(objects, { grey: false }));
    expect(without.needing).toBe(alone.length);
    expect(without.objects).toEqual(alone);

    const below = findSimilarPairs(objects, { greyMaxQueries: alone.length - 1 });
    expect(below.some((p) => p.b === 'crop-flop' || p.a === 'crop-flop')).toBe(false);
    expect(greyStepCoverage(flags, below, alone.length - 1)).toEqual({
      needing: alone.length,
      limit: alone.length - 1,
      ran: false,
      objects: alone,
    });

    const at = findSimilarPairs(objects, { greyMaxQueries: alone.length });
    expect(at.find((p) => p.a === 'base' && p.b === 'crop-flop')?.kind).toBe('crop');
    // Base and crop-flop now form a group of two: still small, still counted; the step ran.
    expect(greyStepCoverage(flags, at, alone.length)).toMatchObject({
      needing: alone.length,
      ran: true,
    });
  }, 60_000);

  it('counts only objects with a grey raster, in groups of at most three, and ignores pairs naming others', () => {
    const flags = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((s) => ({
      sha256: s,
      grey: s !== 'h',
    }));
    const pairs = [
      { a: 'a', b: 'b' },
      { a: 'b', b: 'c' }, // a–b–c: three, small
      { a: 'd', b: 'e' },
      { a: 'e', b: 'f' },
      { a: 'f', b: 'g' }, // d–g: four, not small
      { a: 'h', b: 'unknown' }, // h alone (no raster); the unknown object is ignored
    ];
    expect(greyStepCoverage(flags, pairs, 3)).toEqual({
      needing: 3,
      limit: 3,
      ran: true,
      objects: ['a', 'b', 'c'],
    });
    expect(greyStepCoverage(flags, pairs, 2)).toMatchObject({ needing: 3, ran: false });
    expect(greyStepCoverage(flags, [])).toMatchObject({
      needing: 7,
      limit: MAX_GREY_QUERIES,
      ran: true,
    });
  });
});
