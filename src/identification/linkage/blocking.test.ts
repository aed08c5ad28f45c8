import { describe, expect, it } from 'vitest';
import { BLOCKING_RULES, PLAUSIBLE_YEAR_GAPS, candidatePairs, plausiblePair } from './blocking.js';
import { prepareRecord } from './fields.js';
import type { LinkRecord } from './types.js';

/** For each rule, two reports of one person that this rule pairs and no other rule does. */
const ONLY_THIS_RULE: Readonly<Record<string, readonly [LinkRecord, LinkRecord]>> = {
  'given+family': [
    { id: 'a', org: 'x', name_ar: 'أحمد', family: 'الحسن' },
    { id: 'b', org: 'y', name_latin: 'Al-Hassan Ahmed' },
  ],
  'given+father': [
    { id: 'a', org: 'x', name_ar: 'خالد', father: 'عمر' },
    { id: 'b', org: 'y', name_latin: 'Khalid', father: 'Umar' },
  ],
  'father+birth_year': [
    { id: 'a', org: 'x', name_ar: 'خاد', father: 'عمر', birth_year: 1980 },
    { id: 'b', org: 'y', name_latin: 'Khaled', father: 'Omar', birth_year: 1980 },
  ],
  'given+birth_year': [
    { id: 'a', org: 'x', name_ar: 'خالد', birth_year: 1980 },
    { id: 'b', org: 'y', name_latin: 'Khaled', birth_year: 1981 },
  ],
  'family+birth_year': [
    { id: 'a', org: 'x', name_ar: 'خاد', family: 'الخطيب', birth_year: 1980 },
    { id: 'b', org: 'y', name_latin: 'Khaled', family: 'Al-Khatib', birth_year: 1980 },
  ],
  'father+family': [
    { id: 'a', org: 'x', name_ar: 'خاد', father: 'عمر', family: 'الخطيب' },
    { id: 'b', org: 'y', name_latin: 'Khaled', father: 'Omar', family: 'Khatib' },
  ],
  'given+mother': [
    { id: 'a', org: 'x', name_ar: 'خالد', mother: 'فاطمة' },
    { id: 'b', org: 'y', name_latin: 'Khaled', mother: 'Fatmeh' },
  ],
  'given+origin': [
    { id: 'a', org: 'x', name_ar: 'خالد', origin: 'حماة' },
    { id: 'b', org: 'y', name_latin: 'Khaled', origin: 'Hama' },
  ],
  arrest_day: [
    { id: 'a', org: 'x', name_ar: 'خاد', arrest_date: '2012-03-14' },
    { id: 'b', org: 'y', name_latin: 'Khaled', arrest_date: '2012-03-14' },
  ],
  'given+arrest_month': [
    { id: 'a', org: 'x', name_ar: 'خالد', arrest_date: '2012-03-14' },
    { id: 'b', org: 'y', name_latin: 'Khaled', arrest_date: '2012-03' },
  ],
  'given+grandfather': [
    { id: 'a', org: 'x', name_ar: 'خالد عمر علي الخطيب', father: 'Omar' },
    { id: 'b', org: 'y', name_latin: 'Khaled', grandfather: 'Ali' },
  ],
  'origin+arrest_month': [
    { id: 'a', org: 'x', name_ar: 'خاد', origin: 'حماة', arrest_date: '2012-03-14' },
    { id: 'b', org: 'y', name_latin: 'Khaled', origin: 'Hama', arrest_date: '2012-03' },
  ],
  'arrest_place+arrest_month': [
    { id: 'a', org: 'x', name_ar: 'خاد', arrest_place: 'حماة', arrest_date: '2012-03-14' },
    { id: 'b', org: 'y', name_latin: 'Khaled', arrest_place: 'Hama', arrest_date: '2012-03' },
  ],
  'given+arrest_place': [
    { id: 'a', org: 'x', name_ar: 'خالد', arrest_place: 'حماة' },
    { id: 'b', org: 'y', name_latin: 'Khaled', arrest_place: 'Hama' },
  ],
  'mother+arrest_month': [
    { id: 'a', org: 'x', name_ar: 'خاد', mother: 'فاطمة', arrest_date: '2012-03-14' },
    { id: 'b', org: 'y', name_latin: 'Khaled', mother: 'Fatmeh', arrest_date: '2012-03' },
  ],
  'family+arrest_month': [
    { id: 'a', org: 'x', name_ar: 'خاد', family: 'الخطيب', arrest_date: '2012-03-14' },
    { id: 'b', org: 'y', name_latin: 'Khaled', family: 'Al-Khatib', arrest_date: '2012-03' },
  ],
  'family+origin': [
    { id: 'a', org: 'x', name_ar: 'خاد', family: 'الخطيب', origin: 'حماة' },
    { id: 'b', org: 'y', name_latin: 'Khaled', family: 'Al-Khatib', origin: 'Hama' },
  ],
  'father+origin': [
    { id: 'a', org: 'x', name_ar: 'خاد', father: 'عمر', origin: 'حماة' },
    { id: 'b', org: 'y', name_latin: 'Khaled', father: 'Omar', origin: 'Hama' },
  ],
};

