import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  findReferenceFiles,
  packageRoot,
  referenceDir,
  REFERENCE_FILES,
} from './reference-files.adapter.js';

describe('reference verifier files', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('finds the package root by walking up from a module, as from dist/src/… once built', async () => {
    const root = await mkdtemp(join(tmpdir(), 'custody-ref-'));
    dirs.push(root);
    await writeFile(join(root, 'package.json'), '{}');
    const module = join(root, 'dist', 'src', 'reports', 'export', 'x.js');
    await mkdir(join(module, '..'), { recursive: true });
    expect(packageRoot(pathToFileURL(module).href)).toBe(root);
    expect(referenceDir(pathToFileURL(module).href)).toBe(join(root, 'src', 'verify', 'reference'));
  });

  it('lists the files present and the ones missing (placeholders made here, never in src)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'custody-ref-'));
    dirs.push(dir);
    await writeFile(join(dir, 'VERIFY.md'), 'placeholder');
    await writeFile(join(dir, 'verify.sh'), 'placeholder');
    expect(findReferenceFiles(dir)).toEqual({
      found: [
        { name: 'VERIFY.md', path: join(dir, 'VERIFY.md') },
        { name: 'verify.sh', path: join(dir, 'verify.sh') },
      ],
      missing: ['verify_bag.py', 'custody_verify/__init__.py'],
    });
    expect(findReferenceFiles(null).missing).toEqual([...REFERENCE_FILES, 'custody_verify/__init__.py']);
  });

  it('carries every module of the custody_verify package, and nothing else from it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'custody-ref-'));
    dirs.push(dir);
    for (const f of REFERENCE_FILES) await writeFile(join(dir, f), 'placeholder');
    await mkdir(join(dir, 'custody_verify', '__pycache__'), { recursive: true });
    for (const f of ['__init__.py', 'stats.py', 'bag.py', 'notes.txt', '__pycache__/bag.cpython-312.pyc'])
      await writeFile(join(dir, 'custody_verify', f), 'placeholder');
    const { found, missing } = findReferenceFiles(dir);
    expect(missing).toEqual([]);
    expect(found.map((f) => f.name)).toEqual([
      ...REFERENCE_FILES,
      'custody_verify/__init__.py',
      'custody_verify/bag.py',
      'custody_verify/stats.py',
    ]);
  });

  const real = referenceDir();
  it.skipIf(real === null || !existsSync(join(real, 'verify_bag.py')))(
    'finds all three and the custody_verify package in this repository',
    () => {
      expect(findReferenceFiles().missing).toEqual([]);
      expect(findReferenceFiles().found.map((f) => f.name)).toContain('custody_verify/tables.py');
    },
  );
});
