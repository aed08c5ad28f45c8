import { describe, expect, it } from 'vitest';
import { hammingDistance } from '../pdq/index.js';
import {
  clusterObjects,
  cropHashDistance,
  findSimilarPairs,
  type HashedObject,
} from './similarity.service.js';
import { flip, hash } from '../../../test/support/labelled-hashes.js';

function object(sha: string, pdq: string, extra: Partial<HashedObject> = {}): HashedObject {
  return {
    sha256: sha,
    pdq,
    dihedral: Array.from({ length: 7 }, (_, i) => hash(`${sha}:d${i}`)),
    crops: [],
    ...extra,
  };
}

describe('findSimilarPairs', () => {
  it('equals brute force over plain, dihedral and crop matches', () => {
    const objects: HashedObject[] = [];
    for (let i = 0; i < 60; i++) objects.push(object(hash(`obj${i}`), hash(`pdq${i}`)));
    const base = objects[0]?.pdq ?? '';
    objects.push(object(hash('near'), flip(base, 20, 'near'))); // plain, distance 20
    objects.push(object(hash('far'), flip(base, 40, 'far'))); // beyond 31
    const rotated = objects[1]?.dihedral[0] ?? ''; // object 1 rotated by 90°
    objects.push(object(hash('rot'), flip(rotated, 5, 'rot')));
    objects.push(object(hash('crop'), flip(hash('region-of-2'), 10, 'crop')));
    const o2 = objects[2];
    if (o2 !== undefined) o2.crops = [hash('region-of-2')];
    const pairs = findSimilarPairs(objects, { threshold: 31, cropThreshold: 24 });

    const brute: string[] = [];
    for (let i = 0; i < objects.length; i++) {
      for (let j = i + 1; j < objects.length; j++) {
        const a = objects[i] as HashedObject;
        const b = objects[j] as HashedObject;
        const plain = hammingDistance(a.pdq, b.pdq);
        const dihedral = Math.min(
          ...a.dihedral.map((v) => hammingDistance(v, b.pdq)),
          ...b.dihedral.map((v) => hammingDistance(v, a.pdq)),
        );
        const crop = Math.min(
          99,
          ...a.crops.map((c) => hammingDistance(c, b.pdq)),
          ...b.crops.map((c) => hammingDistance(c, a.pdq)),
        );
        const kind =
          plain <= 31 && plain <= dihedral
            ? 'pdq'
            : Math.min(plain, dihedral) <= 31
              ? 'pdq-dihedral'
              : crop <= 24
                ? 'crop'
                : null;
        if (kind !== null) brute.push(`${[a.sha256, b.sha256].sort().join(' ')} ${kind}`);
      }
    }
    expect(pairs.map((p) => `${p.a} ${p.b} ${p.kind}`).sort()).toEqual(brute.sort());
    const kinds = new Map(pairs.map((p) => [[p.a, p.b].sort().join(' '), p]));
    expect(kinds.get([objects[0]?.sha256, hash('near')].sort().join(' '))).toMatchObject({
      kind: 'pdq',
      distance: 20,
    });
    expect(kinds.get([objects[1]?.sha256, hash('rot')].sort().join(' '))).toMatchObject({
      kind: 'pdq-dihedral',
      distance: 5,
    });
    expect(kinds.get([objects[2]?.sha256, hash('crop')].sort().join(' '))).toMatchObject({
      kind: 'crop',
      distance: 10,
    });
    expect(kinds.has([objects[0]?.sha256, hash('far')].sort().join(' '))).toBe(false);
  });
});

describe('cropHashDistance', () => {
  const crops = (label: string): string[] =>
    Array.from({ length: 10 }, (_, i) => hash(`${label}:c${i}`));
  /** The nearest of the pairs of hashes it compares, measured one by one from the text. */
  function byText(a: HashedObject, b: HashedObject): number {
    const fulls = (o: HashedObject): string[] => [o.pdq, ...o.dihedral];
    const d = [
      ...a.crops.flatMap((c) => fulls(b).map((h) => hammingDistance(c, h))),
      ...b.crops.flatMap((c) => fulls(a).map((h) => hammingDistance(c, h))),
      ...fulls(a).map((h) => hammingDistance(h, b.pdq)),
      ...a.crops.flatMap((c) => b.crops.map((h) => hammingDistance(c, h))),
    ];
    return Math.min(256, ...d);
  }

  it('is the nearest pair of hashes, and follows an object whose hashes are replaced', () => {
    const a = object('a', hash('a'), { crops: crops('a') });
    const b = object('b', hash('b'), {
      crops: [...crops('b').slice(1), flip(hash('a'), 7, 'near a')],
    });
    expect(cropHashDistance(a, b)).toBe(byText(a, b));
    expect(cropHashDistance(a, b)).toBe(7);
    // The parsed hashes are kept per object; new hashes on the same object are parsed again.
    b.crops = crops('b');
    expect(cropHashDistance(a, b)).toBe(byText(a, b));
    expect(cropHashDistance(a, b)).toBeGreaterThan(7);
    a.dihedral = [flip(b.crops[3]!, 2, 'near b'), ...a.dihedral.slice(1)];
    expect(cropHashDistance(a, b)).toBe(2);
  });

  it('refuses a malformed hash with PDQ_BAD_HASH, as hammingDistance does', () => {
    const a = object('a', hash('a'), { crops: crops('a') });
    const bad = object('bad', hash('bad'), { crops: ['zz'.repeat(32)] });
    expect(() => cropHashDistance(a, bad)).toThrow(
      expect.objectContaining({ code: 'PDQ_BAD_HASH' }),
    );
  });
});

describe('clusterObjects', () => {
  it('forms connected components with a stable id, omits singletons, and shows chaining', () => {
    const a = hash('A');
    const b = flip(a, 20, 'B');
    const c = flip(b, 20, 'C'); // near B, far from A: a chain
    const objs = [object('aa', a), object('bb', b), object('cc', c), object('zz', hash('Z'))];
    const pairs = findSimilarPairs(objs);
    const clusters = clusterObjects(objs, pairs);
    expect(clusters).toHaveLength(1);
    expect(clusters[0]?.id).toBe('aa');
    expect(clusters[0]?.objects).toEqual(['aa', 'bb', 'cc']);
    expect(clusters[0]?.max_distance).toBe(hammingDistance(a, c));
    expect(clusters[0]?.max_distance).toBeGreaterThan(31);
  });
});
