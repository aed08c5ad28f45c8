import { describe, expect, it } from 'vitest';
import { compareCsv, compareJson, compareRows, numbersAgree, parsePointer, resolvePointer, rowAndColumn } from './compare.js';

describe('compareJson (the tolerances of ISSUE11-CONTRACT §2)', () => {
  it('finds a changed figure by its pointer, with both values', () => {
    expect(compareJson({ findings: [{ proportion: 0.7 }] }, { findings: [{ proportion: 0.91 }] })).toEqual([{ pointer: '/findings/0/proportion', bag: 0.7, derived: 0.91 }]);
  });

  it('lets numbers differ by 1e-9 relative and no more', () => {
    expect(numbersAgree(0.7, 0.7 + 0.7e-9)).toBe(true);
    expect(numbersAgree(0.7, 0.7 + 2e-9)).toBe(false);
    expect(numbersAgree(1e12, 1e12 + 900)).toBe(true);
    expect(numbersAgree(1e12, 1e12 + 2000)).toBe(false);
    expect(numbersAgree(0, 1e-10)).toBe(true); // max(1, …): absolute near zero
    expect(numbersAgree(Number.NaN, Number.NaN)).toBe(false);
  });

  it('lets bounds found by root-finding (Clopper–Pearson, hypergeometric) differ by 1e-6 absolute, not other intervals', () => {
    expect(compareJson({ clopper_pearson: { lower: 0.1 } }, { clopper_pearson: { lower: 0.1 + 5e-7 } })).toEqual([]);
    expect(compareJson({ count_interval: { upper: 40 } }, { count_interval: { upper: 40 + 5e-7 } })).toEqual([]);
    expect(compareJson({ clopper_pearson: { lower: 0.1 } }, { clopper_pearson: { lower: 0.1 + 2e-6 } })).toHaveLength(1);
    expect(compareJson({ wilson: { lower: 0.1 } }, { wilson: { lower: 0.1 + 5e-7 } })).toHaveLength(1);
  });

  it('reports keys and array elements that one side lacks, and type changes', () => {
    expect(compareJson({ a: 1, b: [1, 2] }, { a: 1, b: [1], c: null })).toEqual([
      { pointer: '/b/1', bag: 2, derived: undefined },
      { pointer: '/c', bag: undefined, derived: null },
    ]);
    expect(compareJson({ a: '1' }, { a: 1 })).toEqual([{ pointer: '/a', bag: '1', derived: 1 }]);
    expect(compareJson({ a: null }, { a: null })).toEqual([]);
  });

  it('escapes keys in pointers (RFC 6901) and resolves them back', () => {
    const doc = { 'a/b': { 'm~n': [10, 20] } };
    const [d] = compareJson(doc, { 'a/b': { 'm~n': [10, 21] } });
    expect(d?.pointer).toBe('/a~1b/m~0n/1');
    expect(resolvePointer(doc, d?.pointer ?? '')).toEqual({ found: true, value: 20 });
    expect(resolvePointer(doc, '/a~1b/m~0n/2')).toEqual({ found: false });
    expect(resolvePointer(doc, '/a~1b/m~0n/01')).toEqual({ found: false });
    expect(parsePointer('no-slash')).toBeUndefined();
    expect(parsePointer('/bad~2escape')).toBeUndefined();
    expect(rowAndColumn('/findings/0/stratified/estimate')).toEqual({ row: '/findings/0/stratified', column: 'estimate' });
  });
});

describe('compareRows and compareCsv', () => {
  const key = (r: Record<string, unknown>) => String(r.id);

  it('names the row and column of each differing cell, and rows on one side only with column null', () => {
    const bag = [{ id: 'a', size: 1, path: 'x' }, { id: 'b', size: 2, path: 'y' }, { id: 'planted', size: 3, path: 'z' }];
    const derived = [{ id: 'a', size: 1, path: 'x' }, { id: 'b', size: 5, path: 'y' }, { id: 'dropped', size: 4, path: 'w' }];
    expect(compareRows(bag, derived, key, ['size', 'path'])).toEqual([
      { row: 'b', column: 'size', bag: 2, derived: 5 },
      { row: 'planted', column: null, bag: bag[2], derived: null },
      { row: 'dropped', column: null, bag: null, derived: derived[2] },
    ]);
  });

  it('compares CSV cells keyed by the first columns, and refuses a changed header', () => {
    const derived = 'sample,case,examiner,emaciation\r\nS,c1,a,present\r\nS,c1,b,absent\r\n';
    expect(compareCsv(derived, derived, 3)).toEqual([]);
    expect(compareCsv(derived.replace('S,c1,b,absent', 'S,c1,b,present'), derived, 3)).toEqual([{ row: 'S/c1/b', column: 'emaciation', bag: 'present', derived: 'absent' }]);
    expect(compareCsv(derived.replace('emaciation', 'burns'), derived, 3)).toMatch(/header/);
  });
});
