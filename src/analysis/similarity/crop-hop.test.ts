// The alignment step of findSimilarPairs on generated rasters with known crop boxes: a hash match
// whose rasters do not align is dropped, and a crop that no hash signal pairs with its original
// meets it through a copy (one hop), with the box within 2 % of the truth.
import { describe, expect, it } from 'vitest';
import { crop, scene, type Box } from '../../../test/support/raster-scenes.js';
import { greyThumbnail, type Raster } from '../image/raster.js';
import { hammingDistance } from '../pdq/hash256.js';
import { verifiesOverlap } from './crop-match.js';
import { alignOverlap, compose, cropToOriginal, invert } from './crop-overlap.js';
import { cacheKeyOf, decodeCache, encodeCache } from './similarity-cache.js';
import { cropHashDistance, findSimilarPairs, type HashedObject } from './similarity.service.js';
import { flip, hash } from '../../../test/support/labelled-hashes.js';

function object(sha: string, pdq: string, grey: Uint8Array | undefined, crops: string[] = []): HashedObject {
  return {
    sha256: sha,
    pdq,
    dihedral: Array.from({ length: 7 }, (_, i) => hash(`${sha}:d${i}`)),
    crops,
    ...(grey === undefined ? {} : { grey }),
  };
}

function expectBox(box: { left: number; top: number; right: number; bottom: number }, [l, t, r, b]: Box): void {
  expect(Math.abs(box.left - l)).toBeLessThanOrEqual(0.02);
  expect(Math.abs(box.top - t)).toBeLessThanOrEqual(0.02);
  expect(Math.abs(box.right - r)).toBeLessThanOrEqual(0.02);
  expect(Math.abs(box.bottom - b)).toBeLessThanOrEqual(0.02);
}

describe('findSimilarPairs: the alignment step', () => {
  it('drops a hash match whose rasters do not align (same setting, another subject), keeps a crop that does', () => {
    const base = scene(11);
    const other = scene(11); // the same background, the subject in one place changed
    for (let y = 200; y < 300; y++)
      for (let x = 40; x < 160; x++) {
        const i = (y * 480 + x) * 3;
        other.data[i] = other.data[i + 1] = other.data[i + 2] = 255 - (base.data[i] ?? 0);
      }
    const box: Box = [0.02, 0.01, 0.97, 0.99];
    const pdq = hash('base');
    const objects = [
      object('base', pdq, greyThumbnail(base)),
      object('setting', flip(pdq, 20, 'setting'), greyThumbnail(other)), // PDQ 20: a hash match
      object('cropped', flip(pdq, 12, 'cropped'), greyThumbnail(crop(base, box))),
    ];
    const pairs = findSimilarPairs(objects);
    expect(pairs.map((p) => `${p.a} ${p.b}`)).toEqual(['base cropped']);
    expect(pairs[0]?.crop?.original).toBe('base');
    expectBox(pairs[0]!.crop!.box, box);
    // Without rasters (analyses from before custody-image/3) the hash match stands: the drop is the alignment's.
    const hashesOnly = findSimilarPairs(objects.map((o) => ({ ...o, grey: undefined })));
    expect(hashesOnly.map((p) => `${p.a} ${p.b}`)).toContain('base setting');
  });

  it('one hop: a crop that no hash signal pairs with its original meets it through a copy, box within 2 %', () => {
    const original = scene(23);
    const first: Box = [0.03, 0.02, 0.95, 0.97]; // the copy: a crop of the original
    const second: Box = [0.05, 0.04, 0.97, 0.94]; // the crop: a crop of the copy
    const copy = crop(original, first);
    const cropped = crop(copy, second);
    const w = first[2] - first[0];
    const h = first[3] - first[1];
    const truth: Box = [
      first[0] + second[0] * w,
      first[1] + second[1] * h,
      first[0] + second[2] * w,
      first[1] + second[3] * h,
    ];
    // The region hashes chain original → copy → crop; the original's hashes are nowhere near the crop's.
    const r1 = hash('region-of-original');
    const r2 = hash('region-of-copy');
    const objects = [
      object('original', hash('original'), greyThumbnail(original), [r1]),
      object('copy', flip(r1, 10, 'copy'), greyThumbnail(copy), [r2]),
      object('crop', flip(r2, 10, 'crop'), greyThumbnail(cropped)),
      object('unrelated', hash('unrelated'), greyThumbnail(scene(99))),
    ];
    const far = cropHashDistance(objects[0]!, objects[2]!);
    expect(far).toBeGreaterThan(80); // beyond every threshold of the candidate prefilter
    const pairs = findSimilarPairs(objects);
    const byKey = new Map(pairs.map((p) => [`${p.a} ${p.b}`, p]));
    expect([...byKey.keys()].sort()).toEqual(['copy crop', 'copy original', 'crop original']);
    const hop = byKey.get('crop original')!;
    expect(hop.kind).toBe('crop');
    expect(hop.distance).toBe(far);
    expect(hop.crop?.original).toBe('original');
    expectBox(hop.crop!.box, truth);
    // Without the copy, no hash signal brings the two together; only the grey candidates do.
    const alone = findSimilarPairs([objects[0]!, objects[2]!, objects[3]!], { grey: false });
    expect(alone).toEqual([]);
    const byGrey = findSimilarPairs([objects[0]!, objects[2]!, objects[3]!]);
    expect(byGrey.map((p) => `${p.a} ${p.b}`)).toEqual(['crop original']);
    expectBox(byGrey[0]!.crop!.box, truth);
    // The pair the hop recorded passes the cache's checks (its distance is one of their hash distances).
    const seqd = objects.map((o, i) => ({ ...o, seq: i }));
    const key = cacheKeyOf(seqd, {});
    expect(decodeCache(encodeCache(key, pairs), key, objects, {})).toEqual(pairs);
    expect(hammingDistance(objects[0]!.pdq, objects[2]!.pdq)).toBeGreaterThan(80);
  });
});

