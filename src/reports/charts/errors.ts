import { CustodyError } from '../../core/index.js';

export type ChartErrorCode =
  /** Rows handed to a spec builder cannot describe a real chart (a proportion outside [0, 1], a
   *  month that is not YYYY-MM, a finding or unit/month pair listed twice, no rows at all). */
  | 'CHART_INVALID_INPUT'
  /** Vega-Lite or Vega rejected the spec, or logged a warning or error while compiling or
   *  rendering it (a dropped encoding would otherwise pass silently into a report). */
  | 'CHART_RENDER_FAILED'
  /** The spec asked Vega to fetch something (a data URL, an image). Charts render from inline
   *  values only: nothing is downloaded at run time. */
  | 'CHART_EXTERNAL_RESOURCE';

export class ChartError extends CustodyError<ChartErrorCode> {}
