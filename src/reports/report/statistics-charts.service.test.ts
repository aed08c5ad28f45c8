// The statistics page's chart over plans whose findings sit at the ends of the scale: a finding
// absent in every sampled case (estimate 0) and one present in every case (estimate 1), with the
// stratified intervals the statistics compute for them. Their rounding once put the interval's
// bound a hair beyond the estimate, and the chart refused the row (CI on f174ffc).
import { describe, expect, it } from 'vitest';
import type { FindingStatistics } from '../../examination/statistics/index.js';
import { stratifiedProportion } from '../../stats/index.js';
import { STATISTICS_FIXTURE } from './report.fixture.js';
import { statisticsChartSvg } from './statistics-charts.service.js';

const base = STATISTICS_FIXTURE.findings[0] as FindingStatistics;

function stratifiedFinding(
  code: string,
  label: string,
  strata: { populationSize: number; sampled: number; positive: number }[],
): FindingStatistics {
  const e = stratifiedProportion(strata);
  return {
    ...base,
    code,
    label,
    present: e.positive,
    absent: e.sampled - e.positive,
    assessed: e.sampled,
    proportion: e.positive / e.sampled,
    stratified: {
      ...base.stratified!,
      estimate: e.proportion,
      interval: {
        method: e.wilsonEffective.method,
        lower: e.wilsonEffective.lower,
        upper: e.wilsonEffective.upper,
      },
    },
  };
}

describe('statisticsChartSvg', () => {
  it('draws findings absent in every sampled case and present in every case', async () => {
    const findings = [
      stratifiedFinding('fractures', 'Fractures', [
        { populationSize: 17, sampled: 14, positive: 0 },
      ]),
      stratifiedFinding('emaciation', 'Emaciation', [
        { populationSize: 22, sampled: 10, positive: 10 },
      ]),
    ];
    expect(findings.map((f) => f.stratified?.estimate)).toEqual([0, 1]);
    const svg = await statisticsChartSvg({ findings }, 'prevalence');
    expect(svg).toMatch(/^<\?xml/);
    expect(svg).toContain('Fractures');
    expect(svg).toContain('Emaciation');
  });
});
