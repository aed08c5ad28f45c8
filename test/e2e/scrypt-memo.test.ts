// The e2e project's scrypt memo (test/support/scrypt-memo.setup.ts) must give exactly what
// node:crypto gives, for every input, and never hand out a buffer another caller can zero; and
// the browser key library's scrypt (@noble/hashes), native here, must give what noble gives.
import * as mocked from 'node:crypto';
import * as nobleHere from '@noble/hashes/scrypt.js';
import { describe, expect, it, vi } from 'vitest';

describe('the scrypt memo of the e2e tests', () => {
  it('is in place here, and returns the real bytes for each distinct input, sync and async', async () => {
    const real = await vi.importActual<typeof import('node:crypto')>('node:crypto');
    expect(mocked.scryptSync).not.toBe(real.scryptSync);
    const options = { N: 1024, r: 8, p: 1 };
    const inputs: [string, Buffer, number][] = [
      ['pass', Buffer.from('salt-1'), 32],
      ['pass', Buffer.from('salt-2'), 32],
      ['other', Buffer.from('salt-1'), 32],
      ['pass', Buffer.from('salt-1'), 16],
    ];
    for (const [password, salt, length] of inputs) {
      const expected = real.scryptSync(password, salt, length, options);
      expect(mocked.scryptSync(password, salt, length, options).equals(expected)).toBe(true);
      expect(mocked.scryptSync(password, salt, length, options).equals(expected)).toBe(true);
      const async = await new Promise<Buffer>((resolve, reject) =>
        mocked.scrypt(password, salt, length, options, (e, k) =>
          e === null ? resolve(k) : reject(e),
        ),
      );
      expect(async.equals(expected)).toBe(true);
    }
    // Other cost parameters are other inputs.
    expect(
      mocked
        .scryptSync('pass', 'salt-1', 32, { N: 2048, r: 8, p: 1 })
        .equals(real.scryptSync('pass', 'salt-1', 32, { N: 2048, r: 8, p: 1 })),
    ).toBe(true);
  });

  it('hands out a copy: a caller that zeroes its key (as the key envelope does) does not zero the next', async () => {
    const options = { N: 1024, r: 8, p: 1 };
    const expected = mocked.scryptSync('zeroed', 'salt', 32, options); // computed
    for (let i = 0; i < 2; i++) mocked.scryptSync('zeroed', 'salt', 32, options).fill(0); // remembered
    expect(mocked.scryptSync('zeroed', 'salt', 32, options).equals(expected)).toBe(true);
    const again = await new Promise<Buffer>((resolve, reject) =>
      mocked.scrypt('zeroed', 'salt', 32, options, (e, k) => (e === null ? resolve(k) : reject(e))),
    );
    again.fill(0);
    expect(mocked.scryptSync('zeroed', 'salt', 32, options).equals(expected)).toBe(true);
  });

  it("gives @noble/hashes' scryptAsync the real one's bytes: strings and bytes, other lengths and costs, the server's N = 2^17", async () => {
    const noble =
      await vi.importActual<typeof import('@noble/hashes/scrypt.js')>('@noble/hashes/scrypt.js');
    expect(nobleHere.scryptAsync).not.toBe(noble.scryptAsync);
    const cases: [
      string | Uint8Array,
      string | Uint8Array,
      { N: number; r: number; p: number; dkLen: number },
    ][] = [
      ['key password', new Uint8Array(32).fill(7), { N: 2 ** 10, r: 8, p: 1, dkLen: 32 }],
      [new TextEncoder().encode('pässword'), 'salt', { N: 2 ** 11, r: 4, p: 2, dkLen: 64 }],
      ['key password', new Uint8Array(32).fill(9), { N: 2 ** 17, r: 8, p: 1, dkLen: 32 }],
    ];
    for (const [password, salt, opts] of cases) {
      const expected = await noble.scryptAsync(password, salt, opts);
      const here = await nobleHere.scryptAsync(password, salt, opts);
      expect(here).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(here).toString('hex')).toBe(Buffer.from(expected).toString('hex'));
    }
  });
});
