// Looking at an archive from the outside, as an auditor would: the files on disk and the
// CLI's JSON output. Nothing here imports src/: the e2e tests judge the built CLI.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  runCustody,
  runCustodyInProcess,
  type CustodyRunOptions,
  type CustodyRunResult,
} from './cli.js';

/** SHA-256 of a file, streamed (the file may be larger than memory). */
export async function sha256File(path: string | Buffer): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
    h.update(chunk as Buffer);
  return h.digest('hex');
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Every file under objects/sha256/, as `<prefix>/<name>` paths relative to that folder. */
export async function listObjectFiles(archive: string): Promise<{ name: string; path: string }[]> {
  const top = join(archive, 'objects', 'sha256');
  const out: { name: string; path: string }[] = [];
  for (const prefix of await readdir(top)) {
    for (const name of await readdir(join(top, prefix)))
      out.push({ name, path: join(top, prefix, name) });
  }
  return out;
}

/** Ledger entries straight from ledger/entries.jsonl (complete lines only). */
export async function readLedgerEntries(
  archive: string,
): Promise<
  {
    seq: number;
    type: string;
    items: string[];
    objects: string[];
    details: Record<string, unknown>;
  }[]
> {
  const text = await readFile(join(archive, 'ledger', 'entries.jsonl'), 'utf8');
  const lines = text.split('\n');
  lines.pop(); // after the last newline: empty, or a torn tail that is not an entry
  return lines.map(
    (l) =>
      JSON.parse(l) as {
        seq: number;
        type: string;
        items: string[];
        objects: string[];
        details: Record<string, unknown>;
      },
  );
}

export interface ItemJson {
  id: string;
  delivery: string;
  parent: string | null;
  path: string;
  path_raw_hex: string | null;
  path_encoding: string;
  relative_path: string;
  name: string;
  size: number;
  media_type: string;
  sha256: string;
  flags: string[];
}

export interface VerifyJson {
  ok: boolean;
  findings: { code: string; severity: string; message: string; subject: string | null }[];
  objects: { listed: number; hashed: number; bytes: number; referenced: number; withdrawn: number };
  index: { rows_compared: number; ledger_size_in_index: number };
}

export interface DeliveryJson {
  id: string;
  source: string;
  closed_seq: number | null;
  items: number;
}

/** Runs a command with --json and parses stdout; fails loudly with stderr when it is not JSON. */
export async function runJson<T>(
  args: string[],
  opts: CustodyRunOptions = {},
): Promise<{ run: CustodyRunResult; json: T }> {
  const run = await runCustody([...args, '--json'], opts);
  try {
    return { run, json: JSON.parse(run.stdout) as T };
  } catch {
    throw new Error(
      `custody ${args.join(' ')} --json printed no JSON (exit ${String(run.code)}, signal ${String(run.signal)}):\n${run.stdout.slice(0, 2000)}\n${run.stderr.slice(0, 2000)}`,
    );
  }
}

/** runJson in-process (runCli, an environment of `env` only): for calls not about the binary itself. */
export async function runJsonIn<T>(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ run: CustodyRunResult; json: T }> {
  const run = await runCustodyInProcess([...args, '--json'], { env });
  try {
    return { run, json: JSON.parse(run.stdout) as T };
  } catch {
    throw new Error(
      `custody ${args.join(' ')} --json printed no JSON (exit ${String(run.code)}):\n${run.stdout.slice(0, 2000)}\n${run.stderr.slice(0, 2000)}`,
    );
  }
}

/** One line per error finding, for assertion messages. */
export function describeFindings(v: VerifyJson): string {
  return v.findings
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.code}: ${f.message}`)
    .join('\n');
}
