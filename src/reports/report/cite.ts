// Helpers the section builders share: a citing context bound to one checkpoint, and small
// constructors for table cells. Every cited run prints exactly what its footnote's command prints
// (numbers as plain digits, no grouping), or says it is a percentage of the cited proportion.
import type { Cited } from './footnotes.js';
import { FootnoteRegistry } from './footnotes.js';

/** Where a query's value sits in the bag (`<bag path>#<pointer>`), or null. */
export type BagLocator = (command: readonly string[], pointer: string) => string | null;
import type { Run, Table } from './model.js';

export class CiteContext {
  readonly notes: FootnoteRegistry;
  /**
   * @param bagOf with `report --bag`: where a cited value sits in the bag (bag.ts), e.g.
   *   `custody stats NAME --at N --json | /findings/0/present` →
   *   `data/tables/statistics-<id>.json#/findings/0/present`; null where the bag does not hold it.
   */
  constructor(
    readonly size: number,
    bagOf: BagLocator = () => null,
  ) {
    this.notes = new FootnoteRegistry(bagOf);
  }

  /** `custody <args…> --at N --json`. */
  at(...args: string[]): string[] {
    return ['custody', ...args, '--at', String(this.size), '--json'];
  }

  /** A cited value printed as is. */
  value(
    command: readonly string[],
    ptr: string,
    value: string | number | boolean,
    note: string | null = null,
  ): Run {
    return { text: String(value), note: this.notes.cite(command, ptr, value, note) };
  }

  /** A cited digest or other machine string, in monospace. */
  mono(command: readonly string[], ptr: string, value: string): Run {
    return { text: value, mono: true, note: this.notes.cite(command, ptr, value) };
  }

  /** A cited proportion printed as a percentage with one decimal. */
  percent(command: readonly string[], ptr: string, value: number): Run {
    return {
      text: formatPercent(value),
      format: 'percent',
      note: this.notes.cite(command, ptr, value),
    };
  }

  /** A cited proportion printed as a percentage, with a note beside the query. */
  percentNote(command: readonly string[], ptr: string, value: number, note: string): Run {
    return {
      text: formatPercent(value),
      format: 'percent',
      note: this.notes.cite(command, ptr, value, note),
    };
  }

  /** A cited non-integer printed rounded to `digits` decimals (the footnote keeps it exact). */
  fixed(command: readonly string[], ptr: string, value: number, digits: number): Run {
    if (Number.isInteger(value)) return this.value(command, ptr, value);
    return {
      text: value.toFixed(digits),
      format: 'fixed',
      note: this.notes.cite(command, ptr, value),
    };
  }

  /** A footnote for a whole value (a chart's data): its number. */
  whole(command: readonly string[], ptr: string, value: unknown): number {
    return this.notes.cite(command, ptr, JSON.parse(JSON.stringify(value)) as Cited);
  }
}

/** 0.6213 -> "62.1%"; toFixed is exact and locale-free. */
export function formatPercent(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

export function table(
  caption: string,
  columns: readonly (readonly [string, 'text' | 'number'])[],
  rows: Table['rows'],
  empty: string,
): Table {
  return {
    kind: 'table',
    caption,
    head: columns.map(([h]) => h),
    numeric: columns.map(([, k]) => k === 'number'),
    rows,
    empty,
  };
}
