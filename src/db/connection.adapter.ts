import { existsSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import BetterSqlite3 from 'better-sqlite3';
import type { Kysely, MigrationProvider } from 'kysely';
import { DbError, indexCorruptError, indexMissingError, isDamagedIndexError } from './errors.js';
import { kysely } from './kysely.adapter.js';
import { MIGRATIONS } from './migrations.js';
import type { Database } from './schema.js';

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** The PostgreSQL driver, loaded only when a PostgreSQL index is opened (SQLite archives never pay for it). */
async function loadPg(): Promise<(typeof import('pg'))['default']> {
  const { default: pg } = await import('pg');
  // int8 (bigint) columns hold sizes and sequence numbers, all below 2^53.
  pg.types.setTypeParser(20, (v) => Number(v));
  return pg;
}

/**
 * Opens the index database and brings its schema up to date. `create: false` refuses a SQLite
 * index file that is not there (INDEX_MISSING) instead of making an empty one that would answer
 * every query with nothing. A file that is not a database is INDEX_CORRUPT.
 */
export async function openDatabase(target: DatabaseTarget, opts: { create?: boolean; check?: boolean } = {}): Promise<Kysely<Database>> {
  let sqlite: BetterSqlite3.Database | null = null;
  if (target.kind === 'sqlite') {
    if (target.file !== ':memory:' && !existsSync(target.file)) {
      if (opts.create === false) throw indexMissingError();
      // Item paths and source codenames are not for every user of the machine: 0640, and SQLite
      // gives its -wal and -shm files the database file's mode.
      await (await open(target.file, 'wx', 0o640)).close();
    }
    try {
      sqlite = openSqlite(target.file, opts.check === true);
    } catch (e) {
      if (isDamagedIndexError(e)) throw indexCorruptError(e);
      throw new DbError('DB_UNAVAILABLE', `cannot open the sqlite database: ${String(e)}`, { cause: e });
    }
  }
  let pool: import('pg').Pool | null = null;
  if (sqlite === null) {
    pool = new (await loadPg()).Pool({ connectionString: (target as { url: string }).url, max: 4 });
    // An idle connection the server ends (a restart, an administrator, a long-running server's
    // network) is dropped by the pool; without a listener its 'error' would end the process. The
    // next query takes a new connection, or fails with its own error where it is awaited.
    pool.on('error', () => undefined);
  }
  const db =
    pool === null
      ? new kysely.Kysely<Database>({ dialect: new kysely.SqliteDialect({ database: sqlite! }) })
      : new kysely.Kysely<Database>({ dialect: new kysely.PostgresDialect({ pool }) });
  try {
    await migrate(db);
  } catch (e) {
    await db.destroy();
    if (isDamagedIndexError(e) || isDamagedIndexError((e as { cause?: unknown }).cause)) throw indexCorruptError(e);
    if (e instanceof DbError) throw e;
    throw new DbError('DB_UNAVAILABLE', `cannot open the ${target.kind} database: ${String(e)}`, {
      cause: e,
    });
  }
  return db;
}

/** What was wrong with the index when it was opened, for `verify` and `rebuild` to report. */
export interface IndexProblem {
  code: 'INDEX_MISSING' | 'INDEX_CORRUPT';
  message: string;
  /** Where `rebuild` moved a damaged SQLite file. */
  setAside: string | null;
}

/**
 * How a command opens the live index:
 * - 'require' (reads): a missing or damaged index is an error with its code, never an empty answer;
 * - 'create' (writes): a missing index is made and caught up from the ledger, a damaged one is an error;
 * - 'tolerate' (verify): a missing or damaged index is reported, and an empty one stands in, so that
 *   the ledger and the store are still verified;
 * - 'rebuild' (rebuild): a damaged SQLite file is checked page by page, moved aside and made anew.
 */
export type IndexPolicy = 'require' | 'create' | 'tolerate' | 'rebuild';

export async function openIndex(target: DatabaseTarget, policy: IndexPolicy): Promise<{ db: Kysely<Database>; problem: IndexProblem | null }> {
  try {
    return { db: await openDatabase(target, { create: policy === 'create', check: policy === 'rebuild' }), problem: null };
  } catch (e) {
    if (!(e instanceof DbError) || (e.code !== 'INDEX_MISSING' && e.code !== 'INDEX_CORRUPT')) throw e;
    if (policy === 'tolerate') {
      return { db: await openDatabase({ kind: 'sqlite', file: ':memory:' }), problem: { code: e.code, message: e.message, setAside: null } };
    }
    if (policy !== 'rebuild' || target.kind !== 'sqlite') throw e;
    const setAside = e.code === 'INDEX_CORRUPT' ? await setAsideSqlite(target.file) : null;
    return { db: await openDatabase(target, { create: true }), problem: { code: e.code, message: e.message, setAside } };
  }
}

/**
 * Moves a damaged SQLite index (and its -wal and -shm files) aside, to `<file>.damaged-<time>`,
 * so that `rebuild` can make a new one while the old stays for whoever wants to look at it.
 * Returns the new name of the main file.
 */
export async function setAsideSqlite(file: string, now: Date = new Date()): Promise<string> {
  const aside = `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['-wal', '-shm', '']) {
    if (existsSync(file + suffix)) await rename(file + suffix, aside + suffix);
  }
  return aside;
}

function openSqlite(file: string, check: boolean): BetterSqlite3.Database {
  const sqlite = new BetterSqlite3(file);
  try {
    sqlite.pragma('journal_mode = WAL');
    // The ledger is the durable record; the index catches up from it after a crash.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 10000');
    if (check) {
      // Every page, before a rebuild trusts the file enough to delete from it (O(size): rebuild only).
      const r = sqlite.pragma('quick_check', { simple: true });
      if (r !== 'ok') throw Object.assign(new Error(`quick_check: ${String(r).split('\n').slice(0, 2).join('; ')}`), { code: 'SQLITE_CORRUPT' });
    }
  } catch (e) {
    sqlite.close();
    throw e;
  }
  cacheStatements(sqlite, STATEMENT_CACHE_SIZE);
  return sqlite;
}

/** Prepared statements kept per connection (the server's read routes repeat a few dozen shapes). */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Keeps the last `size` prepared statements by their SQL text: Kysely prepares every query anew,
 * and preparing a four-join page query costs as much as running it. Safe because Kysely runs one
 * query at a time on the one connection and reads each result whole (`all`, `run`) before the
 * next; SQLite re-prepares a kept statement by itself after a schema change.
 */
function cacheStatements(sqlite: BetterSqlite3.Database, size: number): void {
  const kept = new Map<string, BetterSqlite3.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    let stmt = kept.get(source);
    if (stmt === undefined) {
      stmt = prepare(source);
      if (kept.size >= size) kept.delete(kept.keys().next().value as string);
    } else kept.delete(source); // most recently used last
    kept.set(source, stmt);
    return stmt;
  }) as typeof sqlite.prepare;
}

/**
 * Whether the index already records every migration this version knows, and no other: then there
 * is nothing to migrate. One small query, where Kysely's Migrator first reads the database's
 * catalogue to learn whether its tables exist (about 30 ms on PostgreSQL, for every command that
 * opens the index) and then takes its lock. Any doubt (no migration table yet, a migration missing,
 * one this version does not know, a damaged file) leaves the answer to the Migrator, which
 * migrates or reports exactly as before.
 */
async function schemaIsCurrent(db: Kysely<Database>): Promise<boolean> {
  try {
    const done = await kysely.sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const names = new Set(done.rows.map((r) => r.name));
    const known = Object.keys(MIGRATIONS);
    return names.size === known.length && known.every((n) => names.has(n));
  } catch {
    return false;
  }
}

async function migrate(db: Kysely<Database>): Promise<void> {
  if (await schemaIsCurrent(db)) return;
  const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };
  const { error, results } = await new kysely.Migrator({ db, provider }).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new DbError(
      'DB_MIGRATION_FAILED',
      `database migration ${failed} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
}
