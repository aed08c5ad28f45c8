import { fromHex, sha256 } from '../../core/index.js';

const TWO_64 = 1n << 64n;

/** The random numbers of one draw: PROCEDURE.md §2. */
export interface DrawStream {
  /** The next uint64 of the stream. */
  nextUint64(): bigint;
  /** A uniform integer in [0, m), by rejection; always consumes at least one uint64. */
  uniform(m: number): number;
}

/**
 * SHA-256 in counter mode: block_i = SHA-256(utf8(seed) || 0x00 || frameDigest (32 bytes) ||
 * uint64_be(i)) for i = 0, 1, 2, …; each block gives four big-endian uint64, in order.
 *
 * @example
 *   createDrawStream('seed', digestHex).uniform(6) // a die roll, the same every time
 */
export function createDrawStream(seed: string, frameDigestHex: string): DrawStream {
  const prefix = Buffer.concat([Buffer.from(seed, 'utf8'), Buffer.of(0), fromHex(frameDigestHex)]);
  const counter = Buffer.alloc(8);
  let index = 0n;
  let block: Buffer = Buffer.alloc(0);
  let offset = 32;
  const nextUint64 = (): bigint => {
    if (offset === 32) {
      counter.writeBigUInt64BE(index);
      block = sha256(prefix, counter);
      index += 1n;
      offset = 0;
    }
    const value = block.readBigUInt64BE(offset);
    offset += 8;
    return value;
  };
  const uniform = (m: number): number => {
    if (!Number.isSafeInteger(m) || m < 1) throw new RangeError(`uniform(${m}): m must be >= 1`);
    const big = BigInt(m);
    const limit = (TWO_64 / big) * big; // reject v >= floor(2^64 / m) * m: no modulo bias
    for (;;) {
      const v = nextUint64();
      if (v < limit) return Number(v % big);
    }
  };
  return { nextUint64, uniform };
}
