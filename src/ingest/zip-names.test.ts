import { describe, expect, it } from 'vitest';
import { unicodePathExtra } from '../../test/support/make-zips.js';
import {
  decodeCp437,
  decodeZipName,
  describeHostilePath,
  guessLegacyEncoding,
} from './zip-names.js';

/** "تقرير.pdf" (report) in windows-1256, written out by hand from the code page chart. */
const ARABIC_1256 = Uint8Array.of(0xca, 0xde, 0xd1, 0xed, 0xd1, 0x2e, 0x70, 0x64, 0x66);
/** "شهادة/صورة.jpg" (testimony/picture) in windows-1256. */
const ARABIC_1256_DIR = Uint8Array.of(
  0xd4,
  0xe5,
  0xc7,
  0xcf,
  0xc9,
  0x2f,
  0xd5,
  0xe6,
  0xd1,
  0xc9,
  0x2e,
  0x6a,
  0x70,
  0x67,
);
/** "Müller.txt" in CP437: a lone 0x81, which windows-1256 would read as the Arabic letter "پ". */
const MUELLER_437 = Uint8Array.of(0x4d, 0x81, 0x6c, 0x6c, 0x65, 0x72, 0x2e, 0x74, 0x78, 0x74);
/** "Größe ½.doc" in CP437. */
const GROESSE_437 = Uint8Array.of(0x47, 0x72, 0x94, 0xe1, 0x65, 0x20, 0xab, 0x2e, 0x64, 0x6f, 0x63);

describe('decodeZipName', () => {
  it('reads UTF-8 when general-purpose bit 11 is set', () => {
    const raw = Buffer.from('شهادة.txt', 'utf8');
    expect(decodeZipName(raw, 0x800)).toMatchObject({ path: 'شهادة.txt', encoding: 'utf8' });
  });

  it('reads valid UTF-8 without the flag as UTF-8', () => {
    expect(decodeZipName(Buffer.from('Zeugenaussage-ü.pdf', 'utf8'), 0)).toMatchObject({
      path: 'Zeugenaussage-ü.pdf',
      encoding: 'utf8',
    });
  });

  it('recognises Arabic names written in windows-1256', () => {
    expect(decodeZipName(ARABIC_1256, 0)).toMatchObject({
      path: 'تقرير.pdf',
      encoding: 'windows-1256',
    });
    expect(decodeZipName(ARABIC_1256_DIR, 0)).toMatchObject({
      path: 'شهادة/صورة.jpg',
      encoding: 'windows-1256',
    });
  });

  it('falls back to CP437 for Western names, even when a byte is Arabic in windows-1256', () => {
    expect(decodeZipName(MUELLER_437, 0)).toMatchObject({ path: 'Müller.txt', encoding: 'cp437' });
    expect(decodeZipName(GROESSE_437, 0)).toMatchObject({ path: 'Größe ½.doc', encoding: 'cp437' });
    expect(guessLegacyEncoding(MUELLER_437)).toBe('cp437');
  });

  it('prefers a valid Info-ZIP Unicode Path field (0x7075) and ignores one whose CRC does not match', () => {
    const field = unicodePathExtra(MUELLER_437, 'Müller-🙂.txt').subarray(4);
    expect(decodeZipName(MUELLER_437, 0, field)).toMatchObject({
      path: 'Müller-🙂.txt',
      encoding: 'utf8',
      fromUnicodePathField: true,
      rawDecoded: 'Müller.txt',
    });
    const stale = unicodePathExtra(GROESSE_437, 'other.txt').subarray(4);
    expect(decodeZipName(MUELLER_437, 0, stale)).toMatchObject({
      path: 'Müller.txt',
      fromUnicodePathField: false,
    });
  });
});

describe('decodeCp437', () => {
  it('maps all 128 high bytes, ASCII below', () => {
    const high = decodeCp437(Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i));
    expect([...high]).toHaveLength(128);
    expect(high[0]).toBe('Ç');
    expect(high[0xe1 - 0x80]).toBe('ß');
    expect(high[0xb0 - 0x80]).toBe('░');
    expect(high[0x7f]).toBe('\u00a0');
    expect(decodeCp437(Buffer.from('a/b\\c\0', 'latin1'))).toBe('a/b\\c\0');
  });
});

describe('describeHostilePath', () => {
  it.each([
    ['../../etc/passwd', ['zip-slip-path']],
    ['a/b/../../../c', ['zip-slip-path']],
    ['a\\..\\..\\windows\\system32', ['zip-slip-path']],
    ['..', ['zip-slip-path']],
    ['/abs', ['absolute-path']],
    ['\\\\server\\share\\x', ['absolute-path']],
    ['C:\\Windows\\win.ini', ['absolute-path']],
    ['c:relative', ['absolute-path']],
    ['/../x', ['zip-slip-path', 'absolute-path']],
    ['evil.txt\0.jpg', ['nul-in-name']],
    ['', ['empty-name']],
    ['ok/..hidden/x..y/...', []],
    ['شهادة/صورة.jpg', []],
  ])('%j -> %j', (path, flags) => {
    expect(describeHostilePath(path)).toEqual(flags);
  });
});
