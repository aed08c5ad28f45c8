// Account password hashing (issue 12, accounts): what one hash and one sign-in check cost, for
// the Argon2id parameters Custody writes (src/accounts/password.ts: RFC 9106's second recommended
// option) against the scrypt parameters of earlier releases and the two minimums OWASP's password
// storage guidance gives, in the same run. Wall and CPU (user + system of this process, which
// counts the library's threads) per hash, the median of PASSWORD_RUNS (default 9).
//   node dist/bench/password-hash.js
import { hash, type Algorithm } from '@node-rs/argon2';
import { randomBytes, scryptSync } from 'node:crypto';
import { hashPassword, verifyPassword } from '../src/accounts/index.js';

const RUNS = Number(process.env.PASSWORD_RUNS ?? '9');
const ARGON2ID = 2 as Algorithm;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

async function time(label: string, f: () => unknown): Promise<void> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await f();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  console.log(
    `${label.padEnd(58)} ${median(wall).toFixed(1).padStart(7)} ms wall ${median(cpu).toFixed(1).padStart(7)} ms CPU`,
  );
}

async function main(): Promise<void> {
  const pw = 'correct horse battery staple';
  console.log(`== password hashing: median of ${RUNS} ==`);
  await time('Custody: Argon2id m=64 MiB, t=3, p=4 (hashPassword)', () => hashPassword(pw));
  const stored = await hashPassword(pw);
  await time('Custody: its sign-in check (verifyPassword)', () => verifyPassword(pw, stored));
  await time('earlier releases: scrypt N=2^15, r=8, p=1', () =>
    scryptSync(pw, randomBytes(16), 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 ** 2 }),
  );
  await time("OWASP's scrypt minimum: N=2^17, r=8, p=1", () =>
    scryptSync(pw, randomBytes(16), 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 ** 2 }),
  );
  await time("OWASP's Argon2id minimum: m=19 MiB, t=2, p=1", () =>
    hash(pw, { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 }),
  );
}

await main();
