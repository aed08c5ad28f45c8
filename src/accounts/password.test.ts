import { randomBytes, scryptSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  argon2Parameters,
  DECOY_HASH,
  hashPassword,
  needsRehash,
  verifyPassword,
} from './password.js';

const password = 'correct horse battery staple';

/** A hash as releases before Argon2id wrote it: scrypt N = 2^15, r = 8, p = 1. */
function scryptHash(pw: string, params = 'N=32768,r=8,p=1', N = 32768): string {
  const salt = randomBytes(16);
  const hash = scryptSync(pw.normalize('NFC'), salt, 32, {
    N,
    r: 8,
    p: 1,
    maxmem: 128 * N * 8 * 2,
  });
  return `scrypt$${params}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

const flip = (b64: string): string => {
  const b = Buffer.from(b64, 'base64');
  b[0] = (b[0] ?? 0) ^ 1;
  return b.toString('base64').replace(/=+$/, '');
};

describe('password hashes', () => {
  let hash = '';
  beforeAll(async () => {
    hash = await hashPassword(password);
  });

  it('records Argon2id and its parameters (RFC 9106, second recommended option) in a PHC string, with a random salt', async () => {
    expect(hash).toMatch(
      /^\$argon2id\$v=19\$m=65536,t=3,p=4\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
    expect(hash).not.toContain(password);
    expect(await hashPassword(password)).not.toBe(hash);
    expect(argon2Parameters(hash)).toEqual({ m: 65536, t: 3, p: 4 });
    expect(needsRehash(hash)).toBe(false);
  });

  it('verifies the right password and refuses a wrong one, whatever the Unicode normalisation', async () => {
    expect(await verifyPassword(password, hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
    const composed = await hashPassword('caf\u00e9 au lait!');
    expect(await verifyPassword('cafe\u0301 au lait!', composed)).toBe(true);
  });

  it('refuses a hash whose parameters were tampered with (weakened, huge, another version or variant)', async () => {
    // Honestly computed at weakened parameters, so that only the bounds refuse them.
    const { hash: argon2Hash } = await import('@node-rs/argon2');
    for (const [memoryCost, timeCost, parallelism] of [
      [1024, 3, 4],
      [19456, 1, 1],
      [8192, 4, 1],
    ] as const) {
      const weak = await argon2Hash(password, {
        algorithm: 2 as never,
        memoryCost,
        timeCost,
        parallelism,
      });
      expect(await verifyPassword(password, weak), weak).toBe(false);
    }
    for (const params of [
      'm=1024,t=3,p=4', // below OWASP's 19 MiB
      'm=19456,t=1,p=1', // 19 MiB but one pass: less work than OWASP's minimum
      'm=4194304,t=3,p=4', // 4 GiB: would exhaust memory
      'm=65536,t=99,p=4',
      'm=65536,t=3,p=99',
      'm=65536,t=0,p=4',
    ])
      expect(await verifyPassword(password, hash.replace('m=65536,t=3,p=4', params)), params).toBe(
        false,
      );
    expect(await verifyPassword(password, hash.replace('v=19', 'v=16'))).toBe(false);
    expect(await verifyPassword(password, hash.replace('$argon2id$', '$argon2i$'))).toBe(false);
    expect(await verifyPassword(password, hash.replace('$argon2id$', '$argon2d$'))).toBe(false);
  });

  it('refuses a malformed hash, a changed salt or a changed digest, without throwing', async () => {
    const [, alg, version, params, salt = '', digest = ''] = hash.split('$');
    const join = (s: string, d: string) => ['', alg, version, params, s, d].join('$');
    expect(await verifyPassword(password, 'garbage')).toBe(false);
    expect(await verifyPassword(password, '')).toBe(false);
    expect(await verifyPassword(password, join(flip(salt), digest))).toBe(false);
    expect(await verifyPassword(password, join(salt, flip(digest)))).toBe(false);
    expect(await verifyPassword(password, join(salt, digest.slice(0, 8)))).toBe(false);
    expect(await verifyPassword(password, join(salt.slice(0, 8), digest))).toBe(false);
    expect(await verifyPassword(password, `${hash}$extra`)).toBe(false);
  });

  it('the decoy for unknown names is at the parameters of new hashes, so it costs what a real check costs, and matches nothing', async () => {
    expect(argon2Parameters(DECOY_HASH)).toEqual(argon2Parameters(hash));
    expect(await verifyPassword('', DECOY_HASH)).toBe(false);
    expect(await verifyPassword(password, DECOY_HASH)).toBe(false);
  });

  describe('scrypt hashes of earlier releases', () => {
    const legacy = scryptHash(password);

    it('still verify, and are marked for replacement', async () => {
      expect(await verifyPassword(password, legacy)).toBe(true);
      expect(await verifyPassword('correct horse battery stapl', legacy)).toBe(false);
      expect(needsRehash(legacy)).toBe(true);
    });

    it('are refused when weakened or malformed', async () => {
      // Honestly computed at N = 2^14, so only the bound refuses it.
      expect(await verifyPassword(password, scryptHash(password, 'N=16384,r=8,p=1', 16384))).toBe(
        false,
      );
      for (const params of [
        'N=1024,r=8,p=1',
        'N=2,r=1,p=1',
        'N=1073741824,r=8,p=1',
        'N=30000,r=8,p=1',
        'N=32768,r=1,p=1',
        'N=32768,r=64,p=1',
        'N=32768,r=8,p=99',
      ])
        expect(
          await verifyPassword(password, legacy.replace('N=32768,r=8,p=1', params)),
          params,
        ).toBe(false);
      const [alg, params, salt = '', digest = ''] = legacy.split('$');
      expect(await verifyPassword(password, [alg, params, flip(salt), digest].join('$'))).toBe(
        false,
      );
      expect(await verifyPassword(password, [alg, params, salt, flip(digest)].join('$'))).toBe(
        false,
      );
    });
  });

  it('a weaker Argon2id hash that verifies is marked for replacement', async () => {
    const { hash: argon2Hash } = await import('@node-rs/argon2');
    const weaker = await argon2Hash(password, {
      algorithm: 2 as never,
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
    });
    expect(await verifyPassword(password, weaker)).toBe(true);
    expect(needsRehash(weaker)).toBe(true);
  });
});
