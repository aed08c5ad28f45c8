// The e2e project's scrypt memo (test/support/scrypt-memo.setup.ts) must give exactly what
// node:crypto gives, for every input, and never hand out a buffer another caller can zero.
import * as mocked from 'node:crypto';
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
});
