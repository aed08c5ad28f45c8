import { parseArgs, type ParseArgsConfig } from 'node:util';
import { writeFile } from 'node:fs/promises';
import { CustodyError } from '../core/index.js';

export type UsageErrorCode = 'USAGE';
export class UsageError extends CustodyError<UsageErrorCode> {
  constructor(message: string) {
    super('USAGE', message);
  }
}

/** Exit codes: the CLI contract. */
export const EXIT = { ok: 0, finding: 1, usage: 2, internal: 70 } as const;

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTty: boolean;
  env: NodeJS.ProcessEnv;
}

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: Options;
  run(args: ParsedArgs, io: Io): Promise<number>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Options every command takes. */
export const COMMON_OPTIONS: Options = {
  archive: { type: 'string' },
  json: { type: 'boolean' },
  actor: { type: 'string' },
  'key-passphrase-file': { type: 'string' },
  'key-passphrase-fd': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export function parseCommandArgs(cmd: Command, argv: string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...COMMON_OPTIONS, ...cmd.options },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\nusage: ${cmd.usage}`);
  }
}

export function str(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

export function list(args: ParsedArgs, name: string): string[] {
  const v = args.values[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

export function requireStr(args: ParsedArgs, name: string, cmd: Command): string {
  const v = str(args, name);
  if (v === undefined || v.trim() === '') throw new UsageError(`--${name} is required\nusage: ${cmd.usage}`);
  return v;
}

export function parseNonNegativeInt(s: string | undefined, what: string): number {
  if (s === undefined || !/^\d+$/.test(s) || !Number.isSafeInteger(Number(s))) {
    throw new UsageError(`${what} must be a whole number, got ${s ?? 'nothing'}`);
  }
  return Number(s);
}

/** Prints one JSON document (pretty enough for a person, exact for a machine). */
export function printJson(io: Io, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Writes `--out FILE` for a command that prints a sheet or a frame: never over an existing file
 * (Custody overwrites nothing a person may have filled in), and a clear usage error, not exit 70,
 * when the file exists or cannot be made.
 */
export async function writeOutFile(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text, { flag: 'wx' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`--out ${path}: the file exists; Custody never writes over a file: choose another name`);
    throw new UsageError(`--out ${path}: cannot write it (${code ?? String(e)})`);
  }
}
