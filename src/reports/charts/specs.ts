// Chart specs for reports, as data: each builder turns checked rows into a Vega-Lite spec and
// nothing else (no I/O, no Vega at run time; render.adapter.ts draws them). Everything that shapes
// the picture is fixed here so the same rows always give the same spec, and so the same SVG:
// explicit sizes, explicit axis domains in a stated order, one font stack, no ids, no randomness.
//
// The import below is type-only and erased at compile time (verbatimModuleSyntax), so this file
// never loads vega-lite; it only lets tsc check the specs against Vega-Lite's own schema types.
import type { TopLevelSpec } from 'vega-lite';
import {
  checkDeathsRows,
  checkPhotosPerDayRows,
  checkPrevalenceRows,
  firstAppearance,
  monthRange,
  quarterOf,
  yearOf,
  type DeathsByUnitMonthRow,
  type PhotosPerCameraDayRow,
  type PrevalenceRow,
} from './chart-rows.js';
import { ChartError } from './errors.js';

/** A complete Vega-Lite specification, ready for `renderSvg`. */
export type VegaLiteSpec = TopLevelSpec;

export interface ChartOptions {
  /** Shown above the chart and used as its accessible description. */
  title?: string;
}

/**
 * Fonts are named, never embedded or fetched. Noto Sans has no Arabic glyphs, so Noto Sans Arabic
 * follows it; DejaVu Sans covers both scripts where Noto is not installed.
 */
export const CHART_FONT_FAMILY = 'Noto Sans, Noto Sans Arabic, DejaVu Sans, sans-serif';

const PREVALENCE_WIDTH = 480;
const HEATMAP_WIDTH = 640;
/** Height per finding or per unit: the plot grows with its rows instead of squeezing labels. */
const ROW_STEP = 28;
const MIN_HEIGHT = 56;
const INK = '#1f4e79';

const PERCENT_TICKS = [0, 0.25, 0.5, 0.75, 1];

function plotHeight(rows: number): number {
  return Math.max(MIN_HEIGHT, rows * ROW_STEP);
}

/**
 * Shared look. `labelLimit: 0` turns off Vega's truncation of long labels (it would cut an Arabic
 * unit name and append "…"), and `labelOverlap: false` keeps every category label even when two
 * would touch: a name missing from the axis is worse than a crowded axis in an evidence report.
 */
function chartConfig(): NonNullable<TopLevelSpec['config']> {
  return {
    font: CHART_FONT_FAMILY,
    background: 'white',
    axis: { labelLimit: 0, labelFontSize: 11, titleFontSize: 11 },
    axisBand: { labelOverlap: false },
    title: { fontSize: 13, anchor: 'start' },
  };
}

function titleOf(opts: ChartOptions): Pick<TopLevelSpec, 'title'> {
  return opts.title === undefined ? {} : { title: { text: opts.title } };
}

/** 0.3079 -> "30.8%". toFixed is exact and locale-free, so the text never varies by machine. */
function formatPercent(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

function prevalenceValues(rows: readonly PrevalenceRow[]): Record<string, string | number>[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    // The axis shows the label with its sample size; two rows that would print the same text
    // could not be told apart on the chart, so they are refused rather than merged.
    const axisLabel = `${row.label} (n = ${row.n})`;
    if (seen.has(axisLabel)) {
      throw new ChartError('CHART_INVALID_INPUT', `two findings would both read "${axisLabel}"`);
    }
    seen.add(axisLabel);
    const estimate = `${formatPercent(row.proportion)} (${formatPercent(row.lower)}–${formatPercent(row.upper)})`;
    return {
      finding: row.finding,
      axisLabel,
      proportion: row.proportion,
      lower: row.lower,
      upper: row.upper,
      n: row.n,
      estimate,
      summary: `${axisLabel}: ${estimate}`,
    };
  });
}

/**
 * Prevalence per finding: a point at the estimate and an error bar (a rule with end ticks) from the
 * lower to the upper bound of the 95% interval, on a 0–100% axis, one row per finding in the order
 * given. The estimate and interval are also printed beside each bar.
 *
 * @example
 *   prevalenceChartSpec([
 *     { finding: 'burns', label: 'Burns', proportion: 0.308, lower: 0.255, upper: 0.366, n: 263 },
 *   ], { title: 'Findings in the examined sample' })
 */
