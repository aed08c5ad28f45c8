// Running the CLI as another user (root ignores file permissions, so an "unreadable file"
// test must drop to an unprivileged user such as `nobody`). Same contract as runCustody.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runCustody, type CustodyRunOptions, type CustodyRunResult } from './cli.js';

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
  return runCustody(args, runAs === null ? opts : { ...opts, runAs });
}
