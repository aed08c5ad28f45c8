import { describe, expect, it } from 'vitest';
import {
  ARABIC_KEY_LETTERS,
  ARABIC_KEY_RULES,
  LATIN_KEY_RULES,
  KEY_TABLES,
  SKELETON_RULES,
  nameKey,
  type KeyRule,
  type KeyTables,
} from './name-key.js';

const rowsOf = (table: readonly KeyRule[]) => table.map((row) => [row.rule, row] as const);

/** The tables less one row. */
function without(row: KeyRule): KeyTables {
  return {
    latin: KEY_TABLES.latin.filter((r) => r !== row),
    arabic: KEY_TABLES.arabic.filter((r) => r !== row),
    skeleton: KEY_TABLES.skeleton.filter((r) => r !== row),
  };
}

/** True when every group shares a key and every distinct pair does not, under `tables`. */
function rowHolds(row: KeyRule, tables: KeyTables): boolean {
  const groupsHold = row.same.every((g) => new Set(g.map((n) => nameKey(n, tables))).size === 1);
  const pairsHold = (row.distinct ?? []).every(
    ([a, b]) => nameKey(a, tables) !== nameKey(b, tables),
  );
  return groupsHold && pairsHold;
}

function expectRow(row: KeyRule): void {
  // The row is needed: without it, one of its own examples fails.
  expect(rowHolds(row, without(row))).toBe(false);
  for (const group of row.same) {
    const keys = group.map((name) => [name, nameKey(name)] as const);
    const first = keys[0]?.[1];
    expect(first).not.toBe('');
    for (const [name, key] of keys) expect({ name, key }).toEqual({ name, key: first });
  }
  for (const [a, b] of row.distinct ?? []) expect(nameKey(a)).not.toBe(nameKey(b));
}

describe('nameKey: one test per Latin rule', () => {
  it.each(rowsOf(LATIN_KEY_RULES))('%s', (_, row) => expectRow(row));
});

describe('nameKey: one test per Arabic rule', () => {
  it.each(rowsOf(ARABIC_KEY_RULES))('%s', (_, row) => expectRow(row));
});

describe('nameKey: one test per skeleton rule', () => {
  it.each(rowsOf(SKELETON_RULES))('%s', (_, row) => expectRow(row));
});

describe('nameKey: one test per Arabic letter', () => {
  it.each(ARABIC_KEY_LETTERS.map((row) => [row.letter, row.key, row] as const))(
    '%s keys as "%s" and meets its Latin spelling',
    (letter, key, row) => {
      const [arabic, latin] = row.same;
      expect(arabic).toContain(letter);
      expect(nameKey(arabic ?? '')).toBe(nameKey(latin ?? ''));
      // The letter's own key shows in the skeleton unless it is a vowel or seat.
      if (!['a', "'", 'w', 'y'].includes(key)) expect(nameKey(arabic ?? '')).toContain(key);
    },
  );
});

describe('nameKey', () => {
  it('keeps kh (خ) apart from k (ك, ق) in both scripts', () => {
    for (const [a, b] of [
      ['Khaled', 'Kaled'],
      ['Khaled', 'Qaled'],
      ['خالد', 'كالد'],
      ['خالد', 'قالد'],
      ['Xalid', 'Kalid'],
    ] as const) {
      expect(nameKey(a)).not.toBe(nameKey(b));
    }
  });

  it('keys every part of a full name in order, across scripts', () => {
    expect(nameKey('Abdul Rahman bin Mohammed Al Hassan')).toBe(
      nameKey('عبد الرحمن بن محمد الحسن'),
    );
    expect(nameKey('Abdul Rahman bin Mohammed Al Hassan')).toBe('bdrhmn mhmd hsn');
  });
});
