// From a model to the finished HTML: draws the model's charts (Vega-Lite specs rendered to SVG
// by charts/render.adapter) and hands them to the pure renderer.
import {
  deathsByUnitMonthSpec,
  photosPerCameraPerDaySpec,
  prevalenceChartSpec,
  renderSvg,
} from '../charts/index.js';
import type { ReportModel } from './model.js';
import { renderReportHtml, type ChartSvgs } from './render-html.js';

export async function reportHtml(model: ReportModel): Promise<string> {
  const { perDay, deaths, prevalence } = model.charts;
  // One at a time: the chart renderer serialises renders anyway, and the order is then fixed.
  const charts: ChartSvgs = {
    perDay: perDay === null ? null : await renderSvg(photosPerCameraPerDaySpec(perDay)),
    deaths: deaths === null ? null : await renderSvg(deathsByUnitMonthSpec(deaths)),
    prevalence: prevalence === null ? null : await renderSvg(prevalenceChartSpec(prevalence)),
  };
  return renderReportHtml(model, charts);
}
