import { describe, expect, it } from 'vitest';
import { hasCode } from '../../core/index.js';
import { ballSize, checkPlan, flipMasks, planSubstrings } from './plan.js';

describe('planSubstrings', () => {
  it.each([0, 1, 5, 10, 20, 31, 40, 64, 100])(
    'satisfies the pigeonhole bound at threshold %i',
    (threshold) => {
      for (const [queries, entries] of [
        [1e3, 8e3],
        [1e5, 8e5],
        [1e6, 8e6],
      ] as const) {
        const plan = planSubstrings(queries, entries, threshold);
        expect(() => checkPlan(plan, threshold)).not.toThrow();
      }
    },
  );

  it('needs one substring at threshold 0 and about eleven at 31 for a million hashes', () => {
    const exact = planSubstrings(1e6, 8e6, 0);
    expect(exact).toHaveLength(1);
    expect(exact[0]).toMatchObject({ radius: 0 });
    expect(exact[0]!.length).toBeGreaterThanOrEqual(20);
    const plan = planSubstrings(1e6, 8e6, 31);
    expect(plan.length).toBeGreaterThanOrEqual(10);
    expect(plan.length).toBeLessThanOrEqual(12);
    expect(plan.every((s) => s.length >= 20 && s.radius <= 2)).toBe(true);
  });

  it('falls back to brute force when there is almost nothing to search', () => {
    expect(planSubstrings(3, 24, 31)).toEqual([{ start: 0, length: 0, radius: 0 }]);
    expect(planSubstrings(1e3, 8e3, 256)).toEqual([{ start: 0, length: 0, radius: 0 }]);
  });

  it('rejects plans that overlap or miss the bound', () => {
    const code = (f: () => void): boolean => {
      try {
        f();
        return false;
      } catch (e) {
        return hasCode(e, 'NEAR_DUP_BAD_PLAN');
      }
    };
    expect(
      code(() =>
        checkPlan(
          [
            { start: 0, length: 16, radius: 1 },
            { start: 8, length: 16, radius: 1 },
          ],
          3,
        ),
      ),
    ).toBe(true);
    expect(code(() => checkPlan([{ start: 0, length: 16, radius: 1 }], 2))).toBe(true);
    expect(code(() => checkPlan([{ start: 250, length: 16, radius: 1 }], 1))).toBe(true);
  });
});

describe('flipMasks', () => {
  it('lists each mask of weight ≤ t once, lightest first', () => {
    const { masks, upTo } = flipMasks(12, 3);
    expect(masks.length).toBe(ballSize(12, 3));
    expect(new Set(masks).size).toBe(masks.length);
    const weight = (m: number): number => m.toString(2).split('1').length - 1;
    expect([...masks].every((m, i) => i === 0 || weight(m) >= weight(masks[i - 1]!))).toBe(true);
    expect([...upTo]).toEqual([1, 13, 79, 299]);
    expect(flipMasks(0, 2).masks).toEqual(Int32Array.of(0));
  });
});
