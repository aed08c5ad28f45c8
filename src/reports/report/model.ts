// The report as data: what the builder (build-model.ts) makes from what was gathered, and all the
// HTML renderer reads. A small document tree (sections of paragraphs, tables and charts) in which
// every number is a cell or an inline run that names its footnote. Plain JSON, no classes, so a
// model can be printed, compared or rendered by something else.
import type {
  DeathsByUnitMonthRow,
  PhotosPerCameraDayRow,
  PrevalenceRow,
} from '../charts/index.js';
import type { Footnote } from './footnotes.js';

export type ReportTemplate = 'tribunal' | 'summary';
export const REPORT_TEMPLATES: readonly ReportTemplate[] = ['tribunal', 'summary'];

/**
 * A run of text. `note` is the footnote that reproduces it; `mono` for digests and commands;
 * `format: 'percent'` when a cited proportion is printed as a percentage, `'fixed'` when a
 * non-integer is printed rounded (toFixed); the footnote holds the exact value.
 */
export interface Run {
  readonly text: string;
  readonly note?: number;
  readonly mono?: boolean;
  readonly format?: 'percent' | 'fixed';
  readonly strong?: boolean;
  /** A value from the archive printed in a sentence (a number as read, a unit's name): a bidi isolate of its own. */
  readonly isolate?: boolean;
}

export type Inline = string | Run;

/** A table cell: one run, or several printed together. */
export type Cell = Inline | readonly Inline[];

export interface Table {
  readonly kind: 'table';
  readonly caption: string;
  readonly head: readonly string[];
  /** Per column: numbers are right-aligned. */
  readonly numeric: readonly boolean[];
  readonly rows: readonly (readonly Cell[])[];
  /** Said instead of the table when it has no rows. */
  readonly empty: string;
}

export type ChartName = 'perDay' | 'deaths' | 'prevalence';

export type Block =
  | {
      readonly kind: 'p';
      readonly parts: readonly Inline[];
      /** 'content-warning': on a page of its own in print, before the first image. */
      readonly style?: 'note' | 'warning' | 'content-warning';
      /** A statement about the run rather than the checkpoint (it may differ between two runs). */
      readonly volatile?: 'verification';
    }
  | { readonly kind: 'list'; readonly items: readonly (readonly Inline[])[] }
  | { readonly kind: 'pre'; readonly text: string }
  | Table
  | {
      readonly kind: 'chart';
      readonly chart: ChartName;
      readonly caption: string;
      readonly note: number;
    }
  | {
      readonly kind: 'image';
      /** A data: URI of a thumbnail; only ever present with --include-images. */
      readonly src: string;
      readonly alt: string;
      readonly caption: readonly Inline[];
    }
  | { readonly kind: 'h3'; readonly text: string };

export interface Section {
  /** Anchor id: lower-case ASCII. */
  readonly id: string;
  readonly title: string;
  readonly blocks: readonly Block[];
}

export interface ReportModel {
  readonly template: ReportTemplate;
  readonly title: string;
  readonly subtitle: string;
  /** The one line that differs between two runs at the same checkpoint. */
  readonly generated: { readonly at: string; readonly codeVersion: string };
  readonly checkpointSize: number;
  /** `report --bag DIR`: the bag, as given; footnotes with a `bag` place are printed with commands on it. */
  readonly bagDir?: string;
  readonly sections: readonly Section[];
  readonly footnotes: readonly Footnote[];
  /** Chart rows, drawn by the service (charts/render.adapter) and handed to the renderer as SVG. */
  readonly charts: {
    readonly perDay: readonly PhotosPerCameraDayRow[] | null;
    readonly deaths: readonly DeathsByUnitMonthRow[] | null;
    readonly prevalence: readonly PrevalenceRow[] | null;
  };
}
