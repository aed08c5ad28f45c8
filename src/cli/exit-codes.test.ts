// The CLI contract, code by code: each error code runs through runCli (a command that throws it)
// and must exit as it did before the codes were given classes. The expected exits are written out
// here, not derived from the table, so that reclassing a code cannot change its exit silently.
import { describe, expect, it, vi } from 'vitest';
import { CustodyError } from '../core/index.js';
import { ERROR_CLASS, ERROR_CLASSES, type ErrorCode } from '../error-codes.js';
import type { Command, Io } from './command.js';
import { EXIT_FOR_CLASS, exitCodeFor } from './exit-codes.js';
import { runCli } from './main.js';

/** The codes that exited 2 (usage) before the table; every other CustodyError exited 1. */
const USAGE_EXIT_BEFORE = new Set<string>([
  'USAGE',
  'CONFIG_INVALID',
  'ARCHIVE_NOT_FOUND',
  'ARCHIVE_EXISTS',
  'ARCHIVE_TREE_SIZE_INVALID',
  'KEY_PASSPHRASE_REQUIRED',
  'DB_CONFIG_MISSING',
  'INGEST_BAD_REQUEST',
  'SOURCE_KEY_REQUIRED',
  'EXPORT_SELECT_INVALID',
  'EXPORT_OPTIONS_INVALID',
  'EXPORT_OUT_EXISTS',
  'EXPORT_OUT_INSIDE_ARCHIVE',
  'EXPORT_NOT_SIGNED',
  'STATS_OUT_OF_RANGE',
  // Added with the codes (accounts, issue 12): usage errors from the start.
  'ACCOUNT_INVALID',
  'ACCOUNT_ROLE_UNKNOWN',
  'ACCOUNT_PASSWORD_WEAK',
  'ACCOUNT_KEY_REQUIRED',
  // The server's own refusals (issue 12); the CLI never raises them.
  'HTTP_BAD_REQUEST',
  'HTTP_PAYLOAD_TOO_LARGE',
  'HTTP_UNSUPPORTED_MEDIA_TYPE',
  'HTTP_RANGE_NOT_SATISFIABLE',
  // Added with the codes (identification, issue 15).
  'MISSING_REPORT_KEY_REQUIRED',
  'MISSING_LINK_INVALID',
  // The report KEK's own passphrase (issue 15, s23).
  'MISSING_REPORT_KEK_LOCKED',
]);
/** Codes of the `internal` class: none the CLI raises (HTTP_INTERNAL is the server's body for a crash). */
const INTERNAL = new Set<string>(['HTTP_INTERNAL']);
const exitBefore = (code: string): number => (INTERNAL.has(code) ? 70 : USAGE_EXIT_BEFORE.has(code) ? 2 : 1);

// `custody key` is replaced by a command that throws whatever `thrown` holds.
const state = vi.hoisted((): { thrown: unknown } => ({ thrown: undefined }));
vi.mock('./key.command.js', () => ({
  keyCommand: {
    name: 'key',
    summary: 'test stand-in',
    usage: 'custody key',
    options: {},
    run: () => {
      throw state.thrown;
    },
  } satisfies Command,
}));

async function exitOf(thrown: unknown): Promise<{ exit: number; stderr: string }> {
  state.thrown = thrown;
  let stderr = '';
  const io: Io = { stdout: () => {}, stderr: (s) => (stderr += s), isTty: false, env: {} };
  return { exit: await runCli(['key'], io), stderr };
}

const ALL_CODES = Object.keys(ERROR_CLASS) as ErrorCode[];

describe('exit codes (the CLI contract)', () => {
  it('every error code exits through runCli as it did before the classes', async () => {
    expect(ALL_CODES.length).toBeGreaterThan(190);
    const wrong: string[] = [];
    for (const code of ALL_CODES) {
      const { exit, stderr } = await exitOf(new CustodyError(code, 'synthetic'));
      if (exit !== exitBefore(code)) wrong.push(`${code}: ${exit}, was ${exitBefore(code)}`);
      expect(stderr).toContain(`[${code}]`);
    }
    expect(wrong).toEqual([]);
  });

  it('every code that exited 2 is still in the table', () => {
    for (const code of USAGE_EXIT_BEFORE) expect(ERROR_CLASS).toHaveProperty(code, 'usage');
  });

  it('a crash (not a CustodyError) exits 70, and a code outside the table 1', async () => {
    expect((await exitOf(new TypeError('x is undefined'))).exit).toBe(70);
    expect((await exitOf('a thrown string')).exit).toBe(70);
    expect((await exitOf(new CustodyError('NOT_A_REAL_CODE', 'synthetic'))).exit).toBe(1);
  });

  it('maps the classes: usage 2, internal 70, every other class 1', () => {
    expect(EXIT_FOR_CLASS).toEqual({
      usage: 2,
      not_found: 1,
      forbidden: 1,
      conflict: 1,
      finding: 1,
      unavailable: 1,
      internal: 70,
    });
    expect(Object.keys(EXIT_FOR_CLASS).sort()).toEqual([...ERROR_CLASSES].sort());
    expect(exitCodeFor(new CustodyError('LEDGER_LOCKED', 'x'))).toBe(1);
  });
});
