import { describe, expect, it } from 'vitest';
import { breakdown, counts } from './counts.js';

describe('finding counts', () => {
  it('leaves "cannot assess" out of the denominator and reports it', () => {
    expect(counts(['present', 'absent', 'cannot_assess', 'present'])).toEqual({ present: 2, absent: 1, cannot_assess: 1, assessed: 3, proportion: 2 / 3 });
    expect(counts(['cannot_assess']).proportion).toBeNull();
  });

  it('groups by key in code-point order, with a label from the group', () => {
    const rows = [
      { unit: 'b', v: 'present' },
      { unit: 'a', v: 'absent' },
      { unit: 'b', v: 'absent' },
    ];
    expect(breakdown(rows, (r) => r.unit, (r) => r.unit.toUpperCase(), (r) => r.v)).toEqual([
      { key: 'a', label: 'A', present: 0, absent: 1, cannot_assess: 0, assessed: 1, proportion: 0 },
      { key: 'b', label: 'B', present: 1, absent: 1, cannot_assess: 0, assessed: 2, proportion: 0.5 },
    ]);
  });
});
