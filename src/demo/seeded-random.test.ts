import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSeededRandom } from './seeded-random.js';

describe('createSeededRandom', () => {
  it('follows the documented SHA-256 counter construction', () => {
    const block = (k: number) => {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(BigInt(k));
      return createHash('sha256').update('seed\0label\0').update(counter).digest();
    };
    const expected = [
      ...Array.from({ length: 8 }, (_, i) => block(0).readUInt32BE(i * 4)),
      block(1).readUInt32BE(0),
    ];
    const r = createSeededRandom('seed', 'label');
    expect(Array.from({ length: 9 }, () => r.uint32())).toEqual(expected);
  });

  it('repeats for the same seed and label, and differs across labels', () => {
    const draw = (label: string) => {
      const r = createSeededRandom('s', label);
      return Array.from({ length: 20 }, () => r.uint32());
    };
    expect(draw('a')).toEqual(draw('a'));
    expect(draw('a')).not.toEqual(draw('b'));
  });

  it('keeps int() within its inclusive bounds and reaches both ends', () => {
    const r = createSeededRandom('bounds');
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(r.int(3, 7));
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('draws hex of the requested length', () => {
    expect(createSeededRandom('h').hex(8)).toMatch(/^[0-9a-f]{16}$/);
    expect(createSeededRandom('h').hex(3)).toMatch(/^[0-9a-f]{6}$/);
  });

  it('refuses to pick from an empty list', () => {
    expect(() => createSeededRandom('e').pick([])).toThrow(RangeError);
  });
});
