// Rewrites test/support/test-durations.json (the order of test/support/sequencer.ts) from the
// durations vitest recorded for the last run in its cache (node_modules/.vite/vitest/*/results.json),
// or from the results.json given as the argument. Run it after a full `npm test`; a partial run
// keeps the older figure of every file it did not run. Files that no longer exist are dropped.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const target = join(root, 'test', 'support', 'test-durations.json');
const cacheRoot = join(root, 'node_modules', '.vite', 'vitest');
const source =
  process.argv[2] ??
  readdirSync(cacheRoot)
    .map((d) => join(cacheRoot, d, 'results.json'))
    .find((p) => existsSync(p));
if (source === undefined) throw new Error(`no vitest results.json under ${cacheRoot}`);

const list = JSON.parse(readFileSync(target, 'utf8'));
for (const [key, { duration }] of JSON.parse(readFileSync(source, 'utf8')).results) {
  if (typeof duration === 'number' && duration > 0) list[key] = Math.round(duration);
}
const entries = Object.entries(list).filter(([key]) => existsSync(join(root, key.slice(key.indexOf(':') + 1))));
entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
writeFileSync(target, `${JSON.stringify(Object.fromEntries(entries), null, 1)}\n`);
console.log(`${target}: ${entries.length} files, from ${source}`);
