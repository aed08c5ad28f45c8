// The charts of a plan's statistics as the web UI shows them: drawn by the same spec builder and
// renderer as the report's chart (report.service.ts), from the same rows (prevalence-rows.ts), so
// the page and the report cannot draw a plan's figures two different ways. No title in the SVG:
// the page names the chart and its checkpoint in its own language beside the image.
import { prevalenceChartSpec, renderSvgDocument } from '../charts/index.js';
import type { StatisticsReport } from '../../examination/statistics/index.js';
import { prevalenceRows } from './prevalence-rows.js';

/** The charts a plan's statistics can be drawn as. */
export const STATISTICS_CHARTS = ['prevalence'] as const;
export type StatisticsChart = (typeof STATISTICS_CHARTS)[number];

/**
 * The chart as a standalone SVG document (UTF-8, with its XML declaration), or null when the plan
 * has nothing to draw (no finding with an estimate yet).
 */
export async function statisticsChartSvg(
  s: Pick<StatisticsReport, 'findings'>,
  chart: StatisticsChart,
): Promise<string | null> {
  switch (chart) {
    case 'prevalence': {
      const rows = prevalenceRows(s);
      return rows.length === 0 ? null : renderSvgDocument(prevalenceChartSpec(rows));
    }
  }
}
