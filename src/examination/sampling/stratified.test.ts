import { describe, expect, it } from 'vitest';
import { drawSimpleRandom } from './draw.js';
import { SamplingError } from './errors.js';
import { allocateProportional, drawStratified } from './stratified.js';

const UNITS = Array.from({ length: 10 }, (_, i) => `unit-${String(i + 1).padStart(2, '0')}`);
const SEED = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const STRATA = { north: UNITS.slice(0, 6), south: UNITS.slice(6, 9), east: UNITS.slice(9) };

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof SamplingError) return e.code;
    throw e;
  }
  return 'no error';
}

describe('allocateProportional', () => {
  it('uses the largest remainder, ties broken by stratum name', () => {
    const sizes = new Map([
      ['north', 6],
      ['south', 3],
      ['east', 1],
    ]);
    expect(Object.fromEntries(allocateProportional(sizes, 4))).toEqual({
      north: 2,
      south: 1,
      east: 1,
    });
    const tied = new Map([
      ['b', 1],
      ['a', 1],
      ['c', 1],
    ]);
    expect(Object.fromEntries(allocateProportional(tied, 2))).toEqual({ a: 1, b: 1, c: 0 });
  });

  it('always sums to n and never exceeds a stratum (generated cases)', () => {
    for (let k = 1; k < 400; k++) {
      const sizes = new Map(
        Array.from({ length: 1 + (k % 7) }, (_, h) => [`s${h}`, (k * (h + 3)) % 23]),
      );
      const N = [...sizes.values()].reduce((a, b) => a + b, 0);
      const n = N === 0 ? 0 : (k * 7) % (N + 1);
      const out = allocateProportional(sizes, n);
      expect([...out.values()].reduce((a, b) => a + b, 0)).toBe(n);
      for (const [name, size] of out) {
        const Nh = sizes.get(name) as number;
        expect(size).toBeLessThanOrEqual(Nh);
        expect(Math.abs(size - (n * Nh) / N || 0)).toBeLessThan(1);
      }
    }
  });
});

describe('drawStratified', () => {
  it('matches the worked example of PROCEDURE.md', () => {
    const draw = drawStratified(STRATA, { total: 4 }, SEED);
    expect(draw.strata.map((s) => [s.name, s.n, s.seed])).toEqual([
      ['east', 1, `${SEED}/east`],
      ['north', 2, `${SEED}/north`],
      ['south', 1, `${SEED}/south`],
    ]);
    expect(draw.members).toEqual(['unit-10', 'unit-05', 'unit-06', 'unit-08']);
    expect(draw.frameDigest).toBe(
      'd60955c8eed53358dddf68d49648b26b9fbd001e813f28e8b2a39c23fc7a3ca7',
    );
    expect(draw.manifestDigest).toBe(
      'a71b02596725c2c1d18ba137147b45d3d94b1ce253741706878ebca9032e4426',
    );
    expect(draw).toMatchObject({ method: 'stratified', n: 4, frameSize: 10 });
  });

  it('draws each stratum as a simple random sample with seed/name', () => {
    const draw = drawStratified(STRATA, { sizes: { north: 3, south: 0, east: 1 } }, 'x');
    const north = draw.strata.find((s) => s.name === 'north');
    expect(north?.members).toEqual(drawSimpleRandom(STRATA.north, 3, 'x/north').members);
    expect(north?.frameDigest).toBe(drawSimpleRandom(STRATA.north, 3, 'x/north').frameDigest);
    expect(draw.n).toBe(4);
  });

  it('sums to n and accepts empty strata and an empty design', () => {
    for (const total of [0, 1, 5, 9, 10]) {
      const draw = drawStratified({ ...STRATA, west: [] }, { total }, 's');
      expect(draw.members).toHaveLength(total);
      expect(new Set(draw.members).size).toBe(total);
    }
    expect(drawStratified({}, { total: 0 }, 's').members).toEqual([]);
  });

  it('refuses overlapping strata, bad allocations and too large sizes', () => {
    expect(code(() => drawStratified({ a: ['1', '2'], b: ['2'] }, { total: 1 }, 's'))).toBe(
      'SAMPLE_STRATA_INVALID',
    );
    expect(code(() => drawStratified({ '': ['1'] }, { total: 1 }, 's'))).toBe(
      'SAMPLE_STRATA_INVALID',
    );
    expect(code(() => drawStratified(STRATA, { total: 11 }, 's'))).toBe(
      'SAMPLE_SIZE_EXCEEDS_FRAME',
    );
    const sizes = (s: Record<string, number>) => () => drawStratified(STRATA, { sizes: s }, 's');
    expect(code(sizes({ north: 1, south: 1 }))).toBe('SAMPLE_ALLOCATION_INVALID');
    expect(code(sizes({ north: 1, south: 1, east: 1, west: 0 }))).toBe('SAMPLE_ALLOCATION_INVALID');
    expect(code(sizes({ north: 1, south: 1, east: 2 }))).toBe('SAMPLE_SIZE_EXCEEDS_FRAME');
    expect(code(sizes({ north: -1, south: 1, east: 1 }))).toBe('SAMPLE_SIZE_INVALID');
    const both = { total: 1, sizes: {} } as unknown as { total: number };
    expect(code(() => drawStratified(STRATA, both, 's'))).toBe('SAMPLE_ALLOCATION_INVALID');
    expect(code(() => drawStratified(STRATA, { total: 1 }, ''))).toBe('SAMPLE_SEED_INVALID');
  });
});
