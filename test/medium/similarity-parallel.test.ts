// findSimilarPairsParallel aligns each step's pairs on worker threads (align-parallel.ts) and must
// give findSimilarPairs' answer pair for pair. The workers load the compiled crop-match.js
// (dist/, which npm test builds first): a Node 20 worker cannot load the TypeScript sources.
import { describe, expect, it } from 'vitest';
import { greyThumbnail } from '../../src/analysis/image/raster.js';
import { openAlignPool } from '../../src/analysis/similarity/align-parallel.js';
import { alignPair } from '../../src/analysis/similarity/crop-match.js';
import {
  findSimilarPairs,
  findSimilarPairsParallel,
  type HashedObject,
} from '../../src/analysis/similarity/similarity.service.js';
import { crop, scene, type Box } from '../support/raster-scenes.js';
import { flip, hash } from '../support/labelled-hashes.js';

function object(sha: string, pdq: string, grey?: Uint8Array): HashedObject {
  return {
    sha256: sha,
    pdq,
    dihedral: Array.from({ length: 7 }, (_, i) => hash(`${sha}:d${i}`)),
    crops: [],
    ...(grey === undefined ? {} : { grey }),
  };
}

/**
 * Groups of one scene: the original, crops cut unevenly (hash matches, aligned and boxed), a
 * crop no hash pairs with anything (met through the others, one hop), and the same setting with
 * another subject (a hash match the alignment drops); one object without a raster.
 */
function collection(groups: number): HashedObject[] {
  const boxes: Box[] = [
    [0.02, 0.01, 0.97, 0.99],
    [0.05, 0.03, 1, 0.94],
    [0, 0.08, 0.9, 1],
  ];
  const out: HashedObject[] = [];
  for (let g = 0; g < groups; g++) {
    const base = scene(100 + g);
    const pdq = hash(`base ${g}`);
    out.push(object(`g${g} original`, pdq, greyThumbnail(base)));
    boxes.forEach((box, k) =>
      out.push(
        object(
          `g${g} crop ${k}`,
          flip(pdq, 10 + 4 * k, `${g}:${k}`),
          greyThumbnail(crop(base, box)),
        ),
      ),
    );
    out.push(
      object(`g${g} lone crop`, hash(`lone ${g}`), greyThumbnail(crop(base, [0.1, 0, 0.95, 0.9]))),
    );
    const other = scene(100 + g);
    for (let y = 150; y < 280; y++)
      for (let x = 60; x < 220; x++) {
        const i = (y * 480 + x) * 3;
        other.data[i] = other.data[i + 1] = other.data[i + 2] = 255 - (base.data[i] ?? 0);
      }
    out.push(object(`g${g} setting`, flip(pdq, 20, `setting ${g}`), greyThumbnail(other)));
  }
  out.push(object('no raster', flip(hash('base 0'), 9, 'no raster')));
  return out;
}

describe('findSimilarPairsParallel', () => {
  const objects = collection(6);

  it('aligns on worker threads: the pool answers what alignPair answers here', async () => {
    const pool = openAlignPool(
      objects.map((o) => o.grey),
      2,
    );
    expect(pool, 'no compiled crop-match.js for the workers: run npm run build').not.toBeNull();
    try {
      const pairs = objects.flatMap((_, a) =>
        objects.map((_, b) => [a, b] as const).filter(([x, y]) => x < y && y - x <= 3),
      );
      const answers = await pool!.alignAll(pairs);
      const withRasters = pairs.filter(([a, b]) => objects[a]!.grey && objects[b]!.grey);
      expect([...answers.keys()].sort()).toEqual(withRasters.map(([a, b]) => `${a}:${b}`).sort());
      for (const [a, b] of withRasters) {
        const ga = objects[a]!.grey!;
        const gb = objects[b]!.grey!;
        expect(answers.get(`${a}:${b}`)).toEqual(alignPair(a, b, ga, gb, Math.sqrt(ga.length)));
      }
      expect([...answers.values()].filter((v) => v !== null).length).toBeGreaterThan(10);
    } finally {
      await pool!.close();
    }
  });

  it('finds exactly the pairs findSimilarPairs finds: crops boxed, the lone crop met, the setting dropped', async () => {
    const expected = findSimilarPairs(objects);
    // The cases above all happen (else the comparison would prove little).
    const kinds = new Set(expected.map((p) => p.kind));
    expect(kinds).toContain('crop');
    expect(expected.filter((p) => p.crop !== undefined).length).toBeGreaterThanOrEqual(18);
    const lone = expected.filter((p) => p.a.includes('lone') || p.b.includes('lone'));
    expect(lone.length).toBeGreaterThanOrEqual(6);
    // The setting is dropped against every view it was a hash match with (only the object without
    // a raster, which nothing can align, keeps its match).
    const setting = expected.filter((p) => p.a.includes('setting') || p.b.includes('setting'));
    expect(setting.map((p) => [p.a, p.b].sort().join(' ~ '))).toEqual(['g0 setting ~ no raster']);

    for (const threads of [1, 2, 3])
      expect(await findSimilarPairsParallel(objects, { threads, minParallelPairs: 1 })).toEqual(
        expected,
      );
    // With the default, steps this small stay on this thread: the same answer again.
    expect(await findSimilarPairsParallel(objects)).toEqual(expected);
  });
});
