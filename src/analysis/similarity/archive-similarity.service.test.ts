import { describe, expect, it } from 'vitest';
import { hash } from '../../../test/support/labelled-hashes.js';
import { similaritySearchInputs } from './archive-similarity.service.js';
import { cacheKeyOf } from './similarity-cache.js';
import type { HashedObject } from './similarity.service.js';

function object(name: string, grey?: Uint8Array): HashedObject & { seq: number } {
  return {
    sha256: hash(`${name}:sha`),
    seq: name.length,
    pdq: hash(`${name}:pdq`),
    dihedral: Array.from({ length: 7 }, (_, i) => hash(`${name}:d${i}`)),
    crops: Array.from({ length: 10 }, (_, i) => hash(`${name}:c${i}`)),
    ...(grey === undefined ? {} : { grey }),
  };
}

const raster = (seed: number): Uint8Array =>
  Uint8Array.from({ length: 32 * 32 }, (_, i) => (i * seed) & 255);

describe("the inputs of a process's remembered near-duplicate search", () => {
  const inputs = (objects: (HashedObject & { seq: number })[], threshold?: number): string =>
    similaritySearchInputs(
      cacheKeyOf(objects, threshold === undefined ? {} : { threshold }),
      objects,
    );
  const base = [object('one', raster(3)), object('two', raster(5)), object('three')];

  it('are the same for the same objects, hashes and grey rasters', () => {
    expect(inputs(base)).toBe(
      inputs([object('one', raster(3)), object('two', raster(5)), object('three')]),
    );
  });

  it('change with one byte of one grey raster, a raster taken away or added, or rasters swapped between objects (the cache key leaves them to the ledger)', () => {
    const flipped = raster(5);
    flipped[100] = (flipped[100]! + 1) & 255;
    const variants = [
      [object('one', raster(3)), object('two', flipped), object('three')],
      [object('one', raster(3)), object('two'), object('three')],
      [object('one', raster(3)), object('two', raster(5)), object('three', raster(7))],
      [object('one', raster(5)), object('two', raster(3)), object('three')],
    ];
    const seen = new Set([inputs(base), ...variants.map((v) => inputs(v))]);
    expect(seen.size).toBe(variants.length + 1);
  });

  it('change with a hash, an analysis seq or the threshold', () => {
    const rehashed = base.map((o, i) =>
      i === 1 ? { ...o, crops: [...o.crops.slice(1), hash('other')] } : o,
    );
    const reseq = base.map((o, i) => (i === 0 ? { ...o, seq: 99 } : o));
    expect(new Set([inputs(base), inputs(rehashed), inputs(reseq), inputs(base, 20)]).size).toBe(4);
  });
});
