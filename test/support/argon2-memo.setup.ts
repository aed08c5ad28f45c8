// e2e only (vitest.config.ts), as scrypt-memo.setup.ts: @node-rs/argon2's `verify`, remembered
// per test file for the inputs it has already seen. Checking a password against a stored hash is
// a pure function of (hash string, password): a remembered answer is the one the real call gives,
// so nothing a test observes changes, except that a file signing the same account in fifty times
// pays for one Argon2id check (64 MiB, 3 passes: ~90 ms of CPU) instead of fifty. Every distinct
// input is still checked for real once, a wrong password and the unknown-name decoy included.
// `hash` is remembered per (password, parameters), its salt aside: the first account given a
// password in a file gets a real Argon2id hash under a fresh random salt, and a later account
// given the same password in that file gets the same string, which then verifies from the memo
// too (a server file makes a dozen accounts, each ~65 ms to hash and ~65 ms to check). The one
// thing this changes is that those accounts share a salt, which no e2e test looks at; that each
// hash has a fresh salt is tested, unmocked, in src/accounts/password.test.ts. Subprocesses are
// not touched.
import { createHash } from 'node:crypto';
import { vi } from 'vitest';

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  const memo = new Map<string, boolean>();
  const hashes = new Map<string, string>();
  const keyOf = (hashed: string | Uint8Array, password: string | Uint8Array): string => {
    const h = createHash('sha256');
    for (const part of [hashed, password]) {
      const b = typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part);
      h.update(String(b.length)).update(':').update(b);
    }
    return h.digest('hex');
  };
  async function verify(
    hashed: string | Uint8Array,
    password: string | Uint8Array,
    ...rest: unknown[]
  ): Promise<boolean> {
    if (rest.some((r) => r !== undefined && r !== null))
      return (real.verify as (...a: unknown[]) => Promise<boolean>)(hashed, password, ...rest);
    const key = keyOf(hashed, password);
    const known = memo.get(key);
    if (known !== undefined) return known;
    const ok = await real.verify(hashed, password);
    memo.set(key, ok);
    return ok;
  }
  async function hash(
    password: string | Uint8Array,
    options?: Record<string, unknown>,
    ...rest: unknown[]
  ): Promise<string> {
    if (rest.some((r) => r !== undefined && r !== null))
      return (real.hash as (...a: unknown[]) => Promise<string>)(password, options, ...rest);
    const parameters = { ...options, salt: undefined };
    const key = keyOf(JSON.stringify(parameters), password);
    const known = hashes.get(key);
    if (known !== undefined) return known;
    const made = await real.hash(password, options);
    hashes.set(key, made);
    return made;
  }
  return { ...real, default: { ...real, verify, hash }, verify, hash };
});
