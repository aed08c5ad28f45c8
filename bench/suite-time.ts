// Suite time (issue 12: "npm test wall time halved from today's, in the same run"): `npm test` of
// this repository's HEAD against the suite as it stood when the issue was filed, on the same
// machine, one after the other:
//   node dist/bench/suite-time.js [BASE]      (BASE: 5501e01 by default, the parent of every
//                                               issue-12 commit)
// Each side is a fresh clone in one temporary folder, beside a link to ../shared (the fixtures,
// which CI=true requires), installed with `npm ci` (not timed), then `npm test` with CI=true as
// .ci/run calls it. PostgreSQL must be installed (scripts/install-system-deps.sh). The base runs
// first. Prints each side's wall time, vitest's own duration and test count, and the ratio
// against the target (≤ 0.5). Uncommitted changes take no part: HEAD is what is cloned. About
// 25 minutes on 2 cores; not part of `npm run bench`.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { timeCommand } from './measure.js';

const BASE = process.argv[2] ?? '5501e01';
const TARGET = 0.5;

interface Side {
  label: string;
  seconds: number;
  vitestSeconds: number | null;
  tests: string | null;
}

async function run(cmd: string, args: string[], cwd: string, env = process.env): Promise<string> {
  const r = await timeCommand(cmd, args, { cwd, env });
  if (r.code !== 0)
    throw new Error(
      `${cmd} ${args.join(' ')} in ${cwd} exited ${String(r.code)}:\n${(r.stdout + r.stderr).slice(-3000)}`,
    );
  return r.stdout;
}

/** vitest's summary lines, without colours: its Duration and the Tests line. */
function summary(output: string): { vitestSeconds: number | null; tests: string | null } {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const duration = /Duration\s+([0-9.]+)s/.exec(plain);
  const tests = /^\s*Tests\s+(.+)$/m.exec(plain);
  return {
    vitestSeconds: duration ? Number(duration[1]) : null,
    tests: tests?.[1]?.trim() ?? null,
  };
}

async function side(root: string, work: string, label: string, rev: string | null): Promise<Side> {
  const dir = join(work, label);
  await run('git', ['clone', '-q', root, dir], work);
  if (rev !== null) await run('git', ['checkout', '-q', rev], dir);
  await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], dir, {
    ...process.env,
    JOBS: 'max',
  });
  const t = await timeCommand('npm', ['test'], { cwd: dir, env: { ...process.env, CI: 'true' } });
  if (t.code !== 0)
    throw new Error(`npm test of ${label} failed:\n${(t.stdout + t.stderr).slice(-3000)}`);
  return { label, seconds: t.seconds, ...summary(t.stdout + t.stderr) };
}

async function main(): Promise<void> {
  const root = resolve('.');
  const work = await mkdtemp(join(tmpdir(), 'custody-suite-time-'));
  const shared = resolve(root, '..', 'shared');
  if (existsSync(shared)) await symlink(shared, join(work, 'shared'));
  else console.warn(`no ${shared}: the fixture suites fail under CI=true without it`);
  try {
    const head = (await run('git', ['rev-parse', '--short', 'HEAD'], root)).trim();
    const base = await side(root, work, `base-${BASE}`, BASE);
    const now = await side(root, work, `head-${head}`, null);
    const line = (s: Side): string =>
      `${s.label}: npm test ${s.seconds.toFixed(1)} s (vitest ${s.vitestSeconds?.toFixed(1) ?? '?'} s; tests ${s.tests ?? '?'})`;
    const ratio = now.seconds / base.seconds;
    console.log(line(base));
    console.log(line(now));
    console.log(
      `ratio ${ratio.toFixed(3)} (target ≤ ${TARGET}: ${ratio <= TARGET ? 'meets' : 'MISSES'}; ${(base.seconds * TARGET).toFixed(0)} s asked)`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
