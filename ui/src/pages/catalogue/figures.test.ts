import { describe, expect, it } from 'vitest';
import { alphaBand, otherName, unitName, unitTree, type UnitRow } from './figures';

const unit = (id: string, code: number | string | null, parent: number | string | null): UnitRow => ({
  id,
  code,
  name_en: `Unit ${id}`,
  name_ar: `وحدة ${id}`,
  aliases: [],
  parent_code: parent,
  retired_seq: null,
});

describe('the statistics and catalogue figures', () => {
  it("reads alpha on Krippendorff's scale: no conclusion below 0.667, tentative to 0.800", () => {
    expect(alphaBand(0.5)).toBe('no-conclusion');
    expect(alphaBand(0.6669)).toBe('no-conclusion');
    expect(alphaBand(0.667)).toBe('tentative');
    expect(alphaBand(0.7999)).toBe('tentative');
    expect(alphaBand(0.8)).toBe('reliable');
    expect(alphaBand(null)).toBe('not-computable');
    expect(alphaBand(Number.NaN)).toBe('not-computable');
  });

  it('names a unit in the page language, the other name beside it', () => {
    const u = { name_en: 'Branch 215', name_ar: 'فرع ٢١٥' };
    expect(unitName(u, 'ar')).toBe('فرع ٢١٥');
    expect(otherName(u, 'ar')).toBe('Branch 215');
    expect(unitName(u, 'en')).toBe('Branch 215');
    expect(unitName({ name_en: 'Only English', name_ar: null }, 'ar')).toBe('Only English');
    expect(otherName({ name_en: 'Only English', name_ar: null }, 'en')).toBeNull();
  });

  it('builds the unit tree by parent code; an unknown parent or a cycle keeps the unit at the top', () => {
    const tree = unitTree([
      unit('c', 227, 200),
      unit('p', 200, null),
      unit('b', 215, 200),
      unit('orphan', 'X', 999),
      unit('l1', 'L1', 'L2'),
      unit('l2', 'L2', 'L1'),
    ]);
    const shape = (n: ReturnType<typeof unitTree>): unknown =>
      n.map((x) => [x.unit.id, shape(x.children)]);
    const top = tree.map((n) => n.unit.id);
    expect(top.slice(0, 2)).toEqual(['p', 'orphan']);
    expect(shape(tree.slice(0, 1))).toEqual([['p', [['b', []], ['c', []]]]]);
    // Every unit appears exactly once.
    const all: string[] = [];
    const walk = (n: ReturnType<typeof unitTree>): void => n.forEach((x) => (all.push(x.unit.id), walk(x.children)));
    walk(tree);
    expect(all.sort()).toEqual(['b', 'c', 'l1', 'l2', 'orphan', 'p']);
  });
});
