// Run the real CLI as a subprocess, as a person would: `node bin/custody.js ...`.
// bin/custody.js loads the compiled CLI from dist/, so `npm run build` must have
// run first (`npm test` does).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/custody.js', import.meta.url));
const COMPILED_CLI = fileURLToPath(new URL('../../dist/cli/custody.js', import.meta.url));

export interface CustodyRunOptions {
  /** Added to (and overriding) the test process's environment. */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed. Without it stdin is /dev/null. */
  input?: string;
  /** Working directory; defaults to the repository root. */
  cwd?: string;
  /** Run as this user (root only; see cli-as.ts). */
  runAs?: { uid: number; gid: number };
  /** Kill the process (SIGKILL) after this long; default 60 s. */
  timeoutMs?: number;
}

export interface CustodyRunResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

export function runCustody(
  args: string[],
  opts: CustodyRunOptions = {},
): Promise<CustodyRunResult> {
  if (!existsSync(COMPILED_CLI)) {
    return Promise.reject(new Error(`${COMPILED_CLI} is missing: run \`npm run build\` first`));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? REPO_ROOT,
      env: { ...process.env, CUSTODY_ACTOR: 'test-operator', ...opts.env },
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      shell: false,
      ...(opts.runAs === undefined ? {} : { uid: opts.runAs.uid, gid: opts.runAs.gid }),
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
    if (opts.input !== undefined && child.stdin) {
      // A CLI that exits before reading all of stdin is not an error here.
      child.stdin.on('error', () => undefined);
      child.stdin.end(opts.input);
    }
  });
}

/**
 * Runs the CLI in this process through `runCli` (src/cli/main.ts), with its I/O captured and
 * the environment given (a clean one by default: nothing from the test process leaks in).
 * Use it for most end-to-end tests: it skips the 2–4 s a subprocess pays to load every
 * library. Keep `runCustody` for exit codes of the real binary, signals, crashes and out-of-space.
 * Relative paths resolve against this process's cwd (the repository root under vitest).
 */
export async function runCustodyInProcess(
  args: string[],
  opts: { env?: Record<string, string> } = {},
): Promise<CustodyRunResult> {
  const { runCli } = await import('../../src/cli/main.js');
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, {
    stdout: (s) => stdout.push(s),
    stderr: (s) => stderr.push(s),
    isTty: false,
    env: { CUSTODY_ACTOR: 'test-operator', ...opts.env },
  });
  return { code, signal: null, stdout: stdout.join(''), stderr: stderr.join('') };
}
