// The bomb tests' zeros (test/support/make-zips.ts deflateZeros): a stream built from one deflated
// MiB repeated must inflate to exactly `size` zeros, with the CRC-32 of those zeros, at every
// boundary (nothing, less than a step, whole steps, steps and a rest) and at a bomb's size.
import { createInflateRaw, crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateZeros } from '../support/make-zips.js';

const MiB = 1 << 20;

/**
 * Inflates `compressed` as a stream: how many bytes came out, whether any was not zero, and the
 * CRC-32 of what came out.
 */
async function inflatedZeros(
  compressed: Buffer,
): Promise<{ bytes: number; nonZero: boolean; crc: number }> {
  const inflate = createInflateRaw();
  let bytes = 0;
  let nonZero = false;
  let crc = 0;
  let zeros = Buffer.alloc(0);
  inflate.on('data', (b: Buffer) => {
    bytes += b.length;
    crc = crc32(b, crc);
    if (zeros.length < b.length) zeros = Buffer.alloc(b.length);
    if (!b.equals(zeros.subarray(0, b.length))) nonZero = true;
  });
  const ended = new Promise<void>((resolve, reject) => {
    inflate.on('end', resolve);
    inflate.on('error', reject);
  });
  inflate.end(compressed);
  await ended;
  return { bytes, nonZero, crc };
}

describe('deflateZeros', () => {
  it.each([0, 1, 1000, MiB - 1, MiB, MiB + 7, 3 * MiB, 3 * MiB + 5])(
    'inflates to exactly %i zeros, with their CRC-32',
    async (size) => {
      const { compressed, crc } = await deflateZeros(size);
      expect(inflateRawSync(compressed).equals(Buffer.alloc(size))).toBe(true);
      expect(crc).toBe(crc32(Buffer.alloc(size)));
    },
  );

  it('makes a 200 MiB bomb of about 200 KiB that inflates to 200 MiB of zeros and ends there', async () => {
    const size = 200 * MiB;
    const { compressed, crc } = await deflateZeros(size);
    expect(compressed.length).toBeLessThan(size / 1000);
    expect(await inflatedZeros(compressed)).toEqual({ bytes: size, nonZero: false, crc });
  });
});
