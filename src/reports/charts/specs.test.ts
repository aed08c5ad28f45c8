import { describe, expect, it } from 'vitest';
import {
  MAX_MONTHS,
  monthRange,
  type DeathsByUnitMonthRow,
  type PrevalenceRow,
} from './chart-rows.js';
import { ChartError } from './errors.js';
import {
  CHART_FONT_FAMILY,
  deathBins,
  deathsByUnitMonthSpec,
  MAX_DEATH_BINS,
  PHOTOGRAPH_DATE_LEGEND,
  photosPerCameraPerDaySpec,
  prevalenceChartSpec,
} from './specs.js';

const FINDINGS: PrevalenceRow[] = [
  { finding: 'burns', label: 'Burns', proportion: 0.308, lower: 0.255, upper: 0.366, n: 263 },
  { finding: 'ribs', label: 'Rib fractures', proportion: 0.05, lower: 0.02, upper: 0.11, n: 263 },
];

const ARABIC_UNIT = 'فرع فلسطين 235';
const DEATHS: DeathsByUnitMonthRow[] = [
  { unit: ARABIC_UNIT, month: '2013-11', count: 12 },
  { unit: 'Branch 215', month: '2014-02', count: 4 },
  { unit: ARABIC_UNIT, month: '2014-01', count: 0 },
];

/** The code of the ChartError `f` throws (tests assert codes, not messages). */
function codeOf(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e instanceof ChartError ? e.code : e;
  }
  return 'nothing thrown';
}

/** The spec as plain JSON: no functions, no undefined, nothing JSON would lose. */
function roundTrip(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x));
}

describe('prevalenceChartSpec', () => {
  it('is plain JSON with a fixed size and font and the same output for the same rows', () => {
    const spec = prevalenceChartSpec(FINDINGS, { title: 'Findings' });
    expect(roundTrip(spec)).toEqual(spec);
    expect(JSON.stringify(prevalenceChartSpec(FINDINGS, { title: 'Findings' }))).toBe(
      JSON.stringify(spec),
    );
    expect(spec).toMatchObject({ width: 480, height: 56, config: { font: CHART_FONT_FAMILY } });
    expect(JSON.stringify(spec)).not.toMatch(/"url"/);
  });

  it('lists findings in the order given, labelled with their sample size', () => {
    const spec = prevalenceChartSpec(FINDINGS);
    expect(spec).toMatchObject({
      encoding: { y: { scale: { domain: ['Burns (n = 263)', 'Rib fractures (n = 263)'] } } },
    });
  });

  it('grows with the number of findings', () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ ...FINDINGS[0]!, finding: `f${i}` })).map(
      (r, i) => ({ ...r, label: `Finding ${i}` }),
    );
    expect(prevalenceChartSpec(many)).toMatchObject({ height: 280 });
  });

  it.each<[string, PrevalenceRow[]]>([
    ['no rows', []],
    ['a proportion above 1', [{ ...FINDINGS[0]!, proportion: 1.3, upper: 1.4 }]],
    ['an interval that misses the estimate', [{ ...FINDINGS[0]!, lower: 0.31 }]],
    ['NaN', [{ ...FINDINGS[0]!, upper: Number.NaN }]],
    ['n = 0', [{ ...FINDINGS[0]!, n: 0 }]],
    ['an empty label', [{ ...FINDINGS[0]!, label: ' ' }]],
    ['a finding twice', [FINDINGS[0]!, { ...FINDINGS[1]!, finding: 'burns' }]],
    ['two rows that would read the same', [FINDINGS[0]!, { ...FINDINGS[0]!, finding: 'burns-2' }]],
  ])('refuses %s with CHART_INVALID_INPUT', (_, rows) => {
    expect(codeOf(() => prevalenceChartSpec(rows))).toBe('CHART_INVALID_INPUT');
  });
});

describe('deathsByUnitMonthSpec', () => {
  it('keeps units in order of first appearance and fills every month in between', () => {
    const spec = deathsByUnitMonthSpec(DEATHS);
    expect(roundTrip(spec)).toEqual(spec);
    expect(spec).toMatchObject({
      width: 640,
      height: 56,
      config: { font: CHART_FONT_FAMILY },
      encoding: {
        x: { scale: { domain: ['2013-11', '2013-12', '2014-01', '2014-02'] } },
        y: { scale: { domain: [ARABIC_UNIT, 'Branch 215'] } },
      },
    });
    expect(JSON.stringify(deathsByUnitMonthSpec(DEATHS))).toBe(JSON.stringify(spec));
  });

  it.each<[string, DeathsByUnitMonthRow[]]>([
    ['no rows', []],
    ['a month 13', [{ unit: 'A', month: '2013-13', count: 1 }]],
    ['a full date', [{ unit: 'A', month: '2013-01-05', count: 1 }]],
    ['a negative count', [{ unit: 'A', month: '2013-01', count: -1 }]],
    ['a fractional count', [{ unit: 'A', month: '2013-01', count: 1.5 }]],
    ['a unit/month pair twice', [DEATHS[0]!, { ...DEATHS[0]!, count: 3 }]],
    [
      'a span longer than MAX_MONTHS',
      [
        { unit: 'A', month: '1013-01', count: 1 },
        { unit: 'A', month: '2013-01', count: 1 },
      ],
    ],
  ])('refuses %s with CHART_INVALID_INPUT', (_, rows) => {
    expect(codeOf(() => deathsByUnitMonthSpec(rows))).toBe('CHART_INVALID_INPUT');
  });
});

