// Running the CLI as another user (root ignores file permissions, so an "unreadable file"
// test must drop to an unprivileged user such as `nobody`). Same contract as runCustody.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT, runCustody, type CustodyRunOptions, type CustodyRunResult } from './cli.js';

const BIN = fileURLToPath(new URL('../../bin/custody.js', import.meta.url));

export interface RunAs {
  uid: number;
  gid: number;
}

/** The uid/gid of `nobody` (65534) when this process may switch to it and it can run the CLI, else why not. */
export function dropPrivilegesTo(user: RunAs = { uid: 65534, gid: 65534 }): {
  runAs: RunAs | null;
  reason: string | null;
} {
  if (process.getuid?.() !== 0) return { runAs: null, reason: null }; // not root: permissions already apply
  const probe = spawnSync(
    process.execPath,
    ['-e', `require('node:fs').readFileSync(${JSON.stringify(BIN)})`],
    {
      uid: user.uid,
      gid: user.gid,
      encoding: 'utf8',
    },
  );
  if (probe.status !== 0) {
    return {
      runAs: null,
      reason: `cannot run the CLI as uid ${user.uid}: ${probe.error?.message ?? probe.stderr.trim()}`,
    };
  }
  return { runAs: user, reason: null };
}

/** runCustody, as `runAs` when given. */
export function runCustodyAs(
  args: string[],
  runAs: RunAs | null,
  opts: CustodyRunOptions = {},
): Promise<CustodyRunResult> {
  if (runAs === null) return runCustody(args, opts);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? REPO_ROOT,
      env: { ...process.env, CUSTODY_ACTOR: 'test-operator', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      uid: runAs.uid,
      gid: runAs.gid,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
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
  });
}
