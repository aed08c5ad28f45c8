import { CustodyError,
  hint,
} from '../core/index.js';

export type DbErrorCode =
  | 'DB_UNAVAILABLE'
  | 'DB_OUT_OF_SPACE'
  | 'DB_MIGRATION_FAILED'
  | 'DB_CONFIG_MISSING'
  /** The index database is not there (deleted, or never built): `custody rebuild` makes it. */
  | 'INDEX_MISSING'
  /** The index database cannot be read as one (overwritten, truncated): `custody rebuild` replaces it. */
  | 'INDEX_CORRUPT';

export class DbError extends CustodyError<DbErrorCode> {}

/** SQLite result codes that mean "this file is not (or no longer) a usable database". */
const SQLITE_DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CORRUPT_SEQUENCE']);

/** The index database is not there: rebuilding it from the ledger and the store makes it. */
export function indexMissingError(): DbError {
  return new DbError('INDEX_MISSING', 'the index is missing', { details: hint({ remedy: ['rebuild'] }) });
}

/** True for an error from SQLite saying the database file is damaged (at open or at any query). */
export function isDamagedIndexError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SQLITE_DAMAGED.has(code);
}

export function indexCorruptError(cause: unknown): DbError {
  return new DbError('INDEX_CORRUPT', `the index is damaged (${cause instanceof Error ? cause.message : String(cause)})`, { cause, details: hint({ remedy: ['rebuild'] }) });
}
