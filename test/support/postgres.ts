// Throwaway PostgreSQL for the medium and e2e suites, and `describeDatabases`,
// which registers one contract suite against every database Custody supports.
//
// One cluster serves the whole run: test/support/global-setup.ts starts it and
// publishes its admin URL as CUSTODY_TEST_PG_URL (environment, inherited by the
// forked workers) and as the provided value `custodyPgUrl`. Each suite then asks
// for its own database with `createTestDatabase`, so files can run in parallel.
//
// Policy when PostgreSQL is not installed: outside CI the PostgreSQL half of the
// suites is skipped with a stated reason; with CI=true it is a hard failure.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, appendFileSync, constants, readdirSync, readFileSync, rmSync } from 'node:fs';
import { chown, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, inject, it } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's throwaway cluster, or null when PostgreSQL is skipped. */
    custodyPgUrl: string | null;
  }
}

/** Environment variable carrying the admin URL. Set it yourself to use an existing server. */
export const PG_URL_ENV = 'CUSTODY_TEST_PG_URL';

export const SKIP_MESSAGE =
  'PostgreSQL not installed: skipping the PostgreSQL half of the repository contract suites; ' +
  'install with scripts/install-system-deps.sh';

// Overridable so the skip/fail policy itself can be exercised on a machine that has PostgreSQL.
const DEBIAN_PG_ROOT = process.env.CUSTODY_PG_LIB_DIR ?? '/usr/lib/postgresql';

