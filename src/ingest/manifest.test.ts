import { describe, expect, it } from 'vitest';
import { hasCode } from '../core/errors.js';
import { checkManifest, parseSourceManifest } from './manifest.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);

describe('parseSourceManifest', () => {
  it('reads sha256sum output in text and binary mode, normalising paths', () => {
    const m = parseSourceManifest(`${A}  ./cam/IMG_0001.JPG\n${B.toUpperCase()} *cam\\IMG_0002.JPG\n`);
    expect(m.format).toBe('sha256sum');
    expect([...m.entries]).toEqual([
      ['cam/IMG_0001.JPG', A],
      ['cam/IMG_0002.JPG', B],
    ]);
  });

  it('reads a CSV with quoted fields and a BOM', () => {
    const m = parseSourceManifest(`\uFEFFFile,SHA256,Size\r\n"cam/a, b.jpg",${A},10\r\ncam/c.jpg,${C},3\r\n`);
    expect(m.format).toBe('csv');
    expect(m.entries.get('cam/a, b.jpg')).toBe(A);
    expect(m.entries.get('cam/c.jpg')).toBe(C);
  });

  it('rejects a CSV row with the wrong number of columns, naming the row', () => {
    expect(() => parseSourceManifest(`path,sha256\nx.jpg,${A},extra\n`)).toThrow(/row 2/);
    try {
      parseSourceManifest(`path,sha256\nx.jpg,nothex\n`);
    } catch (e) {
      expect(hasCode(e, 'MANIFEST_INVALID')).toBe(true);
    }
  });

  it('rejects text that is neither format, and an empty file', () => {
    expect(() => parseSourceManifest('hello world\n')).toThrow(/neither/);
    expect(() => parseSourceManifest('\n\n')).toThrow(/empty/);
    expect(() => parseSourceManifest(`${A}  ok.jpg\nbroken line\n`)).toThrow(/line 2/);
  });
});

describe('checkManifest', () => {
  it('reports matches, mismatches, missing and unlisted files', () => {
    const manifest = parseSourceManifest(`${A}  one.jpg\n${B}  two.jpg\n${C}  gone.jpg\n`);
    const received = new Map([
      ['one.jpg', A],
      ['two.jpg', C],
      ['extra.jpg', B],
    ]);
    const r = checkManifest(manifest, 'd'.repeat(64), received, []);
    expect(r.matched).toBe(1);
    expect(r.mismatched).toEqual([{ path: 'two.jpg', expected: B, received: C }]);
    expect(r.missing).toEqual(['gone.jpg']);
    expect(r.unlisted).toEqual(['extra.jpg']);
    expect(r.listed).toBe(3);
  });

  it('matches a manifest written one folder up (with the root folder name in front)', () => {
    const manifest = parseSourceManifest(`${A}  usb/one.jpg\n`);
    const r = checkManifest(manifest, 'd'.repeat(64), new Map([['one.jpg', A]]), ['usb']);
    expect(r.matched).toBe(1);
    expect(r.missing).toEqual([]);
  });
});
