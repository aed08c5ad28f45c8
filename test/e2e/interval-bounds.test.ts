// Issue 9, finding 11c: `interval --trials 1e9 --population 9e15` ran for minutes and was wrong
// past 10^13. The calculator now refuses counts past the range it computes exactly (exit 2,
// STATS_OUT_OF_RANGE) and answers at the bound itself; exactness at the bound is checked against
// BigInt arithmetic in src/stats/hypergeometric.test.ts.
import { describe, expect, it } from 'vitest';
import { custodyInExpect } from '../support/archive-fixtures.js';

describe('interval bounds (issue 9, 11c)', () => {
  it('refuses the reported input (10^9 of 9·10^15) at once with STATS_OUT_OF_RANGE', async () => {
    const r = await custodyInExpect(2, ['interval', '--successes', '3', '--trials', '1000000000', '--population', '9000000000000000', '--json']);
    expect(r.stderr).toContain('[STATS_OUT_OF_RANGE]');
    expect(r.stdout).toBe('');
  });

  it('refuses more than 10^9 trials, with or without a population', async () => {
    for (const extra of [[], ['--population', '100000000000']]) {
      const r = await custodyInExpect(2, ['interval', '--successes', '3', '--trials', '1000000001', ...extra]);
      expect(r.stderr).toContain('[STATS_OUT_OF_RANGE]');
    }
  });

  it('answers at the documented bounds: 10^9 trials from a population of 10^15', async () => {
    const r = await custodyInExpect(0, ['interval', '--successes', '500000000', '--trials', '1000000000', '--population', '1000000000000000', '--json']);
    const j = JSON.parse(r.stdout) as { population: { hypergeometric: { count_lower: number; count_upper: number } } };
    const { count_lower: lo, count_upper: hi } = j.population.hypergeometric;
    expect(lo).toBeLessThan(5e14);
    expect(hi).toBeGreaterThan(5e14);
    // 1.96 standard deviations of the estimate either side, to 0.1%.
    expect((hi - lo) / 2 / (1.96 * Math.sqrt(0.25 / 1e9) * 1e15)).toBeCloseTo(1, 3);
  });

  it('refuses a population one past 10^15; usage errors stay usage errors', async () => {
    const past = await custodyInExpect(2, ['interval', '--successes', '0', '--trials', '1', '--population', '1000000000000001']);
    expect(past.stderr).toContain('[STATS_OUT_OF_RANGE]');
    const bad = await custodyInExpect(2, ['interval', '--successes', '3', '--trials', '1e9']);
    expect(bad.stderr).toContain('[USAGE]');
  });
});