export function prevalenceChartSpec(
  rows: readonly PrevalenceRow[],
  opts: ChartOptions = {},
): VegaLiteSpec {
  checkPrevalenceRows(rows);
  const values = prevalenceValues(rows);
  const percentAxis = {
    scale: { domain: [0, 1], nice: false, zero: true },
    axis: { format: '.0%', values: PERCENT_TICKS, title: 'Prevalence (95% CI)' },
  };
  return {
    description: opts.title ?? 'Prevalence of findings with 95% confidence intervals',
    ...titleOf(opts),
    width: PREVALENCE_WIDTH,
    height: plotHeight(rows.length),
    config: chartConfig(),
    data: { values },
    encoding: {
      y: {
        field: 'axisLabel',
        type: 'nominal',
        title: 'Finding',
        axis: { title: null },
        scale: { domain: values.map((v) => String(v['axisLabel'])) },
      },
      // What a screen reader says for each mark, instead of Vega-Lite's list of raw fields.
      description: { field: 'summary', type: 'nominal' },
    },
    layer: [
      {
        mark: { type: 'errorbar', ticks: true, color: INK },
        encoding: {
          x: { field: 'lower', type: 'quantitative', ...percentAxis },
          x2: { field: 'upper' },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 50, color: INK, opacity: 1 },
        encoding: { x: { field: 'proportion', type: 'quantitative', ...percentAxis } },
      },
      {
        mark: { type: 'text', align: 'left', baseline: 'middle', dx: 8, fontSize: 10 },
        encoding: {
          x: { field: 'upper', type: 'quantitative', ...percentAxis },
          text: { field: 'estimate', type: 'nominal' },
        },
      },
    ],
  };
}

/** More months than this are drawn as quarters (and more quarters than this as years). */
export const MAX_DEATH_BINS = 24;

/** The legend's words for a cell that counts subjects placed by their photograph's date. */
export const PHOTOGRAPH_DATE_LEGEND =
  '* includes subjects with no recorded date of death, counted in the month their photograph was taken';

const FALLBACK_INK = '#d95f02';

export type DeathBin = 'month' | 'quarter' | 'year';

/**
 * The columns of the deaths chart: every month from the earliest to the latest, or every quarter
 * when that is more than MAX_DEATH_BINS months (every year when still more than MAX_DEATH_BINS
 * quarters), so that five years of data stay legible.
 */
export function deathBins(months: readonly string[]): { bin: DeathBin; of: (m: string) => string; domain: string[] } {
  const range = monthRange(months);
  if (range.length <= MAX_DEATH_BINS) return { bin: 'month', of: (m) => m, domain: range };
  const quarters = firstAppearance(range.map(quarterOf));
  if (quarters.length <= MAX_DEATH_BINS) return { bin: 'quarter', of: quarterOf, domain: quarters };
  return { bin: 'year', of: yearOf, domain: firstAppearance(range.map(yearOf)) };
}

/**
 * Deaths by unit and month of death as a heatmap: one row per unit (in order of first appearance),
 * one column per calendar month from the earliest to the latest given (months without rows stay as
 * empty columns); over more than MAX_DEATH_BINS months, one column per quarter (then per year),
 * the rows summed. Every cell prints its count, so the colour only helps the eye. A pair with no
 * row is left blank, which is not the same as a recorded zero (drawn "0"). A cell that counts
 * subjects with no date of death, placed by their photograph's date, is outlined and starred, and
 * the legend under the plot says so.
 *
 * @example
 *   deathsByUnitMonthSpec([
 *     { unit: 'فرع فلسطين 235', month: '2013-01', count: 12 },
 *     { unit: 'Branch 215', month: '2013-03', count: 4, byPhotograph: 1 },
 *   ])
 */
