// The e2e project's Argon2 memo (test/support/argon2-memo.setup.ts): `verify` gives what the real
// call gives for every input; `hash` gives a real hash, the same string again only for the same
// password at the same parameters.
import * as mocked from '@node-rs/argon2';
import { describe, expect, it, vi } from 'vitest';

const CHEAP = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 } as const;
const salt = (n: number): Buffer => Buffer.alloc(16, n);

describe('the Argon2 memo of the e2e tests', () => {
  it('is in place here; verify answers as the real call does, right and wrong, first and again', async () => {
    const real = await vi.importActual<typeof import('@node-rs/argon2')>('@node-rs/argon2');
    expect(mocked.verify).not.toBe(real.verify);
    expect(mocked.hash).not.toBe(real.hash);
    const stored = await real.hash('right', { ...CHEAP, salt: salt(1) });
    for (let i = 0; i < 2; i++) {
      expect(await mocked.verify(stored, 'right')).toBe(true);
      expect(await mocked.verify(stored, 'wrong')).toBe(false);
    }
  });

  it('hash: a real Argon2id hash of the password; the same password and parameters give the same string, anything else another', async () => {
    const real = await vi.importActual<typeof import('@node-rs/argon2')>('@node-rs/argon2');
    const first = await mocked.hash('memo-one', { ...CHEAP, salt: salt(2) });
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await real.verify(first, 'memo-one')).toBe(true);
    expect(await real.verify(first, 'memo-two')).toBe(false);
    // The salt aside, the same input: the remembered string.
    expect(await mocked.hash('memo-one', { ...CHEAP, salt: salt(3) })).toBe(first);
    // Another password, or other parameters: hashed for real.
    const other = await mocked.hash('memo-two', { ...CHEAP, salt: salt(2) });
    expect(other).not.toBe(first);
    expect(await real.verify(other, 'memo-two')).toBe(true);
    const costlier = await mocked.hash('memo-one', { ...CHEAP, timeCost: 3, salt: salt(2) });
    expect(costlier).toMatch(/^\$argon2id\$v=19\$m=19456,t=3,p=1\$/);
    expect(await real.verify(costlier, 'memo-one')).toBe(true);
  });
});
