// The public surface of reports/charts: pure Vega-Lite spec builders for the report's charts, and
// the adapter that renders any such spec to SVG on the server.
export { ChartError, type ChartErrorCode } from './errors.js';
export {
  MAX_MONTHS,
  type DeathsByUnitMonthRow,
  type PhotosPerCameraDayRow,
  type PrevalenceRow,
} from './chart-rows.js';
export {
  CHART_FONT_FAMILY,
  deathBins,
  deathsByUnitMonthSpec,
  MAX_DEATH_BINS,
  PHOTOGRAPH_DATE_LEGEND,
  type DeathBin,
  photosPerCameraPerDaySpec,
  prevalenceChartSpec,
  type ChartOptions,
  type VegaLiteSpec,
} from './specs.js';
export { SVG_XML_DECLARATION, renderSvg, renderSvgDocument } from './render.adapter.js';
