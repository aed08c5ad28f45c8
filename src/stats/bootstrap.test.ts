import { describe, expect, it } from 'vitest';
import { bootstrapUnits, quantileType7 } from './bootstrap.js';

describe('quantileType7 (Hyndman & Fan 1996, R default)', () => {
  it('matches R quantile(..., type = 7)', () => {
    // R: quantile(1:4, c(0, 0.25, 0.5, 0.975, 1)) -> 1.000 1.750 2.500 3.925 4.000
    expect([0, 0.25, 0.5, 0.975, 1].map((p) => quantileType7([1, 2, 3, 4], p))).toEqual([
      1, 1.75, 2.5, 3.925, 4,
    ]);
    expect(quantileType7([5], 0.025)).toBe(5);
  });
});

describe('bootstrapUnits', () => {
  const data = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9];
  const mean = (idx: readonly number[]): number =>
    idx.reduce((s, i) => s + (data[i] ?? 0), 0) / idx.length;

  it('is reproducible bit for bit and names its seed and generator', () => {
    const a = bootstrapUnits(data.length, mean);
    const b = bootstrapUnits(data.length, mean);
    expect(a).toEqual(b);
    expect(a.resamples).toBe(2000);
    expect(a.validResamples).toBe(2000);
    expect(a.seed).toBe('custody-bootstrap-v1');
    expect(a.prng).toContain('xoshiro128**');
    expect(a.lower!).toBeLessThan(5.1333);
    expect(a.upper!).toBeGreaterThan(5.1333);
    expect(bootstrapUnits(data.length, mean, { seed: 'other' })).not.toEqual(a);
  });

  it('drops undefined resamples and reports none when nothing is defined', () => {
    const some = bootstrapUnits(4, (idx) => (idx[0] === 0 ? null : 1), { resamples: 400 });
    expect(some.validResamples).toBeLessThan(400);
    expect(some.validResamples).toBeGreaterThan(200);
    const none = bootstrapUnits(3, () => null, { resamples: 10 });
    expect([none.lower, none.upper, none.validResamples]).toEqual([null, null, 0]);
    expect(bootstrapUnits(0, () => 1).lower).toBeNull();
  });
});
