import { describe, expect, it } from 'vitest';
import { syntheticReports } from '../../../bench/identification-linkage-corpus.js';
import {
  BLOCKING_RULES,
  LINK_FIELDS,
  birthYearLevel,
  clusterPairs,
  compareRecords,
  dateLevel,
  isSeedPair,
  linkRecords,
  parsePartialDate,
  prepareRecord,
  scoreUnseenPairs,
  LinkageError,
  type LinkRecord,
  type LinkageOptions,
} from './index.js';

/** Three reports of one man (two scripts, two organisations, family name first in one) and others. */
const SMALL: readonly LinkRecord[] = [
  {
    id: 'a1',
    org: 'org-a',
    name_ar: 'أحمد محمد الحسن',
    sex: 'male',
    birth_year: 1980,
    arrest_date: '2012-03-14',
    origin: 'حمص',
    unit: 'branch-215',
  },
  {
    id: 'b1',
    org: 'org-b',
    name_latin: 'Al-Hassan Ahmed',
    father: 'Mohamed',
    sex: 'male',
    birth_year: 1981,
    arrest_date: '2012-03',
    origin: 'Homs',
  },
  {
    id: 'c1',
    org: 'org-c',
    name_latin: 'Ahmad',
    father: 'Mhd',
    family: 'Al Hassan',
    birth_year: 1980,
    arrest_date: '2012-03-15',
    unit: 'branch-215',
  },
  {
    id: 'a2',
    org: 'org-a',
    name_ar: 'خالد عمر الخطيب',
    sex: 'male',
    birth_year: 1975,
    arrest_date: '2013-07-01',
    origin: 'درعا',
  },
  {
    id: 'b2',
    org: 'org-b',
    name_latin: 'Kaled Omar Al-Katib',
    sex: 'male',
    birth_year: 1990,
    arrest_date: '2014-01-20',
    origin: 'Aleppo',
  },
];

/** A smaller random sample than the default keeps the unit tests fast; the bench uses the default. */
const FAST: LinkageOptions = { uSampleSize: 5_000 };

function withPopulation(extra: readonly LinkRecord[]): LinkRecord[] {
  // EM needs a population to tell matches from non-matches: 300 synthetic reports around the small ones.
  return [...syntheticReports(200, 300, 'linkage-unit-v1').records, ...extra];
}

let base: ReturnType<typeof linkRecords> | undefined;
/** One linkage of the small population, shared by the tests that only read it. */
const baseResult = (): ReturnType<typeof linkRecords> =>
  (base ??= linkRecords(withPopulation(SMALL), FAST));

/** Linkage of 500 reports takes seconds, more on a loaded machine: no timing is asserted. */
const SLOW = 120_000;

describe('linkRecords', () => {
  it(
    'proposes the three reports of one man as one cluster, across scripts and part order',
    () => {
      const result = baseResult();
      const cluster = result.clusters.find((c) => c.includes('a1'));
      expect(cluster).toEqual(['a1', 'b1', 'c1']);
      expect(result.clusters.some((c) => c.includes('a2') && c.includes('b2'))).toBe(false);
      const pair = result.pairs.find((p) => p.a === 'a1' && p.b === 'c1');
      expect(pair?.agreements.given).toBe('normalised');
      expect(pair?.agreements.family).toBe('normalised');
      expect(pair?.agreements.sex).toBe('missing');
    },
    SLOW,
  );

  it(
    'gives each pair the Fellegi–Sunter weight of its agreements: log2(λ/(1−λ)) + Σ log2(m/u) + TF',
    () => {
      const result = baseResult();
      const prior = Math.log2(result.model.lambda / (1 - result.model.lambda));
      for (const pair of result.pairs.slice(0, 50)) {
        let weight = prior;
        for (const field of result.model.fields) {
          const level = field.levels.find((l) => l.level === pair.agreements[field.name]);
          expect(level).toBeDefined();
          weight +=
            Math.log2((level?.m ?? 1) / (level?.u ?? 1)) * (level?.level === 'missing' ? 0 : 1);
          // Term-frequency adjustment: log2(u/tf(v)), only where the names agree.
          weight += pair.tf_adjustments[field.name] ?? 0;
          if (pair.tf_adjustments[field.name] !== undefined) {
            expect(['exact', 'normalised']).toContain(level?.level);
          }
        }
        expect(pair.weight).toBeCloseTo(weight, 8);
        expect(pair.probability).toBeCloseTo(1 / (1 + 2 ** -weight), 8);
      }
    },
    SLOW,
  );

  it(
    'is deterministic: the same reports in another order give the same result',
    () => {
      const records = withPopulation(SMALL);
      const shuffled = [...records].reverse();
      shuffled.push(shuffled.shift() as LinkRecord);
      expect(linkRecords(shuffled, FAST)).toEqual(baseResult());
    },
    SLOW,
  );

  it(
    'compares only reports of different organisations when asked',
    () => {
      const result = linkRecords(withPopulation(SMALL), {
        ...FAST,
        crossOrgOnly: true,
        minPairProbability: 0,
      });
      const org = new Map(withPopulation(SMALL).map((r) => [r.id, r.org]));
      expect(result.pairs.length).toBeGreaterThan(0);
      for (const p of result.pairs) expect(org.get(p.a)).not.toBe(org.get(p.b));
    },
    SLOW,
  );

  it(
    'keeps every level index inside its field',
    () => {
      const records = withPopulation(SMALL).map(prepareRecord);
      for (let i = 0; i + 1 < records.length; i += 7) {
        const levels = compareRecords(records[i] as never, records[i + 1] as never);
        expect(levels).toHaveLength(LINK_FIELDS.length);
        levels.forEach((k, f) => expect(k).toBeLessThan(LINK_FIELDS[f]?.levels.length ?? 0));
      }
    },
    SLOW,
  );

  it(
    'reports its blocking rules and sorts pairs by weight',
    () => {
      const result = baseResult();
      expect(result.blocking.rules).toEqual(BLOCKING_RULES.map((r) => r.name));
      expect(result.blocking.candidate_pairs).toBeGreaterThanOrEqual(result.pairs.length);
      for (let i = 1; i < result.pairs.length; i++) {
        expect((result.pairs[i - 1]?.weight ?? 0) >= (result.pairs[i]?.weight ?? 0)).toBe(true);
      }
    },
    SLOW,
  );
});

