import { readFileSync } from 'node:fs';
import { openArchive, type Archive } from '../app.js';
import { loadConfig, type Config } from '../config/config.js';
import { flag, str, UsageError, type Io, type ParsedArgs } from './command.js';

/** Builds the Config from the environment and the common flags. */
export function configFrom(args: ParsedArgs, io: Io): Config {
  const passFile = str(args, 'key-passphrase-file');
  let keyPassphrase: string | undefined;
  if (passFile !== undefined) {
    try {
      keyPassphrase = readFileSync(passFile, 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      throw new UsageError(`cannot read --key-passphrase-file ${passFile}: ${(e as Error).message}`);
    }
  }
  return loadConfig(io.env, { archive: str(args, 'archive'), actor: str(args, 'actor'), keyPassphrase });
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
  const archive = await openArchive(configFrom(args, io), mode, command, opts);
  let out: T;
  try {
    out = await fn(archive);
  } catch (e) {
    await archive.close().catch((closeError: unknown) => {
      io.stderr(`custody: warning: while closing after an error: ${(closeError as Error).message}\n`);
    });
    throw e;
  }
  await archive.close();
  return out;
}

export function wantsJson(args: ParsedArgs): boolean {
  return flag(args, 'json');
}

/** `--at <tree-size>`: view the archive as it was at that ledger size (read-only snapshot). */
export function atOption(args: ParsedArgs): number | undefined {
  const at = str(args, 'at');
  if (at === undefined) return undefined;
  if (!/^[0-9]+$/.test(at)) throw new UsageError(`--at takes a tree size (a whole number of ledger entries), got "${at}"`);
  return Number(at);
}
