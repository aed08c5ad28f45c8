import { describe, expect, it } from 'vitest';
import { hasCode } from '../../core/index.js';
import { formatHash256, hammingDistance, parseHash256, wordsFromBits } from './hash256.js';

describe('Hash256 text form', () => {
  it('puts word 15 first and bit 0 in the low bit of the last digit (pdqhashtypes.cpp)', () => {
    expect(formatHash256(wordsFromBits((k) => k === 0))).toBe('0'.repeat(63) + '1');
    expect(formatHash256(wordsFromBits((k) => k === 15))).toBe('0'.repeat(60) + '8000');
    expect(formatHash256(wordsFromBits((k) => k === 16))).toBe('0'.repeat(59) + '1' + '0000');
    expect(formatHash256(wordsFromBits((k) => k === 255))).toBe('8' + '0'.repeat(63));
  });

  it('round-trips through parseHash256', () => {
    const hex = 'f8f8f0cee0f4a84f06370a22038f67f0b36e2ed596621e1d33e6339c4e9c9b22';
    expect(formatHash256(parseHash256(hex))).toBe(hex);
    expect(formatHash256(parseHash256(hex.toUpperCase()))).toBe(hex);
  });

  it('rejects malformed hashes with PDQ_BAD_HASH', () => {
    for (const bad of ['', 'abc', 'g'.repeat(64), '0'.repeat(65)]) {
      let caught: unknown;
      try {
        parseHash256(bad);
      } catch (e) {
        caught = e;
      }
      expect(hasCode(caught, 'PDQ_BAD_HASH')).toBe(true);
    }
  });
});

describe('hammingDistance', () => {
  const a = 'f8f8f0cee0f4a84f06370a22038f67f0b36e2ed596621e1d33e6339c4e9c9b22';
  const b = 'd8f8f0cec0f4a84f06370a2a038f67f0b36e2ed596621e1d33e6b39c4e9c9b22';

  it('counts differing bits of hex strings', () => {
    expect(hammingDistance(a, a)).toBe(0);
    expect(hammingDistance(a, b)).toBe(4); // f8/d8, e0/c0, 22/2a, 33/b3: one bit each
    expect(hammingDistance('0'.repeat(64), 'f'.repeat(64))).toBe(256);
    expect(hammingDistance('0'.repeat(64), '0'.repeat(63) + '3')).toBe(2);
  });

  it('accepts 32-byte arrays and mixes them with strings', () => {
    const bytes = Uint8Array.from(Buffer.from(b, 'hex'));
    expect(hammingDistance(a, bytes)).toBe(4);
    expect(hammingDistance(bytes, bytes)).toBe(0);
  });

  it('rejects wrong lengths with PDQ_BAD_HASH', () => {
    expect(() => hammingDistance(new Uint8Array(31), a)).toThrowError(
      expect.objectContaining({ code: 'PDQ_BAD_HASH' }) as Error,
    );
    expect(() => hammingDistance(a, 'xyz')).toThrowError(
      expect.objectContaining({ code: 'PDQ_BAD_HASH' }) as Error,
    );
  });
});