const OPTS = { crossOrgOnly: false, maxBlockSize: 100 };

describe('blocking: one test per rule', () => {
  it('has an example for every rule', () => {
    expect(Object.keys(ONLY_THIS_RULE).sort()).toEqual(BLOCKING_RULES.map((r) => r.name).sort());
  });

  it.each(BLOCKING_RULES.map((rule) => [rule.name, rule] as const))(
    '%s finds a pair no other rule finds',
    (name, rule) => {
      const records = (ONLY_THIS_RULE[name] ?? []).map(prepareRecord);
      expect(candidatePairs(records, [rule], OPTS).pairs).toEqual([1]); // the pair (0, 1), coded 0·2 + 1
      const others = BLOCKING_RULES.filter((r) => r !== rule);
      expect(candidatePairs(records, others, OPTS).pairs).toEqual([]);
    },
  );

  it('skips a block larger than the limit and says so', () => {
    const records = Array.from({ length: 5 }, (_, i) =>
      prepareRecord({ id: `r${i}`, org: 'x', name_ar: 'محمد', family: 'الحسن' }),
    );
    const out = candidatePairs(records, BLOCKING_RULES.slice(0, 1), {
      crossOrgOnly: false,
      maxBlockSize: 4,
    });
    expect(out.pairs).toEqual([]);
    expect(out.oversized).toEqual([{ rule: 'given+family', key: 'hsn|mhmd', size: 5 }]);
  });
});

describe('blocking: only plausible pairs are compared', () => {
  const pair = (a: Partial<LinkRecord>, b: Partial<LinkRecord>): number[] => {
    const records = [
      { id: 'a', org: 'x', name_ar: 'خالد', family: 'الخطيب', ...a },
      { id: 'b', org: 'y', name_latin: 'Khaled Al-Khatib', ...b },
    ].map(prepareRecord);
    return [...candidatePairs(records, BLOCKING_RULES, OPTS).pairs];
  };

  it('compares two reports whose birth years are up to five years apart, not further', () => {
    expect(PLAUSIBLE_YEAR_GAPS.birthYear).toBe(5);
    expect(pair({ birth_year: 1980 }, { birth_year: 1985 })).toEqual([1]);
    expect(pair({ birth_year: 1980 }, { birth_year: 1986 })).toEqual([]);
    expect(pair({ birth_year: 1986 }, { birth_year: 1980 })).toEqual([]);
  });

  it('compares two reports whose arrest years are up to two years apart, not further', () => {
    expect(pair({ arrest_date: '2012-03-14' }, { arrest_date: '2014' })).toEqual([1]);
    expect(pair({ arrest_date: '2012-03-14' }, { arrest_date: '2015-03-14' })).toEqual([]);
  });

  it('reads the years as plausiblePair does', () => {
    const r = (birth_year?: number, arrest_date?: string) =>
      prepareRecord({ id: 'r', org: 'x', birth_year, arrest_date });
    expect(plausiblePair(r(1980), r(1975))).toBe(true);
    expect(plausiblePair(r(1980), r(1974))).toBe(false);
    expect(plausiblePair(r(undefined, '2011-05'), r(1950, '2013'))).toBe(true);
    expect(plausiblePair(r(undefined, '2011-05'), r(1950, '2014'))).toBe(false);
  });

  it('compares them when either report lacks the year', () => {
    expect(pair({ birth_year: 1980, arrest_date: '2012' }, {})).toEqual([1]);
    expect(pair({}, { birth_year: 1950, arrest_date: '2019' })).toEqual([1]);
  });

  it("applies a rule's own pair condition, and none when the rule has none", () => {
    const records = ONLY_THIS_RULE['given+family']?.map(prepareRecord) ?? [];
    const keyed = BLOCKING_RULES[0];
    expect(keyed?.name).toBe('given+family');
    if (keyed === undefined) return;
    expect(candidatePairs(records, [{ ...keyed, pairs: () => false }], OPTS).pairs).toEqual([]);
    expect(candidatePairs(records, [{ ...keyed, pairs: undefined }], OPTS).pairs).toEqual([1]);
  });
});
