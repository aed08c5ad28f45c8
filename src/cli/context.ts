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
  opts: { lock?: boolean; skipIndexSync?: boolean } = {},
): Promise<T> {
  const archive = await openArchive(configFrom(args, io), mode, command, opts);
  let ok = false;
  try {
    const out = await fn(archive);
    ok = true;
    return out;
  } finally {
    try {
      await archive.close();
    } catch (e) {
      if (ok) throw e;
      io.stderr(`custody: warning: while closing after an error: ${(e as Error).message}\n`);
    }
  }
}

export function wantsJson(args: ParsedArgs): boolean {
  return flag(args, 'json');
}
