/**
 * Cell-by-cell comparison of a bag's table with the one derived from the ledger, with the
 * tolerances of ISSUE11-CONTRACT §2: numbers agree within 1e-9 relative
 * (|a-b| <= 1e-9 * max(1,|a|,|b|)); interval bounds found by root-finding (Clopper–Pearson,
 * hypergeometric) within 1e-6 absolute. Pure.
 */
import { parseCsv } from '../../../core/index.js';

export interface Difference {
  /** RFC 6901 JSON pointer into the document. */
  pointer: string;
  /** The bag's value (undefined: absent in the bag). */
  bag: unknown;
  /** The derived value (undefined: absent in the derivation). */
  derived: unknown;
}

export const RELATIVE_TOLERANCE = 1e-9;
export const ROOT_FINDING_TOLERANCE = 1e-6;

/** Escapes one reference token (RFC 6901 §3). */
export function pointerToken(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function joinPointer(base: string, key: string | number): string {
  return `${base}/${pointerToken(key)}`;
}

/** The reference tokens of a pointer, unescaped; undefined when it is not a pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens = pointer.slice(1).split('/');
  if (tokens.some((t) => /~[^01]|~$/.test(t))) return undefined;
  return tokens.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a pointer, or undefined. */
export function resolvePointer(doc: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  const tokens = parsePointer(pointer);
  if (tokens === undefined) return { found: false };
  let at: unknown = doc;
  for (const t of tokens) {
    if (Array.isArray(at)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t) || Number(t) >= at.length) return { found: false };
      at = at[Number(t)];
    } else if (typeof at === 'object' && at !== null && Object.prototype.hasOwnProperty.call(at, t)) {
      at = (at as Record<string, unknown>)[t];
    } else return { found: false };
  }
  return { found: true, value: at };
}

/** Interval bounds found by root-finding: Clopper–Pearson and the hypergeometric count interval. */
function rootFound(pointer: string): boolean {
  return /\/(clopper_pearson|count_interval)\/(lower|upper)$/.test(pointer);
}

export function numbersAgree(a: number, b: number, pointer = ''): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  if (rootFound(pointer)) return Math.abs(a - b) <= ROOT_FINDING_TOLERANCE;
  return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Every place where two JSON values differ, by pointer. Arrays of different lengths differ at each
 * index one side lacks; objects at each key one side lacks.
 *
 * @example
 *   compareJson({ a: 0.7 }, { a: 0.91 }) // [{ pointer: '/a', bag: 0.7, derived: 0.91 }]
 */
export function compareJson(bag: unknown, derived: unknown, pointer = ''): Difference[] {
  if (typeof bag === 'number' && typeof derived === 'number') return numbersAgree(bag, derived, pointer) ? [] : [{ pointer, bag, derived }];
  if (Array.isArray(bag) && Array.isArray(derived)) {
    const out: Difference[] = [];
    for (let i = 0; i < Math.max(bag.length, derived.length); i++) {
      if (i >= bag.length || i >= derived.length) out.push({ pointer: joinPointer(pointer, i), bag: bag[i], derived: derived[i] });
      else out.push(...compareJson(bag[i], derived[i], joinPointer(pointer, i)));
    }
    return out;
  }
  if (isObject(bag) && isObject(derived)) {
    const out: Difference[] = [];
    const keys = [...new Set([...Object.keys(derived), ...Object.keys(bag)])];
    for (const k of keys) {
      const inBag = Object.prototype.hasOwnProperty.call(bag, k);
      const inDerived = Object.prototype.hasOwnProperty.call(derived, k);
      if (!inBag || !inDerived) out.push({ pointer: joinPointer(pointer, k), bag: bag[k], derived: derived[k] });
      else out.push(...compareJson(bag[k], derived[k], joinPointer(pointer, k)));
    }
    return out;
  }
  return Object.is(bag, derived) || (bag === null && derived === null) ? [] : [{ pointer, bag, derived }];
}

/** The row (pointer of the object holding the cell) and column (the field) of a JSON difference. */
export function rowAndColumn(pointer: string): { row: string; column: string | null } {
  const cut = pointer.lastIndexOf('/');
  if (cut < 0) return { row: pointer, column: null };
  const tokens = parsePointer(pointer) ?? [];
  return { row: pointer.slice(0, cut), column: tokens.at(-1) ?? null };
}

export interface CellMismatch {
  /** The row's key (item id, subject id, sample/case/examiner). */
  row: string;
  /** The column; null when the row is on one side only. */
  column: string | null;
  bag: unknown;
  derived: unknown;
}

/**
 * Rows keyed by `key`, compared column by column. A row on one side only is one mismatch with
 * column null.
 */
export function compareRows(
  bagRows: readonly Record<string, unknown>[],
  derivedRows: readonly Record<string, unknown>[],
  key: (row: Record<string, unknown>) => string,
  columns: readonly string[],
): CellMismatch[] {
  const out: CellMismatch[] = [];
  const derivedByKey = new Map(derivedRows.map((r) => [key(r), r]));
  const bagKeys = new Set<string>();
  for (const b of bagRows) {
    const k = key(b);
    bagKeys.add(k);
    const d = derivedByKey.get(k);
    if (d === undefined) {
      out.push({ row: k, column: null, bag: b, derived: null });
      continue;
    }
    for (const c of columns) {
      if (compareJson(b[c], d[c]).length > 0) out.push({ row: k, column: c, bag: b[c] ?? null, derived: d[c] ?? null });
    }
  }
  for (const d of derivedRows) if (!bagKeys.has(key(d))) out.push({ row: key(d), column: null, bag: null, derived: d });
  return out;
}

/**
 * A CSV table against the cells of the derived rows (as the exporter writes them with
 * core/csv formatCsv): records keyed by the first `keyColumns` cells.
 */
export function compareCsv(bagText: string, derivedText: string, keyColumns: number): CellMismatch[] | string {
  let bag: string[][];
  let derived: string[][];
  try {
    bag = parseCsv(bagText).map((r) => r.cells);
    derived = parseCsv(derivedText).map((r) => r.cells);
  } catch (e) {
    return e instanceof Error ? e.message : 'not RFC 4180 CSV';
  }
  const [bagHeader = [], ...bagBody] = bag;
  const [header = [], ...body] = derived;
  if (bagHeader.join(',') !== header.join(',')) return `the header is ${bagHeader.join(',')}, not ${header.join(',')}`;
  const toRow = (cells: string[]) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
  const keyOf = (r: Record<string, unknown>) => header.slice(0, keyColumns).map((h) => String(r[h])).join('/');
  return compareRows(bagBody.map(toRow), body.map(toRow), keyOf, header.slice(keyColumns));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
