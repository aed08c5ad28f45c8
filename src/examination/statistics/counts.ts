import type { BreakdownRow, FindingCounts } from './types.js';

/** present / absent / cannot assess; cannot assess is left out of the denominator. */
export function counts(values: readonly string[]): FindingCounts {
  const present = values.filter((v) => v === 'present').length;
  const absent = values.filter((v) => v === 'absent').length;
  const assessed = present + absent;
  return { present, absent, cannot_assess: values.length - assessed, assessed, proportion: assessed === 0 ? null : present / assessed };
}

/** Counts per group, groups in code-point order of their key. */
export function breakdown<T>(rows: readonly T[], key: (r: T) => string, label: (r: T) => string | null, value: (r: T) => string): BreakdownRow[] {
  const groups = new Map<string, T[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return [...groups.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => {
      const members = groups.get(k) ?? [];
      return { key: k, label: members[0] === undefined ? null : label(members[0]), ...counts(members.map(value)) };
    });
}
