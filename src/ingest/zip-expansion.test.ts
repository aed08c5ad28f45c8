import { describe, expect, it } from 'vitest';
import { expansionLimit, ZIP_EXPANSION } from './zip-expansion.js';

describe('expansionLimit', () => {
  it('is 100 × the container, never under the 64 MiB floor nor over 2 GiB', () => {
    expect(expansionLimit(0)).toBe(ZIP_EXPANSION.ratioFloorBytes);
    expect(expansionLimit(1_200_000)).toBe(120_000_000); // the 1.2 MB ZIP of the finding may expand to 120 MB, not 1.2 GB
    expect(expansionLimit(100_000)).toBe(64 * 1024 ** 2); // 10 MB by ratio: the floor applies
    expect(expansionLimit(1_000_000)).toBe(100_000_000);
    expect(expansionLimit(10 * 1024 ** 2)).toBe(1000 * 1024 ** 2);
    expect(expansionLimit(100 * 1024 ** 2)).toBe(2 * 1024 ** 3);
  });
});
