import { describe, expect, it } from 'vitest';
import { decodeTagText, encodingFromName, parseDeclaration, parseTagElements, splitLines, valuesOf } from './tag-text.js';

describe('parseDeclaration (RFC 8493 §2.1.1)', () => {
  const decl = (s: string | Uint8Array) => parseDeclaration(typeof s === 'string' ? Buffer.from(s) : s);

  it('reads version and encoding with LF, CRLF, CR and no final newline', () => {
    for (const nl of ['\n', '\r\n', '\r']) {
      const d = decl(`BagIt-Version: 1.0${nl}Tag-File-Character-Encoding: UTF-8${nl}`);
      expect(d).toEqual({ version: [1, 0], encodingName: 'UTF-8', problems: [] });
    }
    expect(decl('BagIt-Version: 0.97\r\nTag-File-Character-Encoding: UTF-8')).toMatchObject({ version: [0, 97] });
  });

  it('reports a BOM, stray whitespace and extra lines as problems but still reads the declaration', () => {
    const bom = Buffer.concat([Buffer.of(0xef, 0xbb, 0xbf), Buffer.from('BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n')]);
    expect(decl(bom)).toMatchObject({ version: [1, 0], problems: [expect.stringMatching(/byte-order mark/)] });
    expect(decl('BagIt-Version : 1.0\nTag-File-Character-Encoding: UTF-8\n')).toMatchObject({ problems: [expect.stringMatching(/separator/)] });
    expect(decl('BagIt-Version: 1.0 \nTag-File-Character-Encoding: UTF-8\n')).toMatchObject({ problems: [expect.stringMatching(/whitespace/)] });
    expect(decl('BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\nX: y\n')).toMatchObject({ problems: [expect.stringMatching(/lines after/)] });
  });

  it('cannot read a missing line, a malformed version or invalid UTF-8', () => {
    expect(decl('BagIt-Version: 0.97\n')).toMatch(/second line/);
    expect(decl('Tag-File-Character-Encoding: UTF-8\nBagIt-Version: 1.0\n')).toMatch(/first line/);
    expect(decl('BagIt-Version: .97\nTag-File-Character-Encoding: UTF-8\n')).toMatch(/M\.N/);
    expect(decl('BagIt-Version: 1.0.1\nTag-File-Character-Encoding: UTF-8\n')).toMatch(/M\.N/);
    expect(decl(Buffer.from([0x42, 0xff, 0x0a]))).toMatch(/UTF-8/);
  });
});

describe('tag file text', () => {
  it('decodes UTF-8, ISO-8859-1 and UTF-16 (either byte order, big-endian without a BOM)', () => {
    expect(decodeTagText(Buffer.from('Núñez'), 'utf-8')).toBe('Núñez');
    expect(decodeTagText(Buffer.from([0x4e, 0xfa]), 'latin1')).toBe('Nú');
    expect(decodeTagText(Buffer.from([0xfe, 0xff, 0x00, 0x41]), 'utf-16')).toBe('A');
    expect(decodeTagText(Buffer.from([0xff, 0xfe, 0x41, 0x00]), 'utf-16')).toBe('A');
    expect(decodeTagText(Buffer.from([0x00, 0x41]), 'utf-16')).toBe('A');
    expect(() => decodeTagText(Buffer.from([0xc3]), 'utf-8')).toThrow();
    expect(() => decodeTagText(Buffer.from([0x00]), 'utf-16')).toThrow(/odd/);
  });

  it('maps encoding names case-insensitively and refuses the unknown', () => {
    expect(encodingFromName('utf-8')).toBe('utf-8');
    expect(encodingFromName('ISO-8859-1')).toBe('latin1');
    expect(encodingFromName('UTF-16')).toBe('utf-16');
    expect(encodingFromName('EBCDIC')).toBeUndefined();
  });

  it('splits on LF, CRLF and CR alike', () => {
    expect(splitLines('a\r\nb\rc\nd')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitLines('')).toEqual([]);
  });
});

describe('parseTagElements (RFC 8493 §2.2.2)', () => {
  it('keeps repeated labels, joins continuation lines, tolerates spaces around the colon', () => {
    const { elements, badLines } = parseTagElements(
      'External-Description: Uncompressed TIFFs from the\r\n         Yoshimuri papers.\r\nTest-Tag : 3\r\nA: 1\r\na: 2',
    );
    expect(elements).toEqual([
      ['External-Description', 'Uncompressed TIFFs from the Yoshimuri papers.'],
      ['Test-Tag', '3'],
      ['A', '1'],
      ['a', '2'],
    ]);
    expect(badLines).toEqual([]);
    expect(valuesOf(elements, 'A')).toEqual(['1', '2']);
  });

  it('reports lines with no label', () => {
    expect(parseTagElements('no colon here\n: empty label\nOK: 1\n').badLines).toEqual([1, 2]);
  });
});
