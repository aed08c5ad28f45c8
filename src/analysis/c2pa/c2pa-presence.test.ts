import { describe, expect, it } from 'vitest';
import { mayHoldC2pa } from './c2pa-presence.js';

/** A JPEG-like byte string: SOI, one APP0, a scan of bytes without any needle, EOI. */
function plainJpeg(): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const scan = Buffer.alloc(4000, 0x5a);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, Buffer.from([0xff, 0xda, 0, 2]), scan, Buffer.from([0xff, 0xd9])]);
}

describe('mayHoldC2pa', () => {
  it('is false for a JPEG with no trace of C2PA', () => {
    expect(mayHoldC2pa(plainJpeg())).toBe(false);
  });

  it('is true for an APP11 segment, a JUMBF box, a C2PA label or a provenance reference anywhere', () => {
    const late = (tail: Buffer): Buffer => Buffer.concat([plainJpeg(), Buffer.alloc(1_000_000), tail]);
    expect(mayHoldC2pa(late(Buffer.from([0xff, 0xeb, 0, 4, 0, 0])))).toBe(true);
    expect(mayHoldC2pa(late(Buffer.from('\0\0\0\x20jumb')))).toBe(true);
    expect(mayHoldC2pa(late(Buffer.from('urn:c2pa:')))).toBe(true);
    expect(mayHoldC2pa(late(Buffer.from('dcterms:provenance="https://x/m.c2pa"')))).toBe(true);
  });
});
