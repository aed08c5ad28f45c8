import { describe, expect, it } from 'vitest';
import { hammingDistance } from '../pdq/hash256.js';
import { cacheKeyOf, decodeCache, encodeCache } from './similarity-cache.js';
import type { HashedObject, SimilarPair } from './similarity.service.js';

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
});