/** Where the part `overlap` of the original (a box of it) sits in the crop `box` of it. */
function within([l, t, r, b]: Box, [ol, ot, or, ob]: Box): Box {
  const w = r - l;
  const h = b - t;
  return [(ol - l) / w, (ot - t) / h, (or - l) / w, (ob - t) / h];
}

describe('findSimilarPairs: two crops that overlap, neither containing the other', () => {
  // Cut unevenly from different sides: 2 % left, 10 % top, 12 % right, 3 % bottom; and 12 % left,
  // 1 % top, 3 % right, 10 % bottom. They share [0.12, 0.10, 0.88, 0.90] of the original.
  const boxA: Box = [0.02, 0.1, 0.88, 0.97];
  const boxB: Box = [0.12, 0.01, 0.97, 0.9];
  const shared: Box = [0.12, 0.1, 0.88, 0.9];

  /** The original, and two crops whose hashes each meet a region hash of the original only. */
  function objectsOf(original: Raster, second: Raster, turn: 'original' | 'rotate90' = 'original'): HashedObject[] {
    const rA = hash('region-a');
    const rB = hash('region-b');
    const greyB = greyThumbnail(crop(second, boxB));
    return [
      object('original', hash('original'), greyThumbnail(original), [rA, rB]),
      object('crop-a', flip(rA, 10, 'a'), greyThumbnail(crop(original, boxA))),
      object('crop-b', flip(rB, 10, 'b'), turn === 'original' ? greyB : turned(greyB)),
    ];
  }

  /** A quarter turn clockwise of a 32×32 raster (what an app that turns the pixels stores). */
  function turned(g: Uint8Array): Uint8Array {
    const out = new Uint8Array(g.length);
    for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) out[y * 32 + (31 - x)] = g[x * 32 + y]!;
    return out;
  }

  it('links them as an overlap through their common original, the overlap boxed within 2 % in each', () => {
    const original = scene(41);
    const objects = objectsOf(original, original);
    expect(cropHashDistance(objects[1]!, objects[2]!)).toBeGreaterThan(80); // no hash signal pairs them
    const pairs = findSimilarPairs(objects);
    const byKey = new Map(pairs.map((p) => [`${p.a} ${p.b}`, p]));
    expect([...byKey.keys()].sort()).toEqual(['crop-a crop-b', 'crop-a original', 'crop-b original']);
    expectBox(byKey.get('crop-a original')!.crop!.box, boxA);
    const overlap = byKey.get('crop-a crop-b')!;
    expect(overlap.kind).toBe('overlap');
    expect(overlap.crop).toBeUndefined();
    expect(overlap.overlap?.transform).toBe('original');
    expectBox(overlap.overlap!.a, within(boxA, shared));
    expectBox(overlap.overlap!.b, within(boxB, shared));
    // Without the overlap step (or without the original) the two are not linked.
    expect(findSimilarPairs(objects, { overlap: false }).map((p) => `${p.a} ${p.b}`)).not.toContain('crop-a crop-b');
    expect(findSimilarPairs([objects[1]!, objects[2]!])).toEqual([]);
  });

  it('composes a turn: the second crop stored a quarter turn clockwise', () => {
    const original = scene(43);
    const pairs = findSimilarPairs(objectsOf(original, original, 'rotate90'));
    const overlap = pairs.find((p) => p.a === 'crop-a' && p.b === 'crop-b');
    expect(overlap?.kind).toBe('overlap');
    // transformSquare(crop-b, rotate270) is upright again, in crop-a's orientation.
    expect(overlap!.overlap!.transform).toBe('rotate270');
    expectBox(overlap!.overlap!.a, within(boxA, shared));
    // In the stored (turned) crop-b, its upright box [l, t, r, b] is [1 − b, l, 1 − t, r].
    const [l, t, r, b] = within(boxB, shared);
    expectBox(overlap!.overlap!.b, [1 - b, l, 1 - t, r]);
  });

  it('same setting, another subject: a crop of it overlapping the first crop stays unlinked', () => {
    const original = scene(47);
    const setting = scene(47); // the same background; the subject, in the shared part, changed
    for (let y = 120; y < 260; y++)
      for (let x = 150; x < 330; x++) {
        const i = (y * 480 + x) * 3;
        setting.data[i] = setting.data[i + 1] = setting.data[i + 2] = 255 - (original.data[i] ?? 0);
      }
    const objects = objectsOf(original, setting);
    const pairs = findSimilarPairs(objects).map((p) => `${p.a} ${p.b}`);
    expect(pairs).toEqual(['crop-a original']);
    // Even given their true relative place (the geometry is exact), the overlap does not verify;
    // the same test on the true crop does (so this is the subject, not the geometry).
    const n = 32;
    const [gA, gTrue, gSetting] = [crop(original, boxA), crop(original, boxB), crop(setting, boxB)].map((r) =>
      greyThumbnail(r, n),
    );
    const bToA = compose(invert(cropToOriginal(box(boxA), 'original')), cropToOriginal(box(boxB), 'original'));
    const truth = alignOverlap(gA!, gTrue!, n, bToA);
    const negative = alignOverlap(gA!, gSetting!, n, bToA);
    expect(truth !== null && verifiesOverlap(truth)).toBe(true);
    expect(negative).not.toBeNull();
    expect(verifiesOverlap(negative!)).toBe(false);
  });

  it('a brightened copy (highlights clipped) and a small crop, both verified against the original, are linked', () => {
    // The quality bench's most missed pair (brighten-15 × crop-small): the clipped highlights leave
    // the direct alignment's worst block off (residual above the crop rule's 0.2), and composed
    // through the original the overlap's residual lies between 0.18 and OVERLAP_MAX_RESIDUAL.
    const small: Box = [0.02, 0.015, 0.975, 0.98];
    for (const seed of [1, 3, 10]) {
      const original = scene(seed);
      const brightened = { ...original, data: original.data.map((v) => Math.min(255, Math.round(v * 1.3))) };
      const pdq = hash(`original-${seed}`);
      const objects = [
        object('original', pdq, greyThumbnail(original)),
        object('brightened', flip(pdq, 10, `brightened-${seed}`), greyThumbnail(brightened)),
        object('small-crop', flip(pdq, 12, `small-crop-${seed}`), greyThumbnail(crop(original, small))),
      ];
      const pairs = findSimilarPairs(objects);
      expect(pairs.map((p) => `${p.a} ${p.b}`)).toEqual([
        'brightened original',
        'brightened small-crop',
        'original small-crop',
      ]);
      const both = pairs.find((p) => p.a === 'brightened' && p.b === 'small-crop')!;
      expect(both.crop?.original).toBe('brightened');
      expectBox(both.crop!.box, small);
      // Given the exact geometry, the overlap's residual is one the earlier 0.18 refused.
      const n = 32;
      const [gBright, gSmall] = [brightened, crop(original, small)].map((r) => greyThumbnail(r, n));
      const exact = compose(invert(cropToOriginal(box([0, 0, 1, 1]), 'original')), cropToOriginal(box(small), 'original'));
      const v = alignOverlap(gBright!, gSmall!, n, exact)!;
      expect(v.native.residual).toBeGreaterThan(0.18);
      expect(verifiesOverlap(v)).toBe(true);
    }
  });
});

function box([left, top, right, bottom]: Box): { left: number; top: number; right: number; bottom: number } {
  return { left, top, right, bottom };
}
