// Temporary directories for tests, removed after the test file that made them.
// The removal is armed per file by test/support/temp-dirs.setup.ts, which every project that
// makes temp dirs lists in its setupFiles: medium and e2e run a worker's files in one module
// graph (isolate: false), so an afterAll registered when this module is first imported would
// fire for the worker's first file only, and every later file's folders would stay behind (about
// 600 folders, archives and corpora included, per run, on a RAM file system). makeTempDir refuses
// to make a folder that no hook will remove.
// Set CUSTODY_KEEP_TMP=1 to keep them for a post-mortem.
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const keep = process.env.CUSTODY_KEEP_TMP === '1';
/** Dirs made by the running test file. */
const made = new Set<string>();
/** Whether the running test file has the removal hook (armTempDirRemoval). */
let armed = false;
/** Dirs made in this worker process, for removal at exit if a file is cut short. */
const everywhere = workerRegistry();

function workerRegistry(): Set<string> {
  const key = Symbol.for('custody.test.tmp');
  const g = globalThis as typeof globalThis & { [key: symbol]: Set<string> | undefined };
  let dirs = g[key];
  if (!dirs) {
    const created = new Set<string>();
    process.once('exit', () => {
      if (keep) return;
      for (const dir of created) rmSync(dir, { recursive: true, force: true });
    });
    g[key] = dirs = created;
  }
  return dirs;
}

/**
 * The temp dir on disk. The run's temp dir (TMPDIR) may be a RAM file system (vitest.config.ts);
 * a test that needs gigabytes of room makes its folders here instead.
 */
export function diskTmpdir(): string {
  return process.env.CUSTODY_TEST_DISK_TMPDIR || tmpdir();
}

/** Make a fresh directory under the OS temp dir (or `base`); it is removed after this test file. */
export async function makeTempDir(prefix: string, base = tmpdir()): Promise<string> {
  if (!armed) {
    throw new Error(
      'makeTempDir: no hook removes temp dirs in this test file; list ' +
        "'test/support/temp-dirs.setup.ts' in the vitest project's setupFiles",
    );
  }
  const safe = prefix.replace(/[^A-Za-z0-9._-]/g, '-');
  const dir = await mkdtemp(join(base, `custody-${safe}-`));
  made.add(dir);
  everywhere.add(dir);
  return dir;
}

/** Remove every directory made so far (what the afterAll hook does). */
export async function removeTempDirs(): Promise<void> {
  if (keep) {
    if (made.size > 0) console.log(`[custody tests] kept temp dirs:\n  ${[...made].join('\n  ')}`);
    for (const dir of made) everywhere.delete(dir);
    made.clear();
    return;
  }
  const dirs = [...made];
  made.clear();
  for (const dir of dirs) everywhere.delete(dir);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

/** What support modules keep per test file (see onTestFileEnd). */
const fileEndHooks: (() => Promise<void> | void)[] = [];

/**
 * Runs `hook` at the end of every test file, before its temp dirs are removed. For a support
 * module that keeps something for one test file (server.ts's template archives): an afterAll in
 * the module itself would run for the worker's first file only, since the files of a worker share
 * one module graph (isolate: false).
 */
export function onTestFileEnd(hook: () => Promise<void> | void): void {
  fileEndHooks.push(hook);
}

/**
 * Registers the removal on the test file being collected: call it from a setup file, which
 * vitest runs before each test file, also when the files of a worker share one module graph.
 */
export function armTempDirRemoval(): void {
  armed = true;
  afterAll(async () => {
    try {
      for (const hook of fileEndHooks) await hook();
    } finally {
      armed = false;
      await removeTempDirs();
    }
  });
}
