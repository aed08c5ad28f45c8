import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { DbError } from './errors.js';
import { MIGRATIONS } from './migrations.js';
import type { Database } from './schema.js';

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

// int8 (bigint) columns hold sizes and sequence numbers, all below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/** Opens the index database and brings its schema up to date. */
export async function openDatabase(target: DatabaseTarget): Promise<Kysely<Database>> {
  const db =
    target.kind === 'sqlite'
      ? new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqlite(target.file) }) })
      : new Kysely<Database>({
          dialect: new PostgresDialect({
            pool: new pg.Pool({ connectionString: target.url, max: 4 }),
          }),
        });
  try {
    await migrate(db);
  } catch (e) {
    await db.destroy();
    if (e instanceof DbError) throw e;
    throw new DbError('DB_UNAVAILABLE', `cannot open the ${target.kind} database: ${String(e)}`, {
      cause: e,
    });
  }
  return db;
}

function openSqlite(file: string): BetterSqlite3.Database {
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  // The ledger is the durable record; the index catches up from it after a crash.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 10000');
  return sqlite;
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new DbError(
      'DB_MIGRATION_FAILED',
      `database migration ${failed} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
}
