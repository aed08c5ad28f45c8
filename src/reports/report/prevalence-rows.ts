// The rows of a plan's prevalence chart: one per finding that has an estimate, drawn at the figure
// the findings table states (the weighted estimate of a stratified plan, else the proportion) with
// the interval the table states beside it (headlineInterval). The report's chart and the web UI's
// statistics chart (statistics-charts.service.ts) are both drawn from these rows, so the two can
// never show different figures for the same plan at the same checkpoint.
import type { StatisticsReport } from '../../examination/statistics/index.js';
import type { PrevalenceRow } from '../charts/index.js';
import { headlineInterval } from './statistics-population.js';

/** Findings without an estimate (nothing assessed, no interval) are left out, not drawn at 0. */
export function prevalenceRows(s: Pick<StatisticsReport, 'findings'>): PrevalenceRow[] {
  return s.findings.flatMap((f, i): PrevalenceRow[] => {
    const h = headlineInterval(f, i);
    const p = f.stratified?.estimate ?? f.proportion;
    return h === null || p === null || f.assessed < 1
      ? []
      : [
          {
            finding: f.code,
            label: f.label,
            proportion: p,
            lower: h.interval.lower,
            upper: h.interval.upper,
            n: f.assessed,
          },
        ];
  });
}
