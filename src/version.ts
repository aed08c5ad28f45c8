// The code version recorded with every statistic and report: the package version, read once
// from package.json next to the compiled tree (dist/src/version.js → ../../package.json) or the
// sources (src/version.ts → ../package.json under vitest).
import { readFileSync } from 'node:fs';

function readVersion(): string {
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'custody' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // try the next layout
    }
  }
  return 'unknown';
}

export const CODE_VERSION = `custody ${readVersion()}`;