interface PgBinaries {
  version: string;
  bindir: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

export interface ThrowawayPostgres {
  url: string;
  stop: () => Promise<void>;
}

export interface TestDatabase {
  url: string;
  drop: () => Promise<void>;
}

export function isCi(): boolean {
  return process.env.CI === 'true';
}

/** Highest-versioned Debian PostgreSQL with both initdb and pg_ctl, or null. */
function findPgBinaries(): PgBinaries | null {
  let versions: string[];
  try {
    versions = readdirSync(DEBIAN_PG_ROOT);
  } catch {
    return null;
  }
  const usable = versions
    .filter((v) => /^\d+(\.\d+)?$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => ({ version, bindir: join(DEBIAN_PG_ROOT, version, 'bin') }))
    .filter(
      ({ bindir }) => isExecutable(join(bindir, 'initdb')) && isExecutable(join(bindir, 'pg_ctl')),
    );
  return usable[0] ?? null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** initdb refuses to run as root, so as root we run the cluster as the `postgres` OS user. */
function lookUpRunAs(): RunAs | null | 'missing-user' {
  if (process.getuid?.() !== 0) return null;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return 'missing-user';
  }
}

/**
 * Whether the PostgreSQL half of the suites can run here, and why not.
 * An externally supplied CUSTODY_TEST_PG_URL counts as available.
 */
export function postgresAvailable(): { ok: boolean; reason: string } {
  if (process.env[PG_URL_ENV]) return { ok: true, reason: `using ${PG_URL_ENV}` };
  const bins = findPgBinaries();
  if (!bins) return { ok: false, reason: SKIP_MESSAGE };
  if (lookUpRunAs() === 'missing-user') {
    return {
      ok: false,
      reason: `PostgreSQL ${bins.version} found, but running as root and there is no 'postgres' OS user to run initdb as`,
    };
  }
  return { ok: true, reason: `PostgreSQL ${bins.version} at ${bins.bindir}` };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function run(cmd: string, args: string[], runAs: RunAs | null, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(runAs ?? {}),
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${code ?? signal}):\n${output}`));
    });
  });
}

function readLogTail(logFile: string): string {
  try {
    return readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no server log)';
  }
}

/**
 * Start a private PostgreSQL cluster in a fresh temp dir (under `tmpBase`, else the OS temp dir),
 * listening only on 127.0.0.1 with trust authentication and durability switched off for speed.
 * `stop()` shuts it down and removes the directory; so does process exit.
 */
export async function startThrowawayPostgres(tmpBase = tmpdir()): Promise<ThrowawayPostgres> {
  const bins = findPgBinaries();
  if (!bins) throw new Error(SKIP_MESSAGE);
  const runAs = lookUpRunAs();
  if (runAs === 'missing-user') throw new Error(postgresAvailable().reason);

  const root = await mkdtemp(join(tmpBase, 'custody-pg-'));
  if (runAs) await chown(root, runAs.uid, runAs.gid);
  const dataDir = join(root, 'data');
  const logFile = join(root, 'server.log');
  const initdb = join(bins.bindir, 'initdb');
  const pgCtl = join(bins.bindir, 'pg_ctl');

  const removeAll = (): void => rmSync(root, { recursive: true, force: true });
  const stopSync = (): void => {
    spawnSync(pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], {
      cwd: root,
      stdio: 'ignore',
      ...(runAs ?? {}),
    });
    removeAll();
  };

  try {
    // -U postgres: the same superuser name whoever runs the tests.
    const initArgs = ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'];
    await run(initdb, [...initArgs, '--no-locale'], runAs, root);
  } catch (error) {
    removeAll();
    throw error;
  }

  // A free port can be taken between probing and binding; try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    appendFileSync(
      join(dataDir, 'postgresql.conf'),
      [
        '',
        '# custody throwaway test cluster',
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        `unix_socket_directories = '${root}'`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        'max_connections = 200',
        '',
      ].join('\n'),
    );
    try {
      await run(pgCtl, ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start'], runAs, root);
    } catch (error) {
      lastError = new Error(`${String(error)}\n--- server log ---\n${readLogTail(logFile)}`);
      continue;
    }
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    process.once('exit', stopSync);
    let stopped = false;
    return {
      url,
      async stop() {
        if (stopped) return;
        stopped = true;
        process.off('exit', stopSync);
        try {
          await run(pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], runAs, root);
        } finally {
          removeAll();
        }
      },
    };
  }
  removeAll();
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Create a uniquely named, empty database on the cluster at `adminUrl`. */
export async function createTestDatabase(adminUrl: string): Promise<TestDatabase> {
  const name = `custody_t_${process.pid}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // FORCE (PostgreSQL 13+) ends connections a test forgot to close.
        await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A new database holding a copy of the one at `fromUrl` (CREATE DATABASE … TEMPLATE): cheaper
 * than building the same fixture again. Nothing may be connected to the source while it copies.
 */
export async function copyTestDatabase(adminUrl: string, fromUrl: string): Promise<TestDatabase> {
  const source = decodeURIComponent(new URL(fromUrl).pathname.slice(1));
  const name = `custody_t_${process.pid}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(source)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropDatabase(adminUrl, name) };
}

/**
 * Replaces the (empty) database at `targetUrl` by a copy of the one at `fromUrl`, under the same
 * name, so that whoever made `targetUrl` still drops it. Nothing may be connected to either.
 */
export async function replaceTestDatabase(adminUrl: string, targetUrl: string, fromUrl: string): Promise<void> {
  const name = (u: string): string => decodeURIComponent(new URL(u).pathname.slice(1));
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name(targetUrl))} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${quoteIdent(name(targetUrl))} TEMPLATE ${quoteIdent(name(fromUrl))}`);
  } finally {
    await admin.end();
  }
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** The run's admin URL, from the environment or from vitest's provided context. */
export function testPostgresUrl(): string {
  const fromEnv = process.env[PG_URL_ENV];
  if (fromEnv) return fromEnv;
  const provided = inject('custodyPgUrl');
  if (provided) return provided;
  throw new Error(
    `${PG_URL_ENV} is not set: run the suite through vitest.config.ts (its globalSetup ` +
      'starts PostgreSQL for the medium and e2e projects), or point it at a server yourself',
  );
}

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseUnderTest {
  kind: DatabaseKind;
  /**
   * A fresh database for one test or one suite. SQLite: url is null and the
   * caller opens a file in a temp dir (see makeTempDir). PostgreSQL: a new
   * database on the run's cluster; cleanup drops it.
   */
  makeUrl(): Promise<{ url: string | null; cleanup: () => Promise<void> }>;
  /**
   * A copy of a database made by makeUrl (a template fixture built once per file), for one
   * test. SQLite: url is null (the index file is copied with the archive folder).
   */
  copyUrl(from: string | null): Promise<{ url: string | null; cleanup: () => Promise<void> }>;
}

const sqlite: DatabaseUnderTest = {
  kind: 'sqlite',
  makeUrl: () => Promise.resolve({ url: null, cleanup: () => Promise.resolve() }),
  copyUrl: () => Promise.resolve({ url: null, cleanup: () => Promise.resolve() }),
};

const postgres: DatabaseUnderTest = {
  kind: 'postgres',
  async makeUrl() {
    const db = await createTestDatabase(testPostgresUrl());
    return { url: db.url, cleanup: () => db.drop() };
  },
  async copyUrl(from) {
    if (from === null) throw new Error('copyUrl: a PostgreSQL fixture has a database URL');
    const db = await copyTestDatabase(testPostgresUrl(), from);
    return { url: db.url, cleanup: () => db.drop() };
  },
};

/**
 * Register the same suite once per database: "one contract suite, every database".
 * The PostgreSQL copy is skipped (outside CI) or fails (CI=true) when PostgreSQL
 * is not installed.
 *
 * @example
 * describeDatabases('SubjectRepository', (db) => {
 *   let repo: SubjectRepository;
 *   let cleanup = () => Promise.resolve();
 *   beforeEach(async () => {
 *     const made = await db.makeUrl();
 *     cleanup = made.cleanup;
 *     const url = made.url ?? join(await makeTempDir('subjects'), 'custody.sqlite');
 *     repo = new SubjectRepository(await openDatabase(db.kind, url));
 *   });
 *   afterEach(() => cleanup());
 *   it('numbers subjects in order', async () => { ... });
 * });
 */
export function describeDatabases(name: string, fn: (db: DatabaseUnderTest) => void): void {
  describe(`${name} [sqlite]`, () => fn(sqlite));
  const available = postgresAvailable();
  if (available.ok) {
    describe(`${name} [postgres]`, () => fn(postgres));
  } else if (isCi()) {
    describe(`${name} [postgres]`, () => {
      it('needs PostgreSQL (CI=true)', () => {
        throw new Error(`CI=true but ${available.reason}`);
      });
    });
  } else {
    describe.skip(`${name} [postgres] (skipped: PostgreSQL not installed)`, () => fn(postgres));
  }
}