describe('training', () => {
  it(
    'fits m per blocking rule on a population, and says which rules it used',
    () => {
      const { model } = baseResult();
      expect(model.training).toBe('per-rule');
      expect(model.rules.map((r) => r.rule)).toEqual(BLOCKING_RULES.map((r) => r.name));
      expect(model.rules.some((r) => r.accepted)).toBe(true);
      for (const r of model.rules) if (!r.accepted) expect(r.reason).toBeDefined();
    },
    SLOW,
  );

  it('falls back to one EM over all pairs when no rule has enough pairs to train on', () => {
    const { model, clusters } = linkRecords(SMALL, FAST);
    expect(model.training).toBe('global');
    expect(model.rules.every((r) => r.reason === 'too-few-pairs')).toBe(true);
    expect(clusters.find((c) => c.includes('a1'))).toContain('c1');
  });
});

describe('isSeedPair (the start of EM)', () => {
  const levels = (given: number, rest: Partial<Record<string, number>>): number[] =>
    LINK_FIELDS.map((f) => (f.name === 'given' ? given : (rest[f.name] ?? -1)));
  it.each([
    ['given and two supports', levels(1, { father: 0, birth_year: 1 }), true],
    ['given and one support', levels(0, { father: 0 }), false],
    ['no given name agreement', levels(3, { father: 0, family: 0, mother: 0 }), false],
    [
      'a date within a month counts, a year does not',
      levels(0, { family: 1, arrest_date: 3 }),
      false,
    ],
  ] as const)('%s', (_, v, seed) => expect(isSeedPair(v)).toBe(seed));
});

const expectCode = (f: () => unknown, field: string): void => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LinkageError);
    expect((e as LinkageError).code).toBe('LINKAGE_INVALID_INPUT');
    expect((e as LinkageError).details.field).toBe(field);
    return;
  }
  throw new Error('expected LINKAGE_INVALID_INPUT');
};

describe('linkRecords refuses what it cannot read', () => {
  const ok: LinkRecord = { id: 'x', org: 'o', name_ar: 'محمد' };
  it.each([
    ['a repeated id', [ok, { ...ok }], 'id'],
    ['an empty id', [{ ...ok, id: '' }], 'id'],
    ['a date that is not YYYY[-MM[-DD]]', [{ ...ok, arrest_date: '14/03/2012' }], 'arrest_date'],
    ['a day the month does not have', [{ ...ok, arrest_date: '2013-02-29' }], 'arrest_date'],
    ['a birth year that is no year', [{ ...ok, birth_year: 19.8 }], 'birth_year'],
    ['a sex other than male or female', [{ ...ok, sex: 'm' as never }], 'sex'],
  ] as const)('%s', (_, records, field) => expectCode(() => linkRecords(records), field));

  it('a source of u other than sample or em', () =>
    expectCode(() => linkRecords([ok], { estimateU: 'both' as never }), 'estimateU'));

  it('a training other than per-rule or global', () =>
    expectCode(() => linkRecords([ok], { training: 'splink' as never }), 'training'));

  it('a name handling other than normalised or plain', () =>
    expectCode(() => linkRecords([ok], { names: 'raw' as never }), 'names'));

  it('a threshold outside (0, 1)', () =>
    expectCode(() => linkRecords([ok], { threshold: 1 }), 'threshold'));

  it('a clustering other than consensus or connected', () =>
    expectCode(() => linkRecords([ok], { clustering: 'closure' as never }), 'clustering'));

  it.each([
    ['negative', -1],
    ['not a number', Number.NaN],
  ])('a sameOrganisationBits %s', (_, bits) =>
    expectCode(() => linkRecords([ok], { sameOrganisationBits: bits }), 'sameOrganisationBits'),
  );
});

