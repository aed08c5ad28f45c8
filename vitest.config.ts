import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { directPythonDir } from './test/support/python-direct.js';
import { isTmpfsWithRoom } from './test/support/tmpfs.js';

// Three projects (STYLE.md, Tooling):
//   unit    next to the code, pure and fast (unit-isolated: those of them that mock a module)
//   medium  real SQLite / PostgreSQL / sharp
//   e2e     the CLI end to end: in-process through runCli, subprocesses only for the real binary's
//           exit codes, signals, crashes and out-of-space; the server; the browser
// medium and e2e share test/support/global-setup.ts, which starts ONE throwaway
// PostgreSQL cluster per run (only when one of them has tests queued) and hands
// its admin URL to workers as CUSTODY_TEST_PG_URL.
const SLOW_TIMEOUT_MS = 120_000;
// Vitest's default is one worker less than the cores, which is ONE on CI's 2-core machine: every
// file would wait for the last. The e2e files spend much of their time waiting (fsync, scrypt in
// a subprocess, Chromium, PostgreSQL), so two workers overlap them. Each file has its own temp
// folders and databases; nothing in the suite is timed.
const WORKERS = Math.max(2, (await import('node:os')).availableParallelism() - 1);

// The tests' temp folders (TMPDIR, which the CLI's subprocesses, Chromium and the tests' own
// os.tmpdir() inherit, and where global-setup.ts puts the PostgreSQL cluster) on a RAM file
// system when one has room: an archive fsyncs every object,
// ledger append and folder, and an fsync that waits on the disk (~7 ms here) is time no test
// measures. What a test proves of a crash is a SIGKILL, which loses nothing the kernel holds, so
// on tmpfs it proves the same. Out of space has its own small tmpfs; the one test that could need
// gigabytes (large-file-memory, where its temp dir does not keep holes) uses
// CUSTODY_TEST_DISK_TMPDIR (test/support/tmp.ts diskTmpdir). Set
// CUSTODY_TEST_TMPDIR to choose the folder, or to '' to keep the OS temp dir.
const DISK_TMPDIR = tmpdir();
const TEST_TMPDIR =
  process.env.CUSTODY_TEST_TMPDIR ?? (isTmpfsWithRoom('/dev/shm', 4 * 1024 ** 3) ? '/dev/shm' : '');

// python3 without its version manager's shim, where there is one (test/support/python-direct.ts).
const PYTHON_DIR = directPythonDir(DISK_TMPDIR);

const UNIT = ['src/**/*.test.ts', 'ui/src/**/*.test.ts'];
/** The unit files that replace modules or globals (vi.mock and kin): they need a fresh module graph. */
const UNIT_MOCKING = ['src', 'ui/src']
  .flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `${dir}/${f}`),
  )
  .filter((f) => /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv|resetModules)\(/.test(readFileSync(f, 'utf8')))
  .sort();

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: WORKERS,
    env: {
      CUSTODY_TEST_DISK_TMPDIR: DISK_TMPDIR,
      ...(TEST_TMPDIR === '' ? {} : { TMPDIR: TEST_TMPDIR }),
      ...(PYTHON_DIR === null ? {} : { PATH: `${PYTHON_DIR}${delimiter}${process.env.PATH ?? ''}` }),
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          exclude: [...configDefaults.exclude, ...UNIT_MOCKING],
          // The unit files are small and pure: a worker runs one after another without
          // re-importing the modules they share (vitest's per-file fork and module reset cost
          // more than most of their tests). A file that replaces a module (vi.mock) would leak its
          // mock into the next file of the worker, so those run isolated, in unit-isolated.
          isolate: false,
        },
      },
      ...(UNIT_MOCKING.length === 0
        ? []
        : [{ extends: true as const, test: { name: 'unit-isolated', include: UNIT_MOCKING } }]),
      {
        extends: true,
        test: {
          name: 'medium',
          include: ['test/medium/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          // One module graph per worker, as e2e below (no medium file replaces a module or a global).
          isolate: false,
          // Each file's temp dirs removed after it (test/support/tmp.ts says why this is needed).
          setupFiles: ['test/support/temp-dirs.setup.ts'],
          testTimeout: SLOW_TIMEOUT_MS,
          hookTimeout: SLOW_TIMEOUT_MS,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          // A worker runs its e2e files one after another in one module graph, as unit does: each
          // file imported the whole application again (vitest's "import", all projects: 159 s in
          // the CI run on f4fb17f; e2e alone, with this: 25 s in a loaded run). The files share no
          // state through it: each makes its own archives, databases and servers in its own temp
          // folders and closes them, none replaces a module but the scrypt memo (its setup file
          // says why that changes no result), and the few spies are restored after each test.
          isolate: false,
          setupFiles: [
            'test/support/temp-dirs.setup.ts',
            'test/support/scrypt-memo.setup.ts',
            'test/support/argon2-memo.setup.ts',
          ],
          testTimeout: SLOW_TIMEOUT_MS,
          hookTimeout: SLOW_TIMEOUT_MS,
          // A page that is slow to render on a loaded machine (2 cores shared) is not a failure:
          // expect.poll waits up to 15 s rather than vitest's 1 s before it reports one.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
