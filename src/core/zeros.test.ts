import { describe, expect, it } from 'vitest';
import { isAllZeros } from './zeros.js';

describe('isAllZeros', () => {
  it('is true for zeros of any length, across its 64 KiB parts, and for nothing at all', () => {
    for (const n of [0, 1, 4095, 65_536, 65_537, 3 * 65_536 + 11])
      expect(isAllZeros(new Uint8Array(n)), String(n)).toBe(true);
  });

  it('is false when any one byte is not zero: first, last, at each part edge, in a view of a larger buffer', () => {
    const n = 3 * 65_536 + 11;
    for (const at of [0, 1, 65_535, 65_536, 65_537, 2 * 65_536, n - 1]) {
      const bytes = new Uint8Array(n);
      bytes[at] = at % 2 === 0 ? 1 : 0x80;
      expect(isAllZeros(bytes), String(at)).toBe(false);
    }
    const backing = new Uint8Array(100);
    backing[10] = 7;
    expect(isAllZeros(backing.subarray(11, 100))).toBe(true);
    expect(isAllZeros(backing.subarray(5, 50))).toBe(false);
  });
});
