// test/support/python-direct.ts: the tests' PATH gets python3 without a version manager's shim,
// and only when the PATH's python3 is a shim.
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { chmod, mkdir, readlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directPythonDir } from '../support/python-direct.js';
import { makeTempDir } from '../support/tmp.js';

const asked = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], {
  encoding: 'utf8',
});
const interpreter = asked.status === 0 ? asked.stdout.trim() : '';

describe.skipIf(interpreter === '')('python3 without its shim (no python3 here)', () => {
  it('a shim on the PATH is bypassed by a link to the interpreter it runs, which answers as python3', async () => {
    const base = await makeTempDir('python-direct-');
    const shims = join(base, 'shims');
    await mkdir(shims);
    await writeFile(
      join(shims, 'python3'),
      `#!/bin/sh\nexec ${JSON.stringify(interpreter)} "$@"\n`,
    );
    await chmod(join(shims, 'python3'), 0o755);
    const dir = directPythonDir(base, `${join(base, 'nothing-here')}:${shims}`);
    expect(dir).not.toBeNull();
    expect(await readlink(join(dir!, 'python3'))).toBe(interpreter);
    const r = spawnSync(join(dir!, 'python3'), ['-c', 'print(6 * 7)'], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('42');
  });

  it('the interpreter itself on the PATH, or no python3 at all, changes nothing', async () => {
    const base = await makeTempDir('python-direct-');
    expect(directPythonDir(base, dirname(interpreter))).toBeNull();
    expect(directPythonDir(base, join(base, 'empty'))).toBeNull();
  });

  it('in this run the python3 the tests find on their PATH is the interpreter itself (vitest.config.ts)', () => {
    const found = spawnSync('sh', ['-c', 'command -v python3'], { encoding: 'utf8' }).stdout.trim();
    expect(realpathSync(found)).toBe(realpathSync(interpreter));
  });
});
