import { describe, expect, it } from 'vitest';
import { hasCode } from '../core/index.js';
import { checkManifest, displayName, itemRawName, parseSourceManifest, rawName, unescapeSha256sum } from './manifest.js';

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

// Issue 9, finding 6: names are compared as bytes, and sha256sum's escaping is decoded.
describe('manifests compare raw bytes', () => {
  // Two windows-1256 names (Arabic letters) that are not UTF-8: both decode to "\uFFFD\uFFFD.jpg".
  const n1 = Buffer.from([0xe1, 0xe3, 0x2e, 0x6a, 0x70, 0x67]);
  const n2 = Buffer.from([0xc8, 0xca, 0x2e, 0x6a, 0x70, 0x67]);
  const line = (sha: string, name: Buffer): Buffer => Buffer.concat([Buffer.from(`${sha}  `), name, Buffer.from('\n')]);

  it('keeps two non-UTF-8 names that decode alike as two entries', () => {
    expect(new TextDecoder().decode(n1)).toBe(new TextDecoder().decode(n2));
    const m = parseSourceManifest(Buffer.concat([line(A, n1), line(B, n2)]));
    expect(m.entries.size).toBe(2);
    expect(m.entries.get(rawName(n1))).toBe(A);
    expect(m.entries.get(rawName(n2))).toBe(B);
  });

  it('a substituted file under the second name is a mismatch, not "1 matched"', () => {
    const m = parseSourceManifest(Buffer.concat([line(A, n1), line(B, n2)]));
    const r = checkManifest(m, 'd'.repeat(64), new Map([[rawName(n1), A], [rawName(n2), C]]), []);
    expect(r.listed).toBe(2);
    expect(r.matched).toBe(1);
    expect(r.mismatched).toEqual([{ path: displayName(rawName(n2)), expected: B, received: C }]);
    expect(r.mismatched[0]?.path).toContain('[bytes c8ca2e6a7067]');
  });

  it('refuses a name listed twice with different digests', () => {
    try {
      parseSourceManifest(Buffer.concat([line(A, n1), line(B, n1)]));
      expect.unreachable();
    } catch (e) {
      expect(hasCode(e, 'MANIFEST_INVALID')).toBe(true);
    }
  });

  it('decodes escaped sha256sum names per coreutils: \\\\, \\n and \\r', () => {
    // What GNU sha256sum 9.1 prints for files named "c<LF>d", "e\\f" and "a<CR>b".
    const m = parseSourceManifest(`\\${A}  c\\nd\n\\${B}  e\\\\f\n\\${C} *a\\rb\n${A}  plain.jpg\n`);
    expect([...m.entries.keys()].sort()).toEqual(['a\rb', 'c\nd', 'e\\f', 'plain.jpg'].sort());
    expect(m.entries.get('e\\f')).toBe(B);
    expect(unescapeSha256sum('x\\ty')).toBeNull();
    expect(unescapeSha256sum('trailing\\')).toBeNull();
    expect(() => parseSourceManifest(`\\${A}  bad\\qescape\n`)).toThrow(/line 1/);
  });

  it("recovers an earlier run's raw relative name from the index's raw path", () => {
    const abs = Buffer.concat([Buffer.from('/media/usb/DCIM/'), n1]);
    expect(itemRawName('DCIM/\uFFFD\uFFFD.jpg', abs.toString('hex'))).toBe(rawName(Buffer.concat([Buffer.from('DCIM/'), n1])));
    expect(itemRawName('DCIM/é.jpg', null)).toBe(rawName(Buffer.from('DCIM/é.jpg')));
  });
});
