import { describe, expect, it } from 'vitest';
import { FootnoteRegistry, formatQuery, pointer, resolvePointer } from './footnotes.js';

describe('footnotes', () => {
  it('numbers in order of first citation and gives a repeated query its first number', () => {
    const r = new FootnoteRegistry();
    expect(r.cite(['custody', 'items', '--at', '9', '--json'], '/length', 4)).toBe(1);
    expect(r.cite(['custody', 'deliveries', '--at', '9', '--json'], '/0/items', 3)).toBe(2);
    expect(r.cite(['custody', 'items', '--at', '9', '--json'], '/length', 4)).toBe(1);
    expect(r.list().map((f) => f.n)).toEqual([1, 2]);
  });

  it('refuses one query cited with two different values', () => {
    const r = new FootnoteRegistry();
    r.cite(['custody', 'items'], '/length', 4);
    expect(() => r.cite(['custody', 'items'], '/length', 5)).toThrow(/two values/);
  });

  it('resolves RFC 6901 pointers, escapes included, and length of an array', () => {
    const doc = { 'a/b': { '~x': [10, 20] }, rows: [{ count: 3 }], length: 'a key' };
    expect(resolvePointer(doc, '/a~1b/~0x/1')).toBe(20);
    expect(resolvePointer(doc, '/a~1b/~0x/length')).toBe(2);
    expect(resolvePointer(doc, '/rows/0/count')).toBe(3);
    expect(resolvePointer(doc, '/length')).toBe('a key');
    expect(resolvePointer(doc, '')).toBe(doc);
    expect(pointer('a/b', '~x', 1)).toBe('/a~1b/~0x/1');
  });

  it('throws for a pointer that names nothing, instead of answering undefined', () => {
    expect(() => resolvePointer({ a: [1] }, '/a/1')).toThrow();
    expect(() => resolvePointer({ a: [1] }, '/a/01')).toThrow();
    expect(() => resolvePointer({ a: 1 }, '/b')).toThrow();
    expect(() => resolvePointer({ a: 1 }, 'a')).toThrow();
  });

  it('prints the query as a shell command a person can paste', () => {
    expect(
      formatQuery({ command: ['custody', 'items', '--at', '812', '--json'], pointer: '/length' }),
    ).toBe('custody items --at 812 --json | /length');
    expect(formatQuery({ command: ['custody', 'show', "it's; rm"], pointer: '/sha256' })).toBe(
      `custody show 'it'\\''s; rm' | /sha256`,
    );
  });
});
