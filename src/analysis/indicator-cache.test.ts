import { describe, expect, it } from 'vitest';
import { decodeRaisedOf, encodeRaised, indicatorsKeyOf } from './indicator-cache.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const NOW = '2026-05-01T10:00:00.000Z';
const key = indicatorsKeyOf(42);
const text = encodeRaised(
  key,
  NOW,
  new Map([
    [B, ['EXIF_MISSING', 'DIMENSIONS_UNLIKE_CAMERA']],
    [A, []],
  ]),
);

describe('the cached raised set', () => {
  it('names only the objects that raise an indicator, with their codes', () => {
    expect(decodeRaisedOf(text, key, NOW, B)).toEqual(['EXIF_MISSING', 'DIMENSIONS_UNLIKE_CAMERA']);
    expect(decodeRaisedOf(text, key, NOW, A)).toBeNull();
    expect(decodeRaisedOf(text, key, NOW, C)).toBeNull();
    expect(text.split('\n')).toHaveLength(3);
  });

  it("is stale for another analyses' ledger size, version or thresholds, and in the previous format", () => {
    expect(decodeRaisedOf(text, indicatorsKeyOf(43), NOW, A)).toBeUndefined();
    // /1 was keyed by the whole ledger's size: the same number there says nothing here.
    const old = text.replace('indicators-raised/2 ', 'indicators-raised/1 ');
    expect(old).not.toBe(text);
    expect(decodeRaisedOf(old, key, NOW, A)).toBeUndefined();
    expect(decodeRaisedOf(text, { ...key, version: `${key.version} X=1` }, NOW, A)).toBeUndefined();
    expect(key.version).toContain('MIN_MODEL_OTHERS=3');
  });

  it('serves a later time, never an earlier one (a date in the future may not be so then)', () => {
    expect(decodeRaisedOf(text, key, '2027-01-01T00:00:00Z', A)).toBeNull();
    expect(decodeRaisedOf(text, key, '2026-05-01T09:59:59.999Z', A)).toBeUndefined();
    expect(decodeRaisedOf(text, key, 'yesterday', A)).toBeUndefined();
  });

  it('refuses malformed text: no key line, unknown code, a name twice, no final newline', () => {
    expect(decodeRaisedOf(undefined, key, NOW, A)).toBeUndefined();
    expect(decodeRaisedOf(text.slice(text.indexOf('\n') + 1), key, NOW, B)).toBeUndefined();
    expect(
      decodeRaisedOf(text.replace(`${B} EXIF_MISSING`, `${B} FORGED`), key, NOW, B),
    ).toBeUndefined();
    expect(decodeRaisedOf(text.replace(`${B} EXIF_MISSING,`, `${B} `), key, NOW, B)).toEqual([
      'DIMENSIONS_UNLIKE_CAMERA',
    ]);
    expect(decodeRaisedOf(`${text}${B} EXIF_MISSING\n`, key, NOW, B)).toBeUndefined();
    expect(decodeRaisedOf(`${text}${B} \n`, key, NOW, A)).toBeNull();
    expect(decodeRaisedOf(text.slice(0, -1), key, NOW, A)).toBeUndefined();
    expect(
      decodeRaisedOf(text.replace(/"2026[^"]*"/, '"2026-05-01"'), key, NOW, A),
    ).toBeUndefined();
    expect(decodeRaisedOf(text, key, NOW, 'A'.repeat(64))).toBeUndefined();
  });
});
