// Small tmpfs mounts for out-of-space tests. Mounting needs root (CAP_SYS_ADMIN); the probe
// says why it cannot be done so that a test can skip with that reason. And whether a folder is
// on a tmpfs with room (vitest.config.ts's RAM temp dir, large-file-memory's choice of folder).
import { spawnSync } from 'node:child_process';
import { statfsSync } from 'node:fs';
import { cp, mkdir, rm, statfs, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

function run(cmd: string, args: string[]): { ok: boolean; output: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return {
    ok: r.status === 0,
    output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error?.message ?? ''}`.trim(),
  };
}

/** Null when a tmpfs can be mounted here, else the reason it cannot. */
export async function tmpfsUnavailable(probeDir: string): Promise<string | null> {
  if (process.platform !== 'linux') return `tmpfs mounts need Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root (CI runs these tests as root)';
  await mkdir(probeDir, { recursive: true });
  const m = run('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probeDir]);
  if (!m.ok) return `mount -t tmpfs failed (${m.output}): no CAP_SYS_ADMIN in this container?`;
  run('umount', [probeDir]);
  return null;
}

/** statfs's type for a tmpfs (linux/magic.h). */
const TMPFS_MAGIC = 0x01021994;

/** Whether `dir` is on a tmpfs with at least `bytes` free (false when it cannot be read). */
export function isTmpfsWithRoom(dir: string, bytes: number): boolean {
  try {
    const s = statfsSync(dir);
    return s.type === TMPFS_MAGIC && s.bavail * s.bsize >= bytes;
  } catch {
    return false;
  }
}

export function mountTmpfs(dir: string, size: string): void {
  const m = run('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  if (!m.ok) throw new Error(`mount tmpfs on ${dir} failed: ${m.output}`);
}

export function resizeTmpfs(dir: string, size: string): void {
  const m = run('mount', ['-o', `remount,size=${size}`, dir]);
  if (!m.ok) throw new Error(`remount of ${dir} failed: ${m.output}`);
}

/** Unmounts, lazily if something still holds the mount; never throws (used in afterAll). */
export function unmountTmpfs(dir: string): void {
  if (!run('umount', [dir]).ok) run('umount', ['-l', dir]);
}

export async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

/** Fills the file system at `dir` until only `leaveBytes` are free; returns the filler's path. */
export async function fillUpTo(dir: string, leaveBytes: number): Promise<string> {
  const filler = join(dir, 'filler');
  const size = (await freeBytes(dir)) - leaveBytes;
  if (size > 0) await writeFile(filler, Buffer.alloc(size));
  return filler;
}

/**
 * Moves `names` (files or folders of the archive) onto the mount and leaves a symbolic link
 * in the place of each, so the archive keeps working but that part lives on the small disk.
 */
export async function moveOntoMount(
  archive: string,
  names: readonly string[],
  mount: string,
): Promise<void> {
  for (const name of names) {
    const from = join(archive, name);
    const to = join(mount, name);
    await cp(from, to, { recursive: true, preserveTimestamps: true });
    await rm(from, { recursive: true, force: true });
    await symlink(to, from);
  }
}
