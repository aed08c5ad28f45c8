import { describe, expect, it } from 'vitest';
import { agreementReport } from './agreement.js';
import { KRIPPENDORFF_2011_C } from './krippendorff.fixture.js';

describe('agreementReport', () => {
  it('nominal, rotating coders: alpha only, with a bootstrap interval pinned bit for bit', () => {
    const r = agreementReport(KRIPPENDORFF_2011_C, 'nominal');
    expect(r.coefficients.map((c) => c.name)).toEqual(['krippendorff_alpha']);
    expect(r.notApplicable.map((c) => c.name)).toEqual(['fleiss_kappa', 'cohen_kappa']);
    const [alpha] = r.coefficients;
    expect(alpha?.value?.toFixed(3)).toBe('0.743');
    // xoshiro128** seeded with SHA-256('custody-bootstrap-v1'), 2,000 resamples of the 11
    // pairable units: any change to the generator, the draw order or the quantile rule shows here.
    expect(alpha?.interval.lower).toBe(0.42352834598590405);
    expect(alpha?.interval.upper).toBe(1);
    expect(alpha?.interval.validResamples).toBe(2000);
    expect([r.units, r.coders, r.pairableUnits, r.pairableValues]).toEqual([12, 4, 11, 40]);
  });

  it('two coders, every unit rated, nominal: all three coefficients', () => {
    const m = [
      ['a', 'a'],
      ['a', 'b'],
      ['b', 'b'],
      ['c', 'c'],
      ['b', 'b'],
      ['a', 'a'],
    ];
    const r = agreementReport(m, 'nominal', { resamples: 500 });
    expect(r.coefficients.map((c) => c.name)).toEqual([
      'krippendorff_alpha',
      'fleiss_kappa',
      'cohen_kappa',
    ]);
    for (const c of r.coefficients) {
      expect(c.interval.resamples).toBe(500);
      expect(c.interval.lower!).toBeLessThanOrEqual(c.value!);
      expect(c.interval.upper!).toBeGreaterThanOrEqual(c.value!);
    }
    expect(r.notApplicable).toEqual([]);
  });

  it('kappas need the nominal level', () => {
    const r = agreementReport(
      [
        [1, 2],
        [2, 2],
        [3, 3],
      ],
      'interval',
      { resamples: 50 },
    );
    expect(r.coefficients.map((c) => c.name)).toEqual(['krippendorff_alpha']);
    expect(r.notApplicable[0]?.reason).toContain('nominal');
  });

  it('include.alpha false: the same report without alpha, the kappas bit for bit the same', () => {
    const matrix = [
      ['a', 'a'],
      ['b', 'b'],
      ['a', 'b'],
      ['b', 'b'],
      ['a', 'a'],
      ['b', 'a'],
    ];
    const full = agreementReport(matrix, 'nominal', { resamples: 200 });
    const kappas = agreementReport(matrix, 'nominal', { resamples: 200 }, { alpha: false });
    expect(full.coefficients.map((c) => c.name)).toEqual([
      'krippendorff_alpha',
      'fleiss_kappa',
      'cohen_kappa',
    ]);
    expect(kappas).toEqual({ ...full, coefficients: full.coefficients.slice(1) });
  });
});
