import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { CustodyError } from '../core/errors.js';

export type ConfigErrorCode = 'CONFIG_INVALID';
export class ConfigError extends CustodyError<ConfigErrorCode> {}

export interface Config {
  archiveDir: string;
  /** postgres://… from DATABASE_URL, or null for the embedded SQLite index. */
  databaseUrl: string | null;
  actor: string;
  keyPassphrase: string | null;
  lockTimeoutMs: number;
  /** Decoded-pixels limit per image in analysis (CUSTODY_IMAGE_MAX_PIXELS, --max-image-pixels). */
  imageMaxPixels: number;
  /** Test-only fault injection: `point:n` kills the process at the nth pass of `point`. */
  crashAt: string | null;
}

export interface ConfigInput {
  archive?: string | undefined;
  actor?: string | undefined;
  keyPassphrase?: string | null | undefined;
  maxImagePixels?: string | undefined;
}

/** Environment and flags → one validated Config. Flags win over the environment. */
export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigInput): Config {
  const databaseUrl = env.DATABASE_URL !== undefined && env.DATABASE_URL !== '' ? env.DATABASE_URL : null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('CONFIG_INVALID', 'DATABASE_URL must be a postgres:// URL (unset it to use the embedded SQLite index)');
  }
  const actor = flags.actor ?? nonEmpty(env.CUSTODY_ACTOR) ?? osUser();
  if (actor.trim() === '' || actor.length > 200) {
    throw new ConfigError('CONFIG_INVALID', 'the actor name must be 1–200 characters (--actor or CUSTODY_ACTOR)');
  }
  const timeout = Number(env.CUSTODY_LOCK_TIMEOUT_MS ?? '10000');
  if (!Number.isSafeInteger(timeout) || timeout < 0) {
    throw new ConfigError('CONFIG_INVALID', 'CUSTODY_LOCK_TIMEOUT_MS must be a whole number of milliseconds');
  }
  const pixelsText = flags.maxImagePixels ?? nonEmpty(env.CUSTODY_IMAGE_MAX_PIXELS) ?? '100000000';
  const imageMaxPixels = Number(pixelsText);
  if (!/^[0-9]+$/.test(pixelsText) || !Number.isSafeInteger(imageMaxPixels) || imageMaxPixels < 1) {
    throw new ConfigError('CONFIG_INVALID', 'the image pixel limit must be a whole number of pixels, at least 1 (--max-image-pixels or CUSTODY_IMAGE_MAX_PIXELS)');
  }
  return {
    archiveDir: resolve(flags.archive ?? nonEmpty(env.CUSTODY_ARCHIVE) ?? 'archive'),
    databaseUrl,
    actor,
    keyPassphrase: flags.keyPassphrase ?? nonEmpty(env.CUSTODY_KEY_PASSPHRASE) ?? null,
    lockTimeoutMs: timeout,
    imageMaxPixels,
    crashAt: nonEmpty(env.CUSTODY_TEST_CRASH_AT) ?? null,
  };
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
