// The build's last server step: bundles the compiled CLI (dist/src, which tsc has just written)
// into dist/cli, the code bin/custody.js runs.
//
//   node scripts/bundle-cli.mjs
//
// Why: Node 20's module loader pays for every file. Unbundled, `custody verify` resolved, read and
// compiled some 750 files (577 of them kysely's) before doing any work: about 0.25 s of CPU at
// every command's start, and every test that runs the real binary pays it again. Bundled, a
// command loads its own chunk and the chunks it shares, and starts in under half the CPU.
//
// What is bundled: the CLI's own modules, and kysely (pure JavaScript, by far the most files).
// Every other package stays external, loaded from node_modules as before: the native ones
// (better-sqlite3, sharp, argon2, fs-native-extensions), those that find their own files on disk
// (ExifTool, Playwright, c2pa's WebAssembly, the Swagger UI's assets) and the rest, so that no
// package runs from a place it was not written for.
//
// The lazy commands stay lazy: each `load: () => import(...)` becomes a chunk, and a command
// loads only the chunks it needs (test/e2e/startup-imports.test.ts checks this through
// dist/cli/modules.json, the list of the modules in each chunk that this script writes).
//
// `import.meta.url` keeps its meaning: in each of our modules it is rewritten to the URL of that
// module's compiled file in dist/src, which stays where tsc wrote it. So the worker threads'
// modules (compare-all.js, crop-match.js), package.json and dist/ui are found as before.
import { rm, writeFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const COMPILED = resolve(ROOT, 'dist/src');
const OUT = resolve(ROOT, 'dist/cli');

// kysely.adapter.ts loads kysely's CommonJS build with a runtime require (cheaper than its ES
// module build when nothing is bundled); in the bundle, kysely is imported and inlined instead.
const KYSELY_REQUIRE = "createRequire(import.meta.url)('kysely')";
const BUNDLED_PACKAGES = ['kysely'];

function isBundledPackage(id) {
  return BUNDLED_PACKAGES.some((p) => id === p || id.startsWith(`${p}/`));
}

const moduleUrls = {
  name: 'custody-module-urls',
  transform(code, id) {
    if (!id.startsWith(COMPILED + sep)) return null;
    let out = code;
    if (id.endsWith(`${sep}db${sep}kysely.adapter.js`)) {
      if (!out.includes(KYSELY_REQUIRE)) {
        throw new Error(
          `${id} no longer contains ${KYSELY_REQUIRE}: update scripts/bundle-cli.mjs`,
        );
      }
      out = `import * as bundledKysely from 'kysely';\n${out.replace(KYSELY_REQUIRE, 'bundledKysely')}`;
    }
    const rel = relative(OUT, id).split(sep).join('/');
    out = out.replace(
      /\bimport\.meta\.url\b/g,
      `new URL(${JSON.stringify(rel)}, import.meta.url).href`,
    );
    return out === code ? null : { code: out, map: null };
  },
};

await rm(OUT, { recursive: true, force: true });
const result = await build({
  input: { custody: resolve(COMPILED, 'cli/main.js') },
  platform: 'node',
  external: (id) => !(id.startsWith('.') || id.startsWith('/') || isBundledPackage(id)),
  plugins: [moduleUrls],
  output: {
    dir: OUT,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    sourcemap: false,
  },
  logLevel: 'warn',
});

const modules = {};
for (const file of result.output) {
  if (file.type !== 'chunk') continue;
  modules[file.fileName] = file.moduleIds
    .filter((m) => !m.startsWith('\0'))
    .map((m) => relative(ROOT, m).split(sep).join('/'));
}
await writeFile(resolve(OUT, 'modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