/** Date comparisons: [a, b, level]. */
const DATE_CASES: readonly (readonly [string, string, string])[] = [
  ['2012-03-14', '2012-03-14', 'exact'],
  ['2012-03-14', '2012-03-15', 'near_day'],
  ['2012-03-14', '2012-04-14', 'near_day'],
  ['2012-03-14', '2013-03-14', 'near_day'],
  ['2012-03-14', '2012-03-20', 'same_month'],
  ['2012-03', '2012-03-20', 'same_month'],
  ['2012-03', '2012-04', 'near_month'],
  ['2012-03', '2013-03-14', 'near_month'],
  ['2012-03-14', '2012-04-20', 'near_month'],
  ['2012', '2012-03-20', 'year_only'],
  ['2012', '2012', 'year_only'],
  ['2012', '2013-03', 'year_only_near'],
  ['2012', '2011', 'year_only_near'],
  ['2012', '2014-03-14', 'different'],
  ['2012-03-14', '2012-09-14', 'same_year'],
  ['2012-03', '2012-09', 'same_year'],
  ['2012-03-14', '2013-09-14', 'different'],
  ['2012-03-14', '2014-03-14', 'different'],
];

describe('dateLevel: one test per case', () => {
  const levels = LINK_FIELDS.find((f) => f.name === 'arrest_date')?.levels ?? [];
  const rec = { id: 't', org: 'o' };
  it.each(DATE_CASES)('%s / %s → %s', (a, b, level) => {
    const [x, y] = [parsePartialDate(rec, a), parsePartialDate(rec, b)];
    expect(levels[dateLevel(x, y)]).toBe(level);
    expect(levels[dateLevel(y, x)]).toBe(level);
  });

  it('birth years: exact, one year, two or three years, different, missing', () => {
    expect([0, 1, 3, 4].map((d) => birthYearLevel(1980, 1980 + d))).toEqual([0, 1, 2, 3]);
    expect(birthYearLevel(undefined, 1980)).toBe(-1);
  });
});

describe('linkRecords clusters by consensus', () => {
  it(
    'its clusters are clusterPairs of every pair above the floor, whatever minPairProbability shows',
    () => {
      const records = syntheticReports(300, 500, 'linkage-consensus-v1').records;
      const shown = linkRecords(records, { ...FAST, minPairProbability: 0.5 });
      const all = linkRecords(records, { ...FAST, minPairProbability: 0 });
      expect(shown.pairs.length).toBeLessThan(all.pairs.length);
      expect(shown.clusters).toEqual(all.clusters);
      const orgOf = new Map(records.map((r) => [r.id, r.org]));
      const options = {
        threshold: 0.05,
        clustering: 'consensus',
        sameOrganisationBits: 4,
      } as const;
      // Pairs blocking did not propose are weighed when a merge needs them (scoreUnseenPairs):
      // the clusters are those of the pairs and that scorer, and differ here from the clusters
      // that count every such pair as FLOOR_WEIGHT.
      const unseen = scoreUnseenPairs(records, all.model, FAST);
      const byOrg = (id: string): string => orgOf.get(id) ?? '';
      expect(all.clusters).toEqual(clusterPairs(all.pairs, byOrg, options, unseen));
      expect(all.clusters).not.toEqual(clusterPairs(all.pairs, byOrg, options));
      // The scorer weighs a pair as linkRecords weighs a candidate.
      for (const p of all.pairs.slice(0, 200)) expect(unseen(p.a, p.b)).toBeCloseTo(p.weight, 9);
      // Connected clusters (the closure) are another partition of the same pairs.
      const closure = linkRecords(records, { ...FAST, clustering: 'connected' });
      expect(closure.pairs).toEqual(linkRecords(records, FAST).pairs);
      expect(closure.clusters).not.toEqual(all.clusters);
    },
    SLOW,
  );
});
