import { describe, expect, it } from 'vitest';
import { hammingDistance } from '../pdq/hash256.js';
import {
  cacheKeyOf,
  clustersKeyOf,
  decodeCache,
  decodeClusterOf,
  decodeGreyCounts,
  decodeCropOriginOf,
  encodeCache,
  encodeClusters,
  encodeCropOrigins,
  type CropOrigin,
} from './similarity-cache.js';
import { cropHashDistance, type HashedObject, type SimilarPair } from './similarity.service.js';

/** A 64-hex hash from a seed (no two alike). */
function hash(seed: number): string {
  let s = seed >>> 0;
  let out = '';
  for (let i = 0; i < 32; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out += (s >>> 24).toString(16).padStart(2, '0');
  }
  return out;
}

function object(sha256: string, seed: number): HashedObject & { seq: number } {
  return {
    sha256,
    seq: seed,
    pdq: hash(seed),
    dihedral: Array.from({ length: 7 }, (_, i) => hash(seed * 100 + i + 1)),
    crops: Array.from({ length: 10 }, (_, i) => hash(seed * 1000 + i + 1)),
  };
}

describe('similarity cache', () => {
  const oa = object('a'.repeat(64), 1);
  const ob = object('b'.repeat(64), 2);
  const objects = [oa, ob];
  const key = cacheKeyOf(objects, {});
  const regionToRegion = hammingDistance(oa.crops[3]!, ob.crops[7]!);
  const crop: SimilarPair = {
    a: oa.sha256,
    b: ob.sha256,
    distance: regionToRegion,
    kind: 'crop',
    crop: { original: oa.sha256, box: { left: 0.05, top: 0, right: 0.9, bottom: 0.97 }, transform: 'original' },
  };

  it('keeps an aligned crop found through a region ↔ region candidate', () => {
    expect(decodeCache(encodeCache(key, [crop]), key, objects, {})).toEqual([crop]);
  });

  it('refuses a crop pair whose distance no pair of their hashes has', () => {
    const all = new Set<number>();
    for (const x of [oa.pdq, ...oa.dihedral, ...oa.crops])
      for (const y of [ob.pdq, ...ob.dihedral, ...ob.crops]) all.add(hammingDistance(x, y));
    const planted = [...Array(257).keys()].find((d) => !all.has(d))!;
    expect(decodeCache(encodeCache(key, [{ ...crop, distance: planted }]), key, objects, {})).toBeNull();
  });

  describe('an overlap (near-dup/5: two views, neither containing the other)', () => {
    const overlap: SimilarPair = {
      a: oa.sha256,
      b: ob.sha256,
      distance: cropHashDistance(oa, ob),
      kind: 'overlap',
      overlap: {
        a: { left: 0.1, top: 0, right: 1, bottom: 0.92 },
        b: { left: 0, top: 0.08, right: 0.9, bottom: 1 },
        transform: 'rotate90',
      },
    };

    it('is kept, with its boxes, when it is well formed and its distance is the nearest pair of their hashes', () => {
      expect(decodeCache(encodeCache(key, [overlap]), key, objects, {})).toEqual([overlap]);
    });

    it('is refused with any other distance, even one some pair of their hashes has', () => {
      const other = hammingDistance(oa.pdq, ob.pdq);
      expect(other).not.toBe(overlap.distance);
      expect(decodeCache(encodeCache(key, [{ ...overlap, distance: other }]), key, objects, {})).toBeNull();
    });

    it('is refused without its boxes, with a box out of the frame or inside out, or an unknown turn', () => {
      const bad: unknown[] = [
        { ...overlap, overlap: undefined },
        { ...overlap, overlap: { ...overlap.overlap, a: { left: 0.1, top: 0, right: 1.2, bottom: 0.9 } } },
        { ...overlap, overlap: { ...overlap.overlap, b: { left: 0.5, top: 0, right: 0.4, bottom: 0.9 } } },
        { ...overlap, overlap: { ...overlap.overlap, transform: 'rotate45' } },
        { ...overlap, crop: crop.crop },
      ];
      for (const p of bad)
        expect(decodeCache(JSON.stringify({ key, pairs: [p] }), key, objects, {}), JSON.stringify(p)).toBeNull();
    });

    it('is refused on a pair of another kind', () => {
      const pdq: SimilarPair = { a: oa.sha256, b: ob.sha256, distance: hammingDistance(oa.pdq, ob.pdq), kind: 'pdq' };
      expect(decodeCache(encodeCache(key, [pdq]), key, objects, { threshold: 256 })).toEqual([pdq]);
      expect(
        decodeCache(encodeCache(key, [{ ...pdq, overlap: overlap.overlap }]), key, objects, { threshold: 256 }),
      ).toBeNull();
    });
  });
});