export function deathsByUnitMonthSpec(
  rows: readonly DeathsByUnitMonthRow[],
  opts: ChartOptions = {},
): VegaLiteSpec {
  checkDeathsRows(rows);
  const bins = deathBins(rows.map((r) => r.month));
  const units = firstAppearance(rows.map((r) => r.unit));
  const cells = new Map<string, { unit: string; period: string; count: number; byPhotograph: number }>();
  for (const r of rows) {
    const period = bins.of(r.month);
    const key = JSON.stringify([r.unit, period]);
    const cell = cells.get(key) ?? { unit: r.unit, period, count: 0, byPhotograph: 0 };
    cell.count += r.count;
    cell.byPhotograph += r.byPhotograph ?? 0;
    cells.set(key, cell);
  }
  const max = [...cells.values()].reduce((m, r) => Math.max(m, r.count), 0);
  const noun = bins.bin === 'month' ? 'Month' : bins.bin === 'quarter' ? 'Quarter' : 'Year';
  const values = [...cells.values()].map((r) => ({
    unit: r.unit,
    period: r.period,
    count: r.count,
    label: r.byPhotograph > 0 ? `${r.count}*` : String(r.count),
    basis: r.byPhotograph > 0 ? PHOTOGRAPH_DATE_LEGEND : 'date of death',
    summary: `${r.unit}, ${r.period}: ${r.count} deaths${r.byPhotograph > 0 ? `, ${r.byPhotograph} of them dated by the photograph` : ''}`,
  }));
  const fallback = values.some((v) => v.basis === PHOTOGRAPH_DATE_LEGEND);
  return {
    description: opts.title ?? `Deaths by unit and ${noun.toLowerCase()} of death`,
    ...titleOf(opts),
    width: HEATMAP_WIDTH,
    height: plotHeight(units.length),
    config: chartConfig(),
    data: { values },
    encoding: {
      x: {
        field: 'period',
        type: 'ordinal',
        title: `${noun} of death`,
        scale: { domain: bins.domain },
        axis: { labelAngle: -45 },
      },
      y: { field: 'unit', type: 'nominal', title: 'Unit', scale: { domain: units } },
      description: { field: 'summary', type: 'nominal' },
    },
    layer: [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
        encoding: {
          color: {
            field: 'count',
            type: 'quantitative',
            title: 'Deaths',
            scale: { scheme: 'blues', domain: [0, Math.max(max, 1)] },
            legend: null,
          },
        },
      },
      ...(fallback
        ? [
            {
              transform: [{ filter: { field: 'basis', equal: PHOTOGRAPH_DATE_LEGEND } }],
              mark: { type: 'rect' as const, fillOpacity: 0, strokeWidth: 2 },
              encoding: {
                stroke: {
                  field: 'basis',
                  type: 'nominal' as const,
                  scale: { domain: [PHOTOGRAPH_DATE_LEGEND], range: [FALLBACK_INK] },
                  legend: { orient: 'bottom' as const, title: null, labelLimit: 0, symbolType: 'square' },
                },
              },
            },
          ]
        : []),
      {
        mark: { type: 'text', baseline: 'middle', fontSize: 9 },
        encoding: {
          text: { field: 'label', type: 'nominal' },
          color: {
            // White on the darkest cells, black elsewhere, so every count stays legible.
            condition: { test: { field: 'count', gt: max * 0.6 }, value: 'white' },
            value: 'black',
          },
        },
      },
    ],
  };
}

/** At most this many cameras get their own colour; Vega's category10 has ten distinct ones. */
const MAX_CAMERA_COLOURS = 10;

/**
 * Photographs per camera body per calendar day as stacked bars: one bar per day on a UTC time axis
 * (the EXIF days are literal dates, never shifted by a time zone), one colour per camera in the
 * order of first appearance, with a legend under the plot. The days come from DateTimeOriginal
 * as the camera wrote it; undated images are not drawn (the report says how many cameras and
 * images there are elsewhere).
 *
 * @example
 *   photosPerCameraPerDaySpec([
 *     { camera: 'Canon EOS 5D #0042', day: '2013-05-02', images: 31 },
 *     { camera: 'Nikon D90', day: '2013-05-03', images: 7 },
 *   ], { title: 'Photographs per camera per day' })
 */
export function photosPerCameraPerDaySpec(
  rows: readonly PhotosPerCameraDayRow[],
  opts: ChartOptions = {},
): VegaLiteSpec {
  checkPhotosPerDayRows(rows);
  const cameras = firstAppearance(rows.map((r) => r.camera));
  if (cameras.length > MAX_CAMERA_COLOURS) {
    throw new ChartError(
      'CHART_INVALID_INPUT',
      `${cameras.length} cameras: at most ${MAX_CAMERA_COLOURS} can be told apart by colour`,
    );
  }
  const values = rows.map((r) => ({
    camera: r.camera,
    day: r.day,
    images: r.images,
    // Stacks each day's segments in legend order (a nominal field has no order of its own).
    stackOrder: cameras.indexOf(r.camera),
    summary: `${r.camera}, ${r.day}: ${r.images} photographs`,
  }));
  return {
    description: opts.title ?? 'Photographs per camera per day',
    ...titleOf(opts),
    width: HEATMAP_WIDTH,
    height: 200,
    config: chartConfig(),
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      x: {
        field: 'day',
        type: 'temporal',
        timeUnit: 'utcyearmonthdate',
        title: 'Day (DateTimeOriginal)',
        axis: { format: '%Y-%m-%d', labelAngle: -45 },
      },
      y: { field: 'images', type: 'quantitative', aggregate: 'sum', title: 'Photographs' },
      color: {
        field: 'camera',
        type: 'nominal',
        title: 'Camera',
        scale: { domain: cameras, scheme: 'category10' },
        legend: { orient: 'bottom', columns: 1, labelLimit: 0 },
      },
      order: { field: 'stackOrder', type: 'quantitative' },
      description: { field: 'summary', type: 'nominal' },
    },
  };
}
