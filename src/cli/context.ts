import { readFileSync } from 'node:fs';
import type { Archive, openArchive } from '../app.js';
import type { OperationContext } from '../core/index.js';
import { loadConfig, type Config } from '../config/index.js';
import { flag, str, UsageError, type Io, type ParsedArgs } from './command.js';

/** Builds the Config from the environment and the common flags. */
export function configFrom(args: ParsedArgs, io: Io): Config {
  const keyPassphrase = passphraseFrom(args, io.env, {
    file: 'key-passphrase-file',
    fd: 'key-passphrase-fd',
    envFile: 'CUSTODY_KEY_PASSPHRASE_FILE',
  });
  // The report passphrase: the file named by CUSTODY_REPORT_PASSPHRASE_FILE, else CUSTODY_REPORT_PASSPHRASE.
  const reportPassphrase = passphraseFrom(args, io.env, {
    file: 'report-passphrase-file',
    fd: 'report-passphrase-fd',
    envFile: 'CUSTODY_REPORT_PASSPHRASE_FILE',
  });
  return {
    ...loadConfig(io.env, {
      archive: str(args, 'archive'),
      actor: str(args, 'actor'),
      keyPassphrase,
      reportPassphrase,
      maxImagePixels: str(args, 'max-image-pixels'),
    }),
    warn: (message) => io.stderr(`custody: warning: ${message}\n`),
  };
}

/**
 * A passphrase from, in this order: `--<file> FILE`, `--<fd> N` (a descriptor the caller opened,
 * e.g. `3<secret` or a pipe; read to its end), or the file named by the environment variable
 * `envFile`. Undefined when none is given (the caller may then fall back to a variable holding
 * the passphrase itself, the least safe way: see the README, "The signing key"). One trailing
 * newline is dropped; an empty passphrase is refused.
 */
export function passphraseFrom(
  args: ParsedArgs,
  env: NodeJS.ProcessEnv,
  names: { file: string; fd: string; envFile?: string },
): string | undefined {
  // A descriptor can be read once: commands that build their Config twice get the first reading.
  let read = passphrasesRead.get(args);
  if (read === undefined) passphrasesRead.set(args, (read = new Map<string, string | undefined>()));
  if (!read.has(names.file)) read.set(names.file, readPassphrase(args, env, names));
  return read.get(names.file);
}

const passphrasesRead = new WeakMap<ParsedArgs, Map<string, string | undefined>>();

function readPassphrase(
  args: ParsedArgs,
  env: NodeJS.ProcessEnv,
  names: { file: string; fd: string; envFile?: string },
): string | undefined {
  const file = str(args, names.file);
  const fd = str(args, names.fd);
  if (file !== undefined && fd !== undefined)
    throw new UsageError(`give --${names.file} or --${names.fd}, not both`);
  let raw: string;
  let what: string;
  if (file !== undefined) {
    what = `--${names.file} ${file}`;
    raw = readSecret(() => readFileSync(file, 'utf8'), what);
  } else if (fd !== undefined) {
    what = `--${names.fd} ${fd}`;
    if (!/^[0-9]+$/.test(fd) || fd === '1' || fd === '2' || !Number.isSafeInteger(Number(fd))) {
      throw new UsageError(
        `${what}: give the number of a descriptor open for reading (0, or 3 and up)`,
      );
    }
    raw = readSecret(() => readFileSync(Number(fd), 'utf8'), what);
  } else {
    const envFile = names.envFile === undefined ? undefined : env[names.envFile];
    if (envFile === undefined || envFile === '') return undefined;
    what = `${names.envFile ?? ''}=${envFile}`;
    raw = readSecret(() => readFileSync(envFile, 'utf8'), what);
  }
  const passphrase = raw.replace(/\r?\n$/, '');
  if (passphrase === '') throw new UsageError(`${what}: the passphrase is empty`);
  return passphrase;
}

function readSecret(read: () => string, what: string): string {
  try {
    return read();
  } catch (e) {
    throw new UsageError(`cannot read ${what}: ${(e as Error).message}`);
  }
}

/** Opens the archive for the duration of `fn`, closing it (and signing a checkpoint) after. */
export async function withArchive<T>(
  args: ParsedArgs,
  io: Io,
  mode: 'read' | 'write',
  command: string,
  fn: (archive: Archive) => Promise<T>,
  opts: Parameters<typeof openArchive>[3] = {},
): Promise<T> {
  // Loaded here, not at the top: commands that open no archive (verify-export, interval, …) and
  // `--help` then never load the database drivers.
  const { openArchive: open } = await import('../app.js');
  const archive = await open(configFrom(args, io), mode, command, opts);
  const printWarnings = (from: number): number => {
    for (const w of archive.warnings.slice(from)) io.stderr(`custody: warning: ${w}\n`);
    return archive.warnings.length;
  };
  const printed = printWarnings(0);
  let out: T;
  try {
    if (BLIND_GUARDED.some((c) => command === c || command.startsWith(`${c} `)))
      await refuseIfBlinded(archive, configFrom(args, io).actor, command);
    out = await fn(archive);
  } catch (e) {
    await archive.close().catch((closeError: unknown) => {
      io.stderr(
        `custody: warning: while closing after an error: ${(closeError as Error).message}\n`,
      );
    });
    printWarnings(printed);
    throw e;
  }
  await archive.close();
  printWarnings(printed);
  return out;
}

export function wantsJson(args: ParsedArgs): boolean {
  return flag(args, 'json');
}

/** `--at <tree-size>`: view the archive as it was at that ledger size (read-only snapshot). */
export function atOption(args: ParsedArgs): number | undefined {
  const at = str(args, 'at');
  if (at === undefined) return undefined;
  if (!/^[0-9]+$/.test(at))
    throw new UsageError(`--at takes a tree size (a whole number of ledger entries), got "${at}"`);
  return Number(at);
}

/**
 * The read commands an examiner with unfinished cases may not run (issue 12, "Blinded cases"):
 * each shows catalogue fields, ledger entries, proofs, item details or near-duplicates, or counts
 * over them. Blindness is enforced by the examination service (blind-access.ts); this list only
 * says which commands ask it. `examine form|status|show|submit` apply their own rules, by case code.
 */
export const BLIND_GUARDED: readonly string[] = [
  'subject',
  'items',
  'show',
  'log',
  'prove',
  'similar',
  'clusters',
  'exif',
  'preview',
  'authenticity',
  'deliveries',
  'tail',
  'unit',
  'sample',
  'source',
  'scheme',
  'stats',
  'agreement',
  'adjudicate --list',
  'report',
  'export',
];

/** Refuses with BLIND_REFUSED when `actor` has unfinished cases in some plan. */
export async function refuseIfBlinded(
  archive: Archive,
  actor: string,
  what: string,
): Promise<void> {
  const { blindScope, assertNotBlinded } = await import('../examination/blind/index.js');
  const { blindPorts } = await import('../app.js');
  const scope = await blindScope(blindPorts(archive), actor);
  assertNotBlinded(scope, `\`${what}\``);
}

/**
 * The context of a CLI command's writes: the archive's actor (--actor, CUSTODY_ACTOR or the
 * account) and id factory, and no role: its user runs with file access and the archive key, and
 * has no authenticated account (the permission checks of the services pass, see requireActing).
 */
export function operationContext(archive: Archive): OperationContext & { readonly role: undefined } {
  return { actor: archive.config.actor, clock: () => new Date(), newId: archive.newId, role: undefined };
}
