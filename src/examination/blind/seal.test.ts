import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalBytes, hasCode } from '../../core/index.js';
import { SEAL_BUCKET, seal, unseal } from './seal.js';

const key = randomBytes(32);

describe('sealed answers are padded to a bucket (issue 9, 12a)', () => {
  it('two answers of different lengths in the same bucket give ciphertexts of equal length', () => {
    const short = { answer: { sex: 'male', notes: '' }, salt: 'a'.repeat(64) };
    const long = { answer: { sex: 'female', notes: 'x'.repeat(500) }, salt: 'b'.repeat(64) };
    expect(canonicalBytes(short).length).not.toBe(canonicalBytes(long).length);
    const a = seal(key, 's/c/dr-a', short);
    const b = seal(key, 's/c/dr-b', long);
    expect(Buffer.from(a, 'base64').length).toBe(Buffer.from(b, 'base64').length);
    expect(Buffer.from(a, 'base64').length).toBe(12 + SEAL_BUCKET + 16);
    expect(unseal(key, 's/c/dr-a', a)).toEqual(short);
    expect(unseal(key, 's/c/dr-b', b)).toEqual(long);
  });

  it('an answer past one bucket takes the next whole bucket, and still opens to the same value', () => {
    const big = { answer: { notes: 'é'.repeat(700) }, salt: 'c'.repeat(64) };
    const sealed = seal(key, 'ctx', big);
    expect(Buffer.from(sealed, 'base64').length).toBe(12 + 2 * SEAL_BUCKET + 16);
    expect(unseal(key, 'ctx', sealed)).toEqual(big);
  });

  it('opens a ciphertext sealed before padding existed (unpadded canonical JSON)', () => {
    const value = { answer: { sex: 'male' }, salt: 'd'.repeat(64) };
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from('custody sealed answer v1ctx', 'utf8'));
    const body = Buffer.concat([cipher.update(canonicalBytes(value)), cipher.final()]);
    const old = Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
    expect(unseal(key, 'ctx', old)).toEqual(value);
  });

  it('a wrong key or context is SEAL_BROKEN, padding or not', () => {
    const sealed = seal(key, 'ctx', { a: 1 });
    for (const f of [() => unseal(randomBytes(32), 'ctx', sealed), () => unseal(key, 'other', sealed)]) {
      let error: unknown;
      try {
        f();
      } catch (e) {
        error = e;
      }
      expect(hasCode(error, 'SEAL_BROKEN')).toBe(true);
    }
  });
});
