import { describe, expect, it } from 'vitest';
import {
  BAGIT_TXT,
  baggingDate,
  formatBagInfo,
  formatManifest,
  itemBagPath,
  payloadOxum,
  safeName,
} from './bagit.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('safeName', () => {
  it('keeps [A-Za-z0-9._-] and turns everything else into one _ per character', () => {
    expect(safeName('IMG_0001.JPG')).toBe('IMG_0001.JPG');
    expect(safeName('IMG 0001 (copy).JPG')).toBe('IMG_0001__copy_.JPG');
    expect(safeName('شهيد.jpg')).toBe('____.jpg');
    expect(safeName('😀x')).toBe('_x');
    expect(safeName('a/b\\c\0d')).toBe('a_b_c_d');
    expect(safeName('')).toBe('');
  });

  it('never yields a . or .. segment and keeps the last 80 characters', () => {
    expect(safeName('..')).toBe('__');
    expect(safeName('.')).toBe('_');
    const long = `${'x'.repeat(100)}.jpeg`;
    expect(safeName(long)).toHaveLength(80);
    expect(safeName(long).endsWith('.jpeg')).toBe(true);
  });

  it('builds data/items/<id>-<name>', () => {
    expect(itemBagPath('01J0ABC', 'a b.txt')).toBe('data/items/01J0ABC-a_b.txt');
    expect(itemBagPath('01J0ABC', '')).toBe('data/items/01J0ABC-');
  });
});

describe('manifests and bag-info', () => {
  it('sorts manifest lines by path, two spaces, LF', () => {
    expect(
      formatManifest([
        { path: 'data/b', sha256: A },
        { path: 'data/B', sha256: B },
        { path: 'data/a', sha256: B },
      ]),
    ).toBe(`${B}  data/B\n${B}  data/a\n${A}  data/b\n`);
    expect(formatManifest([])).toBe('');
  });

  it('refuses duplicate paths, unsafe paths and non-digests', () => {
    expect(() =>
      formatManifest([
        { path: 'data/a', sha256: A },
        { path: 'data/a', sha256: B },
      ]),
    ).toThrow(/duplicate/);
    expect(() => formatManifest([{ path: 'data/a b', sha256: A }])).toThrow();
    expect(() => formatManifest([{ path: 'data/a', sha256: 'A'.repeat(64) }])).toThrow();
  });

  it('counts Payload-Oxum as octets.streams', () => {
    expect(payloadOxum([])).toBe('0.0');
    expect(payloadOxum([10, 5, 0])).toBe('15.3');
  });

  it('writes the declaration and the bag-info fields of LAYOUT.md in order, one line each', () => {
    expect(BAGIT_TXT).toBe('BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n');
    const text = formatBagInfo({
      sourceOrganization: 'Team\nNorth',
      baggingDate: baggingDate(Date.UTC(2026, 10, 29, 23, 59)),
      payloadOxum: '15.2',
      treeSize: 42,
      rootHex: B,
      description: 'items:01A',
      softwareVersion: '0.1.0',
      origin: 'custody.invalid/archive/x',
      selection: 'items:01a',
    });
    expect(text).toBe(
      [
        'Source-Organization: Team North',
        'Bagging-Date: 2026-11-29',
        'Payload-Oxum: 15.2',
        `External-Identifier: 42/${B}`,
        'External-Description: items:01A',
        'Bag-Software-Agent: custody 0.1.0',
        'Custody-Origin: custody.invalid/archive/x',
        'Custody-Tree-Size: 42',
        `Custody-Root: ${B}`,
        'Custody-Selection: items:01a',
        '',
      ].join('\n'),
    );
  });
});