/** `months` consecutive months from January 2011, one row each for two units. */
function deathsOver(months: number): DeathsByUnitMonthRow[] {
  return Array.from({ length: months }, (_, m) => [
    {
      unit: ARABIC_UNIT,
      month: `${2011 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`,
      count: 1,
    },
    {
      unit: 'Branch 215',
      month: `${2011 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`,
      count: 2,
      byPhotograph: m === 0 ? 1 : 0,
    },
  ]).flat();
}

describe('deathsByUnitMonthSpec over five years', () => {
  it('draws 60 months as 20 quarters, each cell the sum of its three months', () => {
    const spec = deathsByUnitMonthSpec(deathsOver(60));
    const x = (spec as { encoding: { x: { scale: { domain: string[] }; title: string } } }).encoding.x;
    expect(x.scale.domain).toHaveLength(20);
    expect(x.scale.domain.slice(0, 5)).toEqual(['2011-Q1', '2011-Q2', '2011-Q3', '2011-Q4', '2012-Q1']);
    expect(x.scale.domain.at(-1)).toBe('2015-Q4');
    expect(x.title).toBe('Quarter of death');
    const values = (spec as { data: { values: { unit: string; period: string; count: number; label: string }[] } }).data.values;
    expect(values).toHaveLength(40);
    expect(values.find((v) => v.unit === ARABIC_UNIT && v.period === '2013-Q2')?.count).toBe(3);
    expect(values.find((v) => v.unit === 'Branch 215' && v.period === '2011-Q1')?.label).toBe('6*');
  });

  it('keeps months up to MAX_DEATH_BINS, and years where even quarters are too many', () => {
    expect(deathBins(deathsOver(MAX_DEATH_BINS).map((r) => r.month))).toMatchObject({ bin: 'month' });
    expect(deathBins(deathsOver(MAX_DEATH_BINS + 1).map((r) => r.month))).toMatchObject({ bin: 'quarter' });
    const years = deathBins(deathsOver(12 * 30).map((r) => r.month));
    expect([years.bin, years.domain.length]).toEqual(['year', 30]);
  });

  it('puts the photograph-date fallback in a legend only when a cell uses it', () => {
    const withFallback = JSON.stringify(deathsByUnitMonthSpec(deathsOver(3)));
    expect(withFallback).toContain(PHOTOGRAPH_DATE_LEGEND);
    const without = deathsOver(3).map((r) => ({ ...r, byPhotograph: 0 }));
    expect(JSON.stringify(deathsByUnitMonthSpec(without))).not.toContain(PHOTOGRAPH_DATE_LEGEND);
  });

  it('refuses more photograph-dated subjects than the cell counts', () => {
    expect(
      codeOf(() => deathsByUnitMonthSpec([{ unit: 'A', month: '2013-01', count: 1, byPhotograph: 2 }])),
    ).toBe('CHART_INVALID_INPUT');
  });
});

describe('monthRange', () => {
  it('crosses year ends and accepts a single month', () => {
    expect(monthRange(['2014-02', '2013-11'])).toEqual([
      '2013-11',
      '2013-12',
      '2014-01',
      '2014-02',
    ]);
    expect(monthRange(['2013-05'])).toEqual(['2013-05']);
    expect(monthRange([])).toEqual([]);
  });

  it('allows exactly MAX_MONTHS columns', () => {
    expect(monthRange(['2000-01', '2029-12'])).toHaveLength(MAX_MONTHS);
  });
});

describe('photosPerCameraPerDaySpec', () => {
  const PHOTOS = [
    { camera: 'Canon EOS 5D #0042', day: '2013-05-02', images: 31 },
    { camera: 'Nikon D90', day: '2013-05-02', images: 3 },
    { camera: 'Canon EOS 5D #0042', day: '2013-05-04', images: 7 },
  ];

  it('is plain JSON, cameras coloured in order of first appearance, days on a UTC axis', () => {
    const spec = photosPerCameraPerDaySpec(PHOTOS, { title: 'Per day' });
    expect(roundTrip(spec)).toEqual(spec);
    expect(photosPerCameraPerDaySpec(PHOTOS, { title: 'Per day' })).toEqual(spec);
    const enc = (
      roundTrip(spec) as {
        encoding: Record<string, { scale?: { domain?: unknown }; timeUnit?: string }>;
      }
    ).encoding;
    expect(enc['color']?.scale?.domain).toEqual(['Canon EOS 5D #0042', 'Nikon D90']);
    expect(enc['x']?.timeUnit).toBe('utcyearmonthdate');
    expect(JSON.stringify(spec)).toContain(CHART_FONT_FAMILY);
  });

  it.each([
    ['no rows', []],
    ['a day that does not exist', [{ camera: 'A', day: '2013-02-30', images: 1 }]],
    ['a month, not a day', [{ camera: 'A', day: '2013-02', images: 1 }]],
    ['zero photographs', [{ camera: 'A', day: '2013-02-01', images: 0 }]],
    ['an empty camera', [{ camera: ' ', day: '2013-02-01', images: 1 }]],
    [
      'a camera and day twice',
      [
        { camera: 'A', day: '2013-02-01', images: 1 },
        { camera: 'A', day: '2013-02-01', images: 2 },
      ],
    ],
    [
      'more cameras than colours',
      Array.from({ length: 11 }, (_, i) => ({ camera: `C${i}`, day: '2013-02-01', images: 1 })),
    ],
  ])('refuses %s with CHART_INVALID_INPUT', (_, rows) => {
    expect(codeOf(() => photosPerCameraPerDaySpec(rows))).toBe('CHART_INVALID_INPUT');
  });
});
