// The `analysis_inputs` mark (db/schema.ts, MarksTable) that the near-duplicate and indicator
// caches are keyed on: moved by every entry that writes what they read, and by no other.
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../core/index.js';
import { ANALYSIS_INPUT_TABLES, ANALYSIS_INPUTS_MARK } from '../db/index.js';
import type { LedgerEntry } from './entry.js';
import { MemoryIndex, projectEntry } from './projection.js';

const SHA = 'ab'.repeat(32);
const T = '2026-01-01T00:00:00.000Z';

function entry(
  seq: number,
  type: LedgerEntry['type'],
  details: { [k: string]: JsonValue },
  refs: { items?: string[]; objects?: string[] } = {},
): LedgerEntry {
  return {
    seq,
    time: T,
    actor: 'a',
    type,
    items: refs.items ?? [],
    objects: refs.objects ?? [],
    details,
  };
}

const INGESTION = {
  size: 3,
  media_type: 'image/jpeg',
  delivery: 'D1',
  parent: null,
  member_index: null,
  path: '/in/a.jpg',
  path_raw_hex: null,
  path_encoding: 'utf-8',
  relative_path: 'a.jpg',
  name: 'a.jpg',
  mtime: null,
  flags: [],
};

/** A small ledger: each entry with whether it changes what the analysis caches read. */
const LEDGER: [LedgerEntry, boolean][] = [
  [entry(0, 'creation', {}), false],
  [
    entry(1, 'ingestion start', {
      delivery: 'D1',
      source: 'LARK',
      received_by: null,
      medium: null,
      note: null,
      roots: [],
    }),
    true,
  ],
  [entry(2, 'ingestion', INGESTION, { items: ['I1'], objects: [SHA] }), true],
  [entry(3, 'ingestion end', { delivery: 'D1' }), true],
  [
    entry(
      4,
      'metadata extraction',
      { analyzer: 'custody-image/3', pdq: { hash: 'f'.repeat(64) } },
      { objects: [SHA] },
    ),
    true,
  ],
  [
    entry(
      5,
      'decision',
      { subject: 'pair', decision: 'different', note: null },
      { objects: [SHA, 'cd'.repeat(32)] },
    ),
    false,
  ],
  [
    entry(
      6,
      'dissemination',
      { action: 'view.original', hour: '2026-01-01T00' },
      { items: ['I1'], objects: [SHA] },
    ),
    false,
  ],
  [entry(7, 'fixity check', {}), false],
  [
    entry(8, 'withdrawal', { reason: 'consent withdrawn', authority: 'court' }, { objects: [SHA] }),
    true,
  ],
  [
    entry(
      9,
      'decision',
      { subject: 'pair', decision: 'same-image', note: 'n' },
      { objects: [SHA, 'cd'.repeat(32)] },
    ),
    false,
  ],
  [entry(10, 'deletion', {}, { objects: [SHA] }), true],
  [
    entry(11, 'ingestion start', {
      delivery: 'D1',
      continued: true,
      source: 'LARK',
      received_by: null,
      medium: null,
      note: null,
    }),
    false,
  ],
];

const markOf = (index: MemoryIndex): unknown => index.table('marks').get(ANALYSIS_INPUTS_MARK)?.seq;

describe('the analysis_inputs mark', () => {
  it('is the seq of the last entry that wrote an analysis, object, item, delivery or withdrawal', () => {
    const index = new MemoryIndex();
    let expected: number | undefined;
    for (const [e, moves] of LEDGER) {
      const mutations = projectEntry(e, '00');
      index.apply(mutations);
      if (moves) expected = e.seq;
      expect(markOf(index), `after entry ${e.seq} (${e.type})`).toBe(expected);
      // Moved exactly when the entry writes a table the caches read.
      expect(mutations.some((m) => m.table === 'marks')).toBe(
        mutations.some((m) => ANALYSIS_INPUT_TABLES.has(m.table)),
      );
    }
    expect(expected).toBe(10);
  });
});