describe('cached clusters', () => {
  const [x, y, z, w] = ['1', '2', '3', '4'].map((c) => c.repeat(64)) as [string, string, string, string];
  const key = clustersKeyOf(40);
  const text = encodeClusters(
    key,
    [
      { objects: [x, y], max_distance: 12 },
      { objects: [z, w], max_distance: 3 },
    ],
    { needing: 7, limit: 5000 },
  );

  it('finds the line of one object, and null for an object in no cluster', () => {
    expect(decodeClusterOf(text, key, w)).toEqual({ id: z, objects: [z, w], max_distance: 3 });
    expect(decodeClusterOf(text, key, '5'.repeat(64))).toBeNull();
  });

  it("is stale once the analyses' ledger size has moved, and unreadable under another matcher or threshold", () => {
    expect(decodeClusterOf(text, clustersKeyOf(41), x)).toBeUndefined();
    expect(decodeClusterOf(text, clustersKeyOf(40, 20), x)).toBeUndefined();
  });

  it("refuses a cache of a previous format (/1: keyed by the whole ledger's size; /2: no coverage line), even at the same number", () => {
    expect(text.startsWith('near-dup-clusters/3 ')).toBe(true);
    for (const version of ['1', '2']) {
      const old = text.replace('near-dup-clusters/3 ', `near-dup-clusters/${version} `);
      expect(decodeClusterOf(old, key, x)).toBeUndefined();
      expect(decodeClusterOf(old, key, '5'.repeat(64))).toBeUndefined();
      expect(decodeGreyCounts(old, key, 5000)).toBeUndefined();
    }
    // A /3 head without its coverage line (as /2 wrote the lines) is refused too.
    const noGrey = text.replace('\ngrey 7 5000\n', '\n');
    expect(decodeClusterOf(noGrey, key, x)).toBeUndefined();
    expect(decodeClusterOf(noGrey, key, '5'.repeat(64))).toBeUndefined();
  });

  it("gives the grey step's coverage from its second line, only when current, well formed and at the search's limit", () => {
    expect(text.split('\n')[1]).toBe('grey 7 5000');
    expect(decodeGreyCounts(text, key, 5000)).toEqual({ needing: 7, limit: 5000 });
    expect(decodeGreyCounts(text, clustersKeyOf(41), 5000)).toBeUndefined();
    expect(decodeGreyCounts(text, key, 4000)).toBeUndefined();
    expect(decodeGreyCounts(undefined, key, 5000)).toBeUndefined();
    expect(decodeGreyCounts(text.slice(0, -1), key, 5000)).toBeUndefined();
    for (const line of ['grey 7', 'grey -1 5000', 'grey 07 5000', 'grey 7 5000 1', 'grey 7.5 5000', 'grey  7 5000', 'gray 7 5000'])
      expect(decodeGreyCounts(text.replace('grey 7 5000', line), key, 5000), line).toBeUndefined();
    const none = encodeClusters(key, [], { needing: 0, limit: 5000 });
    expect(decodeGreyCounts(none, key, 5000)).toEqual({ needing: 0, limit: 5000 });
    expect(decodeClusterOf(none, key, x)).toBeNull();
  });

  it('refuses an object named in two clusters, an unsorted or malformed line', () => {
    const twice = `${text}7 ${x} ${'6'.repeat(64)}\n`;
    expect(decodeClusterOf(twice, key, x)).toBeUndefined();
    const unsorted = text.replace(`${z} ${w}`, `${w} ${z}`);
    expect(decodeClusterOf(unsorted, key, z)).toBeUndefined();
    expect(decodeClusterOf(text.replace('12 ', '999 '), key, x)).toBeUndefined();
    expect(decodeClusterOf(text.replace(` ${y}`, ` ${y}X`), key, x)).toBeUndefined();
    expect(decodeClusterOf(text.slice(0, -1), key, x)).toBeUndefined();
  });
});

describe('the cached crop originals', () => {
  const key = clustersKeyOf(40);
  const [cropped, original, other] = [hash(11), hash(12), hash(13)];
  const origin: CropOrigin = {
    original: original,
    transform: 'rotate90',
    box: { left: 0.03125, top: 0.0100000001, right: 0.88, bottom: 1 },
  };
  const text = encodeCropOrigins(key, new Map([[cropped, origin]]));

  it('reads back one object\'s line exactly, and null for an object with none', () => {
    expect(decodeCropOriginOf(text, key, cropped)).toEqual(origin);
    expect(decodeCropOriginOf(text, key, other)).toBeNull();
    expect(decodeCropOriginOf(text, key, original)).toBeNull(); // named only as an original
  });

  it("is not read under another key (a later analyses' ledger size), nor in the previous format", () => {
    expect(decodeCropOriginOf(text, clustersKeyOf(41), cropped)).toBeUndefined();
    const old = text.replace('near-dup-crops/2 ', 'near-dup-crops/1 ');
    expect(old).not.toBe(text);
    expect(decodeCropOriginOf(old, key, cropped)).toBeUndefined();
  });

  it('refuses an object named twice, a malformed box or transform, an object its own original', () => {
    const line = text.split('\n')[1]!;
    const refused = [
      `${text}${line}\n`,
      text.replace(' 0.88 ', ' 0.02 '), // right of left
      text.replace(' 0.88 ', ' 1.5 '),
      text.replace(' 0.88 ', ' NaN '),
      text.replace('rotate90', 'rotate45'),
      text.replace(original, cropped),
      text.slice(0, -1), // cut short
    ];
    for (const t of refused) expect(decodeCropOriginOf(t, key, cropped), t).toBeUndefined();
  });
});
