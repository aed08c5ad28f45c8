import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The verifier's reference files that travel in every bag's root (LAYOUT.md). */
export const REFERENCE_FILES = ['VERIFY.md', 'verify_bag.py', 'verify.sh'] as const;

/** verify_bag.py's package: every `*.py` file in it travels as `custody_verify/<name>.py`. */
export const REFERENCE_PACKAGE = 'custody_verify';

/**
 * Where src/verify/reference/ is in this installation: the directory holding package.json,
 * found by walking up from this module (src/… when run from source, dist/src/… when built).
 */
export function referenceDir(from: string = import.meta.url): string | null {
  const root = packageRoot(from);
  return root === null ? null : join(root, 'src', 'verify', 'reference');
}

/** The nearest directory above `from` (a module URL) that holds a package.json. */
export function packageRoot(from: string = import.meta.url): string | null {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/**
 * The reference files present (bag name → path), and the names missing: the three files of
 * REFERENCE_FILES, then every `*.py` file of custody_verify/ (sorted; its `__init__.py` is
 * required, the rest is whatever the package holds, so a module added to it travels too).
 */
export function findReferenceFiles(dir: string | null = referenceDir()): {
  found: { name: string; path: string }[];
  missing: string[];
} {
  const found: { name: string; path: string }[] = [];
  const missing: string[] = [];
  for (const name of REFERENCE_FILES) {
    const path = dir === null ? null : join(dir, name);
    if (path !== null && existsSync(path)) found.push({ name, path });
    else missing.push(name);
  }
  const pkg = dir === null ? null : join(dir, REFERENCE_PACKAGE);
  const modules = pkg !== null && existsSync(join(pkg, '__init__.py')) ? readdirSync(pkg).filter((n) => /^[A-Za-z0-9_]+\.py$/.test(n)).sort() : [];
  if (pkg === null || modules.length === 0) missing.push(`${REFERENCE_PACKAGE}/__init__.py`);
  else for (const name of modules) found.push({ name: `${REFERENCE_PACKAGE}/${name}`, path: join(pkg, name) });
  return { found, missing };
}
