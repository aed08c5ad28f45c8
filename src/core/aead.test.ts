import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesGcmOpen, aesGcmOpenPacked, aesGcmSeal, aesGcmSealPacked } from './aead.js';

const hex = (s: string) => Buffer.from(s, 'hex');

describe('AES-256-GCM', () => {
  it('opens the GCM specification vector (McGrew & Viega, test case 14: zero key, zero nonce, one zero block)', () => {
    const plain = aesGcmOpen(Buffer.alloc(32), Buffer.alloc(0), {
      nonce: Buffer.alloc(12),
      ciphertext: hex('cea7403d4d606b6e074ec5d3baf39d18'),
      tag: hex('d0d1c8a799996bf0265b98b5d48ab919'),
    });
    expect(plain.equals(Buffer.alloc(16))).toBe(true);
  });

  it('round-trips, with a fresh nonce each time', () => {
    const key = randomBytes(32);
    const aad = Buffer.from('context');
    const a = aesGcmSealPacked(key, aad, Buffer.from('a name'));
    const b = aesGcmSealPacked(key, aad, Buffer.from('a name'));
    expect(a.equals(b)).toBe(false);
    expect(aesGcmOpenPacked(key, aad, a).toString()).toBe('a name');
    expect(aesGcmOpenPacked(key, aad, b).toString()).toBe('a name');
  });

  it('refuses another key, other additional data, a changed byte, a short tag and a record too short', () => {
    const key = randomBytes(32);
    const aad = Buffer.from('account:1');
    const box = aesGcmSeal(key, aad, Buffer.from('secret'));
    expect(() => aesGcmOpen(randomBytes(32), aad, box)).toThrow();
    expect(() => aesGcmOpen(key, Buffer.from('account:2'), box)).toThrow();
    const flipped = Buffer.from(box.ciphertext);
    flipped[0] = flipped[0]! ^ 1;
    expect(() => aesGcmOpen(key, aad, { ...box, ciphertext: flipped })).toThrow();
    // node:crypto would accept a tag cut to 4 bytes unless told its length: a forger's 2^32 tries.
    expect(() => aesGcmOpen(key, aad, { ...box, tag: box.tag.subarray(0, 4) })).toThrow(/16 bytes/);
    expect(() => aesGcmOpenPacked(key, aad, Buffer.alloc(27))).toThrow(/too short/);
  });
});
