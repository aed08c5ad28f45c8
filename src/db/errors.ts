import { CustodyError } from '../core/errors.js';

export type DbErrorCode =
  'DB_UNAVAILABLE' | 'DB_OUT_OF_SPACE' | 'DB_MIGRATION_FAILED' | 'DB_CONFIG_MISSING';

export class DbError extends CustodyError<DbErrorCode> {}
