// Start-up (issue 12): `custody key --public` within 0.25 s of `node -e 0` on the same machine, in
// the same run. Each command is run STARTUP_RUNS times (default 21), interleaved round by round
// with `node -e 0` so that a burst of load on a shared machine hits every side alike; the figure
// is the difference of the medians. `--help` and `log --json` on a small archive are shown beside
// it. Where /usr/bin/time exists, the CPU time (user + system) of each run is reported too: on a
// shared machine under load, wall time includes waiting for a core, CPU time much less so.
// STARTUP_COMPARE=<another checkout's bin/custody.js> adds its `key --public` and `log --json`
// to the same rounds (before/after a change, same run). test/e2e/startup-imports.test.ts checks,
// without timing anything, which libraries load.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { timeCommand } from './measure.js';

const CUSTODY = resolve('bin/custody.js');
const TARGET_SECONDS = 0.25;

interface Case {
  label: string;
  args: string[];
  /** Held to the target (the others are shown for comparison). */
  target: boolean;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** `label: +0.12 s over node -e 0 (target ≤ 0.25 s, meets)`, in the style of ratioLine. */
export function differenceLine(label: string, ours: number, baseline: number, target: number): string {
  const diff = ours - baseline;
  const verdict = diff <= target ? 'meets' : 'MISSES';
  return `${label}: ${diff >= 0 ? '+' : ''}${diff.toFixed(3)} s over node -e 0 (target ≤ ${target.toFixed(2)} s, ${verdict})`;
}

async function makeArchive(base: string, env: NodeJS.ProcessEnv): Promise<void> {
  const delivery = join(base, 'delivery');
  await mkdir(delivery, { recursive: true });
  for (let i = 0; i < 5; i++) await writeFile(join(delivery, `IMG_${i}.jpg`), `synthetic photograph ${i}\n`);
  for (const args of [['init'], ['ingest', delivery, '--source', 'BENCH', '--new-source']]) {
    const r = await timeCommand('node', [CUSTODY, ...args], { env });
    if (r.code !== 0) throw new Error(`custody ${args[0] ?? ''} exited ${String(r.code)}: ${r.stderr.slice(0, 2000)}`);
  }
}

export async function benchStartup(): Promise<string[]> {
  const runs = Math.max(3, Number(process.env.STARTUP_RUNS ?? '21'));
  const base = resolve('bench', '.work', 'startup');
  await rm(base, { recursive: true, force: true });
  const env = { ...process.env, CUSTODY_ARCHIVE: join(base, 'archive'), CUSTODY_ACTOR: 'bench', CUSTODY_KEY_PASSPHRASE: '', CUSTODY_KEY_PASSPHRASE_FILE: '', DATABASE_URL: '' };
  await makeArchive(base, env);
  const cases: Case[] = [
    { label: 'node -e 0', args: ['-e', '0'], target: false },
    { label: 'custody key --public', args: [CUSTODY, 'key', '--public'], target: true },
    { label: 'custody --help', args: [CUSTODY, '--help'], target: false },
    { label: 'custody log --json (small archive)', args: [CUSTODY, 'log', '--json'], target: false },
  ];
  const other = process.env.STARTUP_COMPARE;
  if (other !== undefined && other !== '') {
    cases.push(
      { label: `key --public, ${other}`, args: [resolve(other), 'key', '--public'], target: true },
      { label: `log --json, ${other}`, args: [resolve(other), 'log', '--json'], target: false },
    );
  }
  const times = cases.map(() => [] as number[]);
  const cpu = cases.map(() => [] as number[]);
  const timer = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  const cpuFile = join(base, 'cpu.txt');
  // One round first, not counted: the page cache then holds node, dist/ and node_modules for all.
  for (let round = -1; round < runs; round++) {
    for (const [i, c] of cases.entries()) {
      const r =
        timer === null
          ? await timeCommand('node', c.args, { env })
          : await timeCommand(timer, ['-f', '%U %S', '-o', cpuFile, 'node', ...c.args], { env });
      if (r.code !== 0) throw new Error(`${c.label} exited ${String(r.code)}: ${r.stderr.slice(0, 2000)}`);
      if (round < 0) continue;
      times[i]?.push(r.seconds);
      if (timer !== null) {
        const [user, system] = (await readFile(cpuFile, 'utf8')).trim().split(/\s+/).map(Number);
        cpu[i]?.push((user ?? 0) + (system ?? 0));
      }
    }
  }
  const out = [`${runs} runs of each, interleaved; medians, Node start-up included`];
  out.push(...report('wall', times.map(median), cases));
  if (timer !== null) out.push(...report('CPU (user + system)', cpu.map(median), cases));
  return out;
}

function report(what: string, medians: number[], cases: readonly Case[]): string[] {
  const baseline = medians[0] ?? 0;
  const out: string[] = [];
  for (const [i, c] of cases.entries()) out.push(`${what}: ${c.label}: ${(medians[i] ?? 0).toFixed(3)} s`);
  for (const [i, c] of cases.entries()) {
    if (i === 0) continue;
    const line = differenceLine(`${what}: ${c.label}`, medians[i] ?? 0, baseline, TARGET_SECONDS);
    out.push(c.target ? line : `${line.replace(/ \(target.*\)$/, '')} (for comparison)`);
  }
  return out;
}
