// The tests run python3 (verify_bag.py, redraw-sample.py, zipfile) some hundred times a run. Where
// `python3` on the PATH is a version manager's shim (pyenv's is a bash script that asks pyenv which
// interpreter to run) each call paid for that bash as well: about 0.06 s of CPU against 0.03 s
// for the interpreter itself. vitest.config.ts asks once which interpreter the shim runs and puts a
// folder with a `python3` link to it first on the tests' PATH. The interpreter is the same one, so
// no result changes; where `python3` is the interpreter itself (Debian, CI), nothing is done.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first `python3` on `path` that may be executed, or null. */
function onPath(path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'python3');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * A new folder under `base` holding only `python3`, a link to the interpreter that the PATH's
 * `python3` runs, when that `python3` is a shim; null when it is the interpreter, or there is none.
 * The folder is removed when this process exits.
 */
export function directPythonDir(base: string, path = process.env.PATH ?? ''): string | null {
  const shim = onPath(path);
  if (shim === null) return null;
  const r = spawnSync(shim, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const interpreter = r.status === 0 ? r.stdout.trim() : '';
  if (interpreter === '') return null;
  if (realpathSync(shim) === realpathSync(interpreter)) return null;
  const dir = mkdtempSync(join(base, 'custody-test-python-'));
  symlinkSync(interpreter, join(dir, 'python3'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
