// Rewrites every import that reaches past another module's entry point so that it goes
// through that folder's index.ts, and adds the re-export to the index.ts (creating it when the
// folder has none). Idempotent: run it again after a merge brings new deep imports, then
// `npm run check` and `npm run lint`.
//
//   node scripts/entry-point-imports.mjs          rewrite
//   node scripts/entry-point-imports.mjs --check  list what it would rewrite, change nothing
//
// The rule it serves is rule 1 of layering.config.js (entry points): a module (a folder under
// src/) is imported from outside only through an index.ts (its own or a sub-folder's) or one
// of its services (*.service.ts). Services are imported by their own file, not re-exported, so
// that a command loads only the services it calls (a fat index.ts made every command load
// sharp). Adapters and repositories are never re-exported: only the composition root
// (src/app.ts), cli/ and other adapters import them.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';

const SRC = 'src';
const check = process.argv.includes('--check');

/** Every .ts file under src/, as a path relative to the repository root. */
function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The top-level module a file belongs to (src/<module>/...), or null for src/app.ts and the like. */
function moduleOf(path) {
  const parts = path.split(sep);
  return parts.length > 2 ? parts[1] : null;
}

const isAdapter = (path) => /\.(adapter|repository)\.ts$/.test(path);
const isService = (path) => /\.service\.ts$/.test(path);
const isIndex = (path) => basename(path) === 'index.ts';
const posix = (path) => path.split(sep).join('/');

/** Import and export specifiers: `from '...'`, `import '...'`, `import('...')`. */
const SPECIFIER = /(\bfrom\s+|\bimport\s+|\bimport\(\s*)'(\.{1,2}\/[^']+\.js)'/g;

const barrels = new Map(); // index.ts path -> set of './file.js' it must re-export
let rewrites = 0;

for (const file of listFiles(SRC)) {
  const from = moduleOf(file);
  const text = readFileSync(file, 'utf8');
  const next = text.replace(SPECIFIER, (whole, lead, spec) => {
    const target = join(dirname(file), spec).replace(/\.js$/, '.ts');
    const to = moduleOf(target);
    if (
      !target.startsWith(`${SRC}${sep}`) ||
      to === null ||
      to === from ||
      isIndex(target) ||
      isAdapter(target) ||
      isService(target)
    )
      return whole;
    if (!existsSync(target)) return whole; // a folder import or a typo: tsc will say
    const index = join(dirname(target), 'index.ts');
    const wanted = barrels.get(index) ?? new Set();
    wanted.add(`./${basename(target).replace(/\.ts$/, '.js')}`);
    barrels.set(index, wanted);
    let rel = posix(relative(dirname(file), index)).replace(/\.ts$/, '.js');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    rewrites += 1;
    if (check) console.log(`${file}: ${spec} -> ${rel}`);
    return `${lead}'${rel}'`;
  });
  if (!check && next !== text) writeFileSync(file, mergeIndexImports(next));
}

/**
 * Merges the named imports that now come from the same index.js into one statement, in the
 * layout Prettier gives it (printWidth 100, trailing commas).
 */
function mergeIndexImports(text) {
  const NAMED = /^import (type )?\{([^}]*)\} from '([^']+\/index\.js)';\n/gm;
  const bySpec = new Map();
  for (const m of text.matchAll(NAMED)) {
    const list = bySpec.get(m[3]) ?? [];
    list.push(m);
    bySpec.set(m[3], list);
  }
  let out = text;
  for (const [spec, matches] of bySpec) {
    if (matches.length < 2) continue;
    const allTypes = matches.every((m) => m[1] !== undefined);
    const names = [];
    for (const m of matches) {
      for (const raw of m[2]
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)) {
        const name = m[1] !== undefined && !allTypes ? `type ${raw}` : raw;
        if (!names.includes(name)) names.push(name);
      }
    }
    const head = `import ${allTypes ? 'type ' : ''}{`;
    const oneLine = `${head} ${names.join(', ')} } from '${spec}';`;
    const merged =
      oneLine.length <= 100
        ? `${oneLine}\n`
        : `${head}\n${names.map((n) => `  ${n},\n`).join('')}} from '${spec}';\n`;
    out = out.replace(matches[0][0], merged);
    for (const m of matches.slice(1)) out = out.replace(m[0], '');
  }
  return out;
}

for (const [index, wanted] of [...barrels].sort(([a], [b]) => a.localeCompare(b))) {
  const existing = existsSync(index) ? readFileSync(index, 'utf8') : null;
  const missing = [...wanted]
    .sort()
    .filter((spec) => existing === null || !existing.includes(`from '${spec}'`));
  if (missing.length === 0) continue;
  if (check) {
    console.log(`${index}: re-export ${missing.join(', ')}`);
    continue;
  }
  const header =
    existing ??
    `// The public surface of ${posix(dirname(index))}/ for other modules, who import this file or a\n` +
      `// service by its own file (layering.config.js, rule 1). Services and adapters are not\n` +
      `// re-exported: a command loads only the services it calls, and the composition root\n` +
      `// (src/app.ts) builds the adapters.\n`;
  writeFileSync(
    index,
    header.replace(/\n*$/, '\n') + missing.map((spec) => `export * from '${spec}';\n`).join(''),
  );
}

console.log(`${check ? 'would rewrite' : 'rewrote'} ${rewrites} imports`);
