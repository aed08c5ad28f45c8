import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { ActorError, normaliseActor, CustodyError,
  hint,
} from '../core/index.js';

export type ConfigErrorCode = 'CONFIG_INVALID';
export class ConfigError extends CustodyError<ConfigErrorCode> {}

export interface Config {
  archiveDir: string;
  /** postgres://… from DATABASE_URL, or null for the embedded SQLite index. */
  databaseUrl: string | null;
  actor: string;
  keyPassphrase: string | null;
  /**
   * The report passphrase (CUSTODY_REPORT_PASSPHRASE, or the file CUSTODY_REPORT_PASSPHRASE_FILE
   * names): it opens the report KEK (archive/report-kek.adapter.ts), which the archive passphrase
   * does not. Null: family reports cannot be read or recorded (unless the archive has no
   * passphrase at all).
   */
  reportPassphrase: string | null;
  /** Where warnings that are not errors go (a key in the old format); the CLI prints them on stderr. */
  warn?: (message: string) => void;
  lockTimeoutMs: number;
  /**
   * A folder outside the archive (a second disk, a mounted share) that receives a copy of every
   * signed checkpoint as it is signed (CUSTODY_PUBLISH_CHECKPOINTS). Null: none.
   */
  publishCheckpointsDir: string | null;
  /** Decoded-pixels limit per image in analysis (CUSTODY_IMAGE_MAX_PIXELS, --max-image-pixels). */
  imageMaxPixels: number;
  /** Test-only fault injection: `point:n` kills the process at the nth pass of `point`. */
  crashAt: string | null;
}

export interface ConfigInput {
  archive?: string | undefined;
  actor?: string | undefined;
  keyPassphrase?: string | null | undefined;
  reportPassphrase?: string | null | undefined;
  maxImagePixels?: string | undefined;
}

/**
 * Environment and flags → one validated Config. Flags win over the environment. The key
 * passphrase: `flags.keyPassphrase` (the CLI reads it from --key-passphrase-file,
 * --key-passphrase-fd or CUSTODY_KEY_PASSPHRASE_FILE), else CUSTODY_KEY_PASSPHRASE, the least
 * safe source (the process environment stays readable in /proc/PID/environ and is inherited).
 */
export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigInput): Config {
  const databaseUrl = env.DATABASE_URL !== undefined && env.DATABASE_URL !== '' ? env.DATABASE_URL : null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('CONFIG_INVALID', 'DATABASE_URL must be a postgres:// URL (unset it to use the embedded SQLite index)');
  }
  const actor = configActor(flags.actor ?? nonEmpty(env.CUSTODY_ACTOR) ?? osUser());
  const timeout = Number(env.CUSTODY_LOCK_TIMEOUT_MS ?? '10000');
  if (!Number.isSafeInteger(timeout) || timeout < 0) {
    throw new ConfigError('CONFIG_INVALID', 'CUSTODY_LOCK_TIMEOUT_MS must be a whole number of milliseconds');
  }
  const pixelsText = flags.maxImagePixels ?? nonEmpty(env.CUSTODY_IMAGE_MAX_PIXELS) ?? '100000000';
  const imageMaxPixels = Number(pixelsText);
  if (!/^[0-9]+$/.test(pixelsText) || !Number.isSafeInteger(imageMaxPixels) || imageMaxPixels < 1) {
    throw new ConfigError('CONFIG_INVALID', 'the image pixel limit must be a whole number of pixels, at least 1', { details: hint({ field: 'maxImagePixels' }) });
  }
  return {
    archiveDir: resolve(flags.archive ?? nonEmpty(env.CUSTODY_ARCHIVE) ?? 'archive'),
    databaseUrl,
    actor,
    keyPassphrase: flags.keyPassphrase ?? nonEmpty(env.CUSTODY_KEY_PASSPHRASE) ?? null,
    reportPassphrase: flags.reportPassphrase ?? nonEmpty(env.CUSTODY_REPORT_PASSPHRASE) ?? null,
    lockTimeoutMs: timeout,
    publishCheckpointsDir: nonEmpty(env.CUSTODY_PUBLISH_CHECKPOINTS) === undefined ? null : resolve(env.CUSTODY_PUBLISH_CHECKPOINTS ?? ''),
    imageMaxPixels,
    crashAt: nonEmpty(env.CUSTODY_TEST_CRASH_AT) ?? null,
  };
}

/** NFC, trimmed, 1–200 characters without control characters (core/actor-name). */
function configActor(raw: string): string {
  try {
    return normaliseActor(raw);
  } catch (e) {
    if (!(e instanceof ActorError)) throw e;
    throw new ConfigError('CONFIG_INVALID', `${e.message}: the actor name must be 1–200 characters without control characters`, { cause: e, details: hint({ field: 'actor' }) });
  }
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown-os-user';
  }
}
