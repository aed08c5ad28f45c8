import { describe, expect, it } from 'vitest';
import { canonicalize, hasCode, type JsonValue } from '../core/index.js';
import type { LedgerEntry } from './entry.js';
import { draft, type DecisionDetails, type IngestionDetails } from './entry-details.js';
import { actionDetailsOf, detailsOf, type FieldSpec } from './entry-parse.js';

const ingestion: IngestionDetails = {
  delivery: 'D1',
  parent: null,
  member_index: null,
  path: '/in/a.jpg',
  path_raw_hex: null,
  path_encoding: 'utf-8',
  relative_path: 'a.jpg',
  name: 'a.jpg',
  size: 3,
  mtime: null,
  media_type: 'image/jpeg',
  flags: [],
};

function entry(type: LedgerEntry['type'], details: { [k: string]: JsonValue }): LedgerEntry {
  return { seq: 7, time: '2026-01-01T00:00:00.000Z', actor: 'a', type, items: ['i1'], objects: ['0'.repeat(64)], details };
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return hasCode(e, 'LEDGER_ENTRY_MALFORMED') ? 'LEDGER_ENTRY_MALFORMED' : String(e);
  }
  return undefined;
}

describe('detailsOf: typed details of an untrusted entry', () => {
  it('reads what a writer wrote, typed, and leaves the entry as it was', () => {
    const e = entry('ingestion', { ...ingestion });
    const before = canonicalize(e.details);
    const d = detailsOf(e, 'ingestion');
    expect(d.size).toBe(3);
    expect(d.parent).toBeNull();
    expect(d.flags).toEqual([]);
    expect(canonicalize(e.details)).toBe(before);
  });

  it('reads an absent string|null field as null, as entry-fields does', () => {
    const details: { [k: string]: JsonValue } = { ...ingestion };
    delete details.mtime;
    expect(detailsOf(entry('ingestion', details), 'ingestion').mtime).toBeNull();
  });

  it('refuses each badly typed or missing checked field with LEDGER_ENTRY_MALFORMED, naming it', () => {
    const cases: [string, JsonValue | undefined][] = [
      ['size', '3'],
      ['size', 1.5],
      ['size', undefined],
      ['media_type', 4],
      ['parent', 5],
      ['member_index', undefined],
      ['member_index', 'x'],
      ['path', null],
    ];
    for (const [k, v] of cases) {
      const details: { [k: string]: JsonValue } = { ...ingestion };
      if (v === undefined) delete details[k];
      else details[k] = v;
      expect(codeOf(() => detailsOf(entry('ingestion', details), 'ingestion')), `${k}=${JSON.stringify(v) ?? 'absent'}`).toBe('LEDGER_ENTRY_MALFORMED');
      try {
        detailsOf(entry('ingestion', details), 'ingestion');
      } catch (e) {
        expect((e as Error).message).toBe(`ingestion entry 7 lacks a valid details.${k}`);
      }
    }
  });

  it('refuses to read an entry as another type', () => {
    expect(codeOf(() => detailsOf(entry('decision', { ...ingestion }), 'ingestion'))).toBe('LEDGER_ENTRY_MALFORMED');
  });

  it('reads a cataloguing action', () => {
    const e = entry('cataloguing', { action: 'account.key.enrol', account: 'A1', key_id: 'k', public_key: 'p', replaces: null });
    const k = actionDetailsOf(e, 'account.key.enrol');
    expect([k.account, k.key_id, k.replaces]).toEqual(['A1', 'k', null]);
    expect(codeOf(() => actionDetailsOf(entry('cataloguing', { action: 'account.key.revoke', account: 'A1', key_id: 'k' }), 'account.key.revoke'))).toBe(
      'LEDGER_ENTRY_MALFORMED',
    );
  });
});

describe('tsc holds writers and readers to one shape', () => {
  it('these disagreements do not compile (checked by tsc --noEmit, which covers this file)', () => {
    // @ts-expect-error: the writers write parent as string | null; reading it as 'string' would refuse what they write
    const tooStrict: FieldSpec<IngestionDetails> = { parent: 'string' };
    // @ts-expect-error: no writer writes details.sizes
    const unknownField: FieldSpec<IngestionDetails> = { sizes: 'int' };
    // @ts-expect-error: size is a number
    const wrongType: FieldSpec<IngestionDetails> = { size: 'string' };
    // @ts-expect-error: a decision's details carry `decision`
    const missing: DecisionDetails = { subject: 'objects', note: null };
    // @ts-expect-error: a view's hour is a string
    const view = draft('dissemination', { action: 'view.original', hour: 13 }, { actor: 'a' });
    const d = detailsOf(entry('ingestion', { ...ingestion }), 'ingestion');
    // @ts-expect-error: not a field of an ingestion entry
    const nope: unknown = d.sizes;
    // A field the writers write but this reader does not check is plain JSON, for the reader to check.
    const flags: JsonValue | undefined = d.flags;
    expect([tooStrict, unknownField, wrongType, missing, view, nope, flags]).toHaveLength(7);
  });
});
