import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.js';

describe('password hashes', () => {
  const password = 'correct horse battery staple';
  const hash = hashPassword(password);

  it('records scrypt and its parameters in the hash string, with a random salt', () => {
    expect(hash).toMatch(/^scrypt\$N=32768,r=8,p=1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(hash).not.toContain(password);
    expect(hashPassword(password)).not.toBe(hash);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    expect(await verifyPassword(password, hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('refuses a hash whose parameters were tampered with (weakened, huge, or not a power of two)', async () => {
    for (const params of ['N=16384,r=8,p=1', 'N=1024,r=8,p=1', 'N=2,r=1,p=1', 'N=1073741824,r=8,p=1', 'N=30000,r=8,p=1', 'N=32768,r=64,p=1', 'N=32768,r=8,p=99'])
      expect(await verifyPassword(password, hash.replace('N=32768,r=8,p=1', params)), params).toBe(false);
  });

  it('refuses a malformed hash, a changed salt or a changed digest, without throwing', async () => {
    const [alg, params, salt = '', digest = ''] = hash.split('$');
    expect(await verifyPassword(password, 'garbage')).toBe(false);
    expect(await verifyPassword(password, `argon2id$${params}$${salt}$${digest}`)).toBe(false);
    const flip = (b64: string): string => {
      const b = Buffer.from(b64, 'base64');
      b[0] = (b[0] ?? 0) ^ 1;
      return b.toString('base64');
    };
    expect(await verifyPassword(password, [alg, params, flip(salt), digest].join('$'))).toBe(false);
    expect(await verifyPassword(password, [alg, params, salt, flip(digest)].join('$'))).toBe(false);
    expect(await verifyPassword(password, [alg, params, salt, digest.slice(0, 8)].join('$'))).toBe(false);
  });
});
