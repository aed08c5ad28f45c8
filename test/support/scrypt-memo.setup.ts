// e2e only (vitest.config.ts): node:crypto's scrypt, remembered per test file for inputs it has
// already seen. scrypt is a pure function of (password, salt, length, N, r, p): a remembered
// result is the same bytes the real call returns, so nothing a test observes changes, except
// that a file running thirty in-process commands on one passphrase-protected key pays for one
// derivation (N = 2^17, ~0.4 s of CPU) instead of thirty. Every distinct input still runs the real
// scrypt once, a wrong passphrase included; subprocesses (runCustody) are untouched. Each call gets
// its own copy, since the key envelope zeroes the seed it is given.
//
// The browser's key library (src/accounts/person-key-client.ts), where an e2e test runs it in
// Node, derives with @noble/hashes' scrypt: pure JavaScript, about 1.3 s of CPU a key at the
// N = 2^17 the server requires. Here its scryptAsync is node:crypto's scrypt above (RFC 7914 both:
// the same bytes for the same input, test/e2e/scrypt-memo.test.ts checks it), native and
// remembered. The browser tests run the real one in Chromium, and the unit tests in Node.
import { createHash } from 'node:crypto';
import { vi } from 'vitest';

vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  const memo = new Map<string, Buffer>();
  const keyOf = (password: unknown, salt: unknown, keylen: number, options: unknown): string => {
    const h = createHash('sha256');
    for (const part of [password, salt]) {
      const b =
        typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part as Uint8Array);
      h.update(String(b.length)).update(':').update(b);
    }
    const o = (options ?? {}) as {
      N?: number;
      cost?: number;
      r?: number;
      blockSize?: number;
      p?: number;
      parallelization?: number;
    };
    h.update(
      JSON.stringify([
        keylen,
        o.N ?? o.cost ?? 16384,
        o.r ?? o.blockSize ?? 8,
        o.p ?? o.parallelization ?? 1,
      ]),
    );
    return h.digest('hex');
  };
  function scrypt(password: never, salt: never, keylen: number, ...rest: unknown[]): void {
    const callback = rest.pop() as (err: Error | null, key: Buffer) => void;
    const options = rest[0];
    const key = keyOf(password, salt, keylen, options);
    const known = memo.get(key);
    if (known !== undefined) {
      process.nextTick(() => callback(null, Buffer.from(known)));
      return;
    }
    (real.scrypt as (...a: unknown[]) => void)(
      password,
      salt,
      keylen,
      options ?? {},
      (err: Error | null, derived: Buffer) => {
        if (err === null) memo.set(key, Buffer.from(derived));
        callback(err, derived);
      },
    );
  }
  function scryptSync(password: never, salt: never, keylen: number, options?: unknown): Buffer {
    const key = keyOf(password, salt, keylen, options);
    const known = memo.get(key);
    if (known !== undefined) return Buffer.from(known);
    const derived = (real.scryptSync as (...a: unknown[]) => Buffer)(
      password,
      salt,
      keylen,
      options ?? {},
    );
    memo.set(key, Buffer.from(derived));
    return derived;
  }
  return { ...real, default: { ...real, scrypt, scryptSync }, scrypt, scryptSync };
});

vi.mock('@noble/hashes/scrypt.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('@noble/hashes/scrypt.js')>();
  const { scrypt } = await import('node:crypto'); // the remembering one above (strings as UTF-8, as noble)
  async function scryptAsync(
    password: string | Uint8Array,
    salt: string | Uint8Array,
    opts: { N: number; r: number; p: number; dkLen?: number },
  ): Promise<Uint8Array> {
    const { N, r, p, dkLen = 32 } = opts;
    const key = await new Promise<Buffer>((resolve, reject) =>
      scrypt(password, salt, dkLen, { N, r, p, maxmem: 256 * N * r * (p + 1) }, (e, k) =>
        e === null ? resolve(k) : reject(e),
      ),
    );
    return new Uint8Array(key);
  }
  return { ...real, scryptAsync };
});
