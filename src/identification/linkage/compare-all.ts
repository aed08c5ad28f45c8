// The comparison vectors of many pairs at once: the bulk of linkage's time (20,000 reports: 1.6 M
// candidate pairs, a dozen fields each). Pure, so that worker threads can compute slices of it
// (parallel-link.adapter.ts) and the main thread the whole: the same bytes either way.
import { MISSING_CELL } from './training.js';
import {
  LINK_FIELDS,
  MISSING,
  compareRecords,
  prepareRecordAs,
  type PreparedRecord,
} from './fields.js';
import type { LinkRecord } from './types.js';
import type { NameHandling } from '../names/index.js';

/**
 * One row of LINK_FIELDS.length level indexes per pair (MISSING_CELL for missing). A pair is
 * [i, j] or a code i·n + j, indexes into `records`.
 */
export function compareAll(
  records: readonly PreparedRecord[],
  pairs: readonly (readonly [number, number])[] | ArrayLike<number>,
): Uint8Array {
  const width = LINK_FIELDS.length;
  const n = records.length;
  const out = new Uint8Array(pairs.length * width);
  for (let row = 0; row < pairs.length; row++) {
    const p = pairs[row] as number | readonly [number, number];
    const [i, j] = typeof p === 'number' ? [Math.floor(p / n), p % n] : p;
    const levels = compareRecords(records[i] as PreparedRecord, records[j] as PreparedRecord);
    for (let f = 0; f < width; f++) {
      const k = levels[f] ?? MISSING;
      out[row * width + f] = k === MISSING ? MISSING_CELL : k;
    }
  }
  return out;
}

/**
 * compareAll on a worker thread: the records as given (already in the plan's order, planLinkage's
 * `input`), prepared again there, and a slice of the pair codes.
 */
export function compareSlice(
  input: readonly LinkRecord[],
  handling: NameHandling,
  codes: ArrayLike<number>,
): Uint8Array {
  return compareAll(
    input.map((r) => prepareRecordAs(r, handling)),
    codes,
  );
}
