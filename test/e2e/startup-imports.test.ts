// Start-up (issue 12): a command loads only the libraries it uses. The real binary runs in a
// subprocess under a recorder that notes every module Node loads: each ES module resolution (a
// resolve hook registered with --import) and, at exit, every CommonJS module in require.cache,
// which also catches what a CommonJS package requires inside itself. Nothing here is timed: the
// start-up time itself is measured by `BENCH_ONLY=startup npm run bench`.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLEAN_ENV, custodyInExpect } from '../support/archive-fixtures.js';
import { REPO_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

/** The heavy libraries, each wrapped in the one adapter that needs it. */
const HEAVY = ['sharp', 'exiftool-vendored', 'pg', 'playwright-core', 'vega', 'vega-lite', '@contentauth/c2pa-wasm'];

const HOOKS = `
import { appendFileSync } from 'node:fs';
let out = null;
export async function initialize(data) { out = data.file; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(out, r.url + '\\n');
  return r;
}
`;

// Registers the hooks, and lists the CommonJS modules when the process exits (also on
// process.exit, which bin/custody.js does not call, and on an uncaught error).
const REGISTER = `
import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
const file = process.env.STARTUP_TRACE_FILE;
register(new URL('./hooks.mjs', import.meta.url), { data: { file } });
const require = createRequire(import.meta.url);
process.on('exit', () => {
  appendFileSync(file, Object.keys(require.cache).map((p) => 'file://' + p + '\\n').join(''));
});
`;

let dir: string;
let archive: string;

beforeAll(async () => {
  dir = await makeTempDir('custody-startup-');
  await writeFile(join(dir, 'hooks.mjs'), HOOKS);
  await writeFile(join(dir, 'register.mjs'), REGISTER);
  archive = join(dir, 'archive');
  await custodyInExpect(0, ['init', '--archive', archive, '--json']);
});

let runs = 0;

/** Runs `node [node args] bin/custody.js args` (or `node node args` when `args` is null) under the recorder. */
async function traced(args: string[] | null, nodeArgs: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string; files: string[]; loaded: string[] }> {
  const trace = join(dir, `trace-${++runs}.txt`);
  await writeFile(trace, '');
  const argv = ['--import', join(dir, 'register.mjs'), ...nodeArgs, ...(args === null ? [] : [join(REPO_ROOT, 'bin/custody.js'), ...args])];
  const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...CLEAN_ENV, CUSTODY_ACTOR: 'test-operator', STARTUP_TRACE_FILE: trace },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  const files = [...new Set((await readFile(trace, 'utf8')).split('\n').filter((l) => l !== ''))];
  return { ...r, files, loaded: await bundledModules(files) };
}

const BUNDLE = pathToFileURL(join(REPO_ROOT, 'dist/cli/')).href;

/**
 * The modules behind the loaded files: each chunk of the bundled CLI (dist/cli, see
 * scripts/bundle-cli.mjs) stands for the modules the bundler put in it, as file URLs of where they
 * were compiled (dist/src/…) or installed (node_modules/kysely/…); other files stand for themselves.
 */
async function bundledModules(files: string[]): Promise<string[]> {
  const chunks = JSON.parse(await readFile(join(REPO_ROOT, 'dist/cli/modules.json'), 'utf8')) as Record<string, string[]>;
  return files.flatMap((url) => {
    if (!url.startsWith(BUNDLE)) return [url];
    const modules = chunks[url.slice(BUNDLE.length)];
    if (modules === undefined) throw new Error(`${url} is not in dist/cli/modules.json: run npm run build`);
    return modules.map((m) => pathToFileURL(join(REPO_ROOT, m)).href);
  });
}

/** The packages under node_modules among the loaded modules (`@scope/name` or `name`). */
function packages(loaded: string[]): Set<string> {
  const out = new Set<string>();
  for (const url of loaded) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m?.[1] !== undefined) out.add(m[1]);
  }
  return out;
}

describe('start-up loads only what the command uses', () => {
  it('the recorder sees heavy libraries when they are loaded, through import and inside CommonJS', async () => {
    // The control: without it, a recorder that saw nothing would pass every test below.
    const r = await traced(null, ['--input-type=module', '-e', "await import('sharp'); await import('pg'); await import('exiftool-vendored');"]);
    expect(r.code, r.stderr).toBe(0);
    const seen = packages(r.loaded);
    for (const name of ['sharp', 'pg', 'exiftool-vendored']) expect(seen, name).toContain(name);
    // pg-pool and pg-types are required by pg's CommonJS code, never imported: only require.cache shows them.
    expect(seen).toContain('pg-pool');
  });

  it('custody key --public loads none of the heavy libraries, no database driver and not the composition root: it reads the key, the ledger and the checkpoints as files', async () => {
    const r = await traced(['key', '--public', '--archive', archive]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^custody\.invalid\/archive\/[0-9a-z]+\+[0-9a-f]{8}\+/);
    expect(r.loaded.some((u) => u.endsWith('/dist/src/cli/key.command.js'))).toBe(true);
    expect(r.loaded.some((u) => u.endsWith('/dist/src/app.js'))).toBe(false);
    const seen = packages(r.loaded);
    for (const name of [...HEAVY, 'kysely', 'better-sqlite3']) expect(seen, `${name} loaded by key --public`).not.toContain(name);
  });

  it('custody --help loads no library at all, and no command', async () => {
    const r = await traced(['--help']);
    expect(r.code, r.stderr).toBe(0);
    // The binary runs the bundle (scripts/bundle-cli.mjs), not the separately compiled files.
    expect(r.files).toContain(`${BUNDLE}custody.js`);
    expect(r.files.filter((u) => u.includes('/dist/src/'))).toEqual([]);
    expect(r.stdout).toContain('usage: custody <command>');
    expect(r.loaded.some((u) => u.endsWith('/dist/src/cli/main.js'))).toBe(true);
    expect([...packages(r.loaded)]).toEqual([]);
    expect(r.loaded.filter((u) => u.endsWith('.command.js'))).toEqual([]);
  });

  it('custody log --json on a SQLite archive loads none of the heavy libraries', async () => {
    const r = await traced(['log', '--json', '--archive', archive]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l !== '').length).toBeGreaterThan(0);
    const seen = packages(r.loaded);
    for (const name of HEAVY) expect(seen, `${name} loaded by log`).not.toContain(name);
    // The control for the bundle: kysely is inlined into a chunk, and is still seen through it.
    expect(seen).toContain('kysely');
  });

  it('custody verify-export and interval, which open no archive, load no database driver', async () => {
    for (const [args, code] of [[['verify-export', join(dir, 'no-such-bag')], 2], [['interval', '--successes', '3', '--trials', '10'], 0]] as const) {
      const r = await traced([...args]);
      expect(r.code, r.stderr).toBe(code);
      expect(r.loaded.some((u) => u.includes(`/dist/src/cli/${args[0] ?? ''}.command.js`)), args.join(' ')).toBe(true);
      const seen = packages(r.loaded);
      for (const name of [...HEAVY, 'kysely', 'better-sqlite3', 'fs-native-extensions']) expect(seen, `${name} loaded by ${args.join(' ')}`).not.toContain(name);
    }
  });
});
