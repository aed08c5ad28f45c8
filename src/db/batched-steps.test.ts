import { describe, expect, it } from 'vitest';
import { batchedSteps } from './archive-index.repository.js';
import type { Mutation } from './schema.js';

const entry = (seq: number): Mutation => ({ op: 'insert', table: 'ledger_entries', row: { seq, type: 'decision', time: 't', actor: 'a', leaf_hash: 'h' } });
const decision = (seq: number): Mutation => ({ op: 'insert', table: 'decisions', row: { seq, subject: 's', objects_json: '[]', decision: 'd', note: null, actor: 'a', time: 't' } });

describe('batchedSteps', () => {
  it('a group commit of decisions is one multi-row insert per table, rows in ledger order', () => {
    const m: Mutation[] = [];
    for (let seq = 1; seq <= 20; seq++) m.push(entry(seq), decision(seq));
    const steps = batchedSteps(m);
    expect(steps.map((s) => [s.op, s.table])).toEqual([
      ['insertMany', 'ledger_entries'],
      ['insertMany', 'decisions'],
    ]);
    expect(steps.map((s) => ('rows' in s ? s.rows.map((r) => r.seq) : []))).toEqual([
      Array.from({ length: 20 }, (_, i) => i + 1),
      Array.from({ length: 20 }, (_, i) => i + 1),
    ]);
  });

  it("keeps each table's mutations in order: an update or delete ends a run, different columns start another", () => {
    const m: Mutation[] = [
      { op: 'insert', table: 'objects', row: { sha256: 'a', size: 1 } },
      { op: 'insert', table: 'objects', row: { sha256: 'b', size: 2 } },
      { op: 'update', table: 'objects', key: 'a', set: { size: 3 } },
      { op: 'insert', table: 'objects', row: { sha256: 'c', size: 4 } },
      { op: 'insertIfAbsent', table: 'objects', row: { sha256: 'c', size: 5 } },
      { op: 'insertIfAbsent', table: 'objects', row: { sha256: 'd', size: 6 } },
      { op: 'insert', table: 'objects', row: { sha256: 'e', size: 7, media_type: 'x' } },
      { op: 'delete', table: 'objects', key: 'e' },
    ];
    expect(batchedSteps(m).map((s) => [s.op, 'rows' in s ? s.rows.length : 1])).toEqual([
      ['insertMany', 2],
      ['update', 1],
      ['insert', 1],
      ['insertManyIfAbsent', 2],
      ['insert', 1],
      ['delete', 1],
    ]);
  });

  it('splits a long run so that no insert carries more than 10,000 values', () => {
    const m: Mutation[] = [];
    for (let seq = 0; seq < 5000; seq++) m.push(entry(seq)); // 5 columns each
    const steps = batchedSteps(m);
    expect(steps.map((s) => ('rows' in s ? s.rows.length : 1))).toEqual([2000, 2000, 1000]);
  });

  it('an upsert the next one of its table overwrites whole is left out: a batch moves the analysis mark once', () => {
    const mark = (seq: number): Mutation => ({ op: 'upsert', table: 'marks', row: { name: 'analysis_inputs', seq } });
    const m: Mutation[] = [];
    for (let seq = 1; seq <= 5; seq++) m.push(entry(seq), mark(seq));
    const marks = batchedSteps(m).filter((s) => s.table === 'marks');
    expect(marks).toEqual([mark(5)]);
    // Kept where it is not overwritten whole: another key, other columns, or another write between.
    const kept: Mutation[] = [
      mark(1),
      { op: 'upsert', table: 'marks', row: { name: 'other', seq: 2 } },
      { op: 'upsert', table: 'marks', row: { name: 'other', seq: 3, extra: 1 } },
      { op: 'update', table: 'marks', key: 'other', set: { seq: 4 } },
      { op: 'upsert', table: 'marks', row: { name: 'other', seq: 5, extra: 1 } },
    ];
    expect(batchedSteps(kept)).toEqual(kept);
  });
});
