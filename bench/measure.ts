// Timing helpers: wall time of a child process and its peak RSS (from /usr/bin/env time is not
// always installed; getrusage of children via process.resourceUsage is not per-child, so we
// read the child's own report where it gives one).
import { spawn } from 'node:child_process';
import { openSync, readSync, closeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface Timed {
  seconds: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

export function timeCommand(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, {
      env: opts.env ?? process.env,
      cwd: opts.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      resolve({ seconds, code, stdout, stderr });
    });
  });
}

/** Reads every file once so that both sides of a comparison start with a warm page cache. */
export function warm(files: readonly string[]): void {
  const buf = Buffer.allocUnsafe(4 << 20);
  for (const f of files) {
    const fd = openSync(f, 'r');
    while (readSync(fd, buf, 0, buf.length, null) > 0);
    closeSync(fd);
  }
}

export function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(0)} MB`;
}

export function ratioLine(
  label: string,
  ours: number,
  peer: number,
  target: number,
  higherIsBetter = true,
): string {
  const ratio = higherIsBetter ? ours / peer : peer / ours;
  const verdict = ratio >= target ? 'meets' : 'MISSES';
  return `${label}: ${ratio.toFixed(2)}× (target ≥ ${target.toFixed(1)}×, ${verdict})`;
}

/** timeCommand under GNU time (/usr/bin/time), which adds the CPU time the process used (written to `report`). */
export async function timeWithCpu(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  report: string,
): Promise<Timed & { cpu: number }> {
  const r = await timeCommand('/usr/bin/time', ['-f', '%U %S', '-o', report, cmd, ...args], {
    env,
  });
  const [user, sys] = (await readFile(report, 'utf8'))
    .trim()
    .split('\n')
    .pop()!
    .split(' ')
    .map(Number);
  return { ...r, cpu: (user ?? 0) + (sys ?? 0) };
}
