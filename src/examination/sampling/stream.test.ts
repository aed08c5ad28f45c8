import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDrawStream } from './stream.js';

const DIGEST = 'c9847e2f9a42df2be22c846a9e797ba2c84a0bed8f7b6286d799b83a7f82e435';

/** PROCEDURE.md §2 written out again, independently of stream.ts. */
function referenceValues(seed: string, digestHex: string, count: number): bigint[] {
  const values: bigint[] = [];
  for (let i = 0; values.length < count; i++) {
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(BigInt(i));
    const block = createHash('sha256')
      .update(Buffer.from(seed, 'utf8'))
      .update(Buffer.of(0))
      .update(Buffer.from(digestHex, 'hex'))
      .update(counter)
      .digest();
    for (let k = 0; k < 4; k++) values.push(block.readBigUInt64BE(8 * k));
  }
  return values.slice(0, count);
}

describe('createDrawStream', () => {
  it('follows the documented counter-mode construction (PROCEDURE.md worked example)', () => {
    const seed = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
    const s = createDrawStream(seed, DIGEST);
    const first = Array.from({ length: 9 }, () => s.nextUint64());
    expect(first.slice(0, 4)).toEqual([
      16936544925217094866n,
      10891839670925363468n,
      16534949022822594271n,
      8814634590598994362n,
    ]);
    expect(first).toEqual(referenceValues(seed, DIGEST, 9));
  });

  it('encodes the seed as UTF-8', () => {
    const s = createDrawStream('بذرة', DIGEST);
    expect([s.nextUint64(), s.nextUint64()]).toEqual(referenceValues('بذرة', DIGEST, 2));
  });

  it('rejects exactly the values >= floor(2^64 / m) * m', () => {
    // m near 2^64 / 2049 makes about one value in 2049 fall in the rejected tail.
    const m = Number((1n << 64n) / 2049n) + 1;
    const big = BigInt(m);
    const limit = ((1n << 64n) / big) * big;
    const values = referenceValues('reject', DIGEST, 40_000);
    const expected = values.filter((v) => v < limit).map((v) => Number(v % big));
    expect(values.length - expected.length).toBeGreaterThan(3); // the test does exercise rejection
    const s = createDrawStream('reject', DIGEST);
    const drawn = expected.map(() => s.uniform(m));
    expect(drawn).toEqual(expected);
  });

  it('consumes one value for m = 1 and refuses m < 1', () => {
    const s = createDrawStream('one', DIGEST);
    expect(s.uniform(1)).toBe(0);
    expect(s.nextUint64()).toBe(referenceValues('one', DIGEST, 2)[1]);
    expect(() => s.uniform(0)).toThrow(RangeError);
    expect(() => s.uniform(1.5)).toThrow(RangeError);
  });

  it('is roughly uniform: chi-square of 7000 die rolls with 7 faces', () => {
    const s = createDrawStream('uniformity', DIGEST);
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 7000; i++) counts[s.uniform(7)]! += 1;
    const chi2 = counts.reduce((sum, c) => sum + (c - 1000) ** 2 / 1000, 0);
    expect(chi2).toBeLessThan(22.46); // 6 degrees of freedom, p = 0.001
  });
});
