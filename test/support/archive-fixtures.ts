// Small archives for the e2e suites: generated source trees (random bytes, folders, a duplicate,
// a ZIP built byte by byte), archives made through the real CLI, and the tools an insider with
// disk access would use to tamper with one (raw files, the index database, the archive's own key).
import { createHash, createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import { cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import { runCustody, runCustodyInProcess, type CustodyRunOptions, type CustodyRunResult } from './cli.js';
import { buildZip } from './make-zips.js';
import { makeTempDir } from './tmp.js';

/**
 * Variables that would leak a developer's own archive, database or passphrase into a test.
 * Empty means unset to Custody's config loader.
 */
export const CLEAN_ENV: Readonly<Record<string, string>> = {
  CUSTODY_ARCHIVE: '',
  CUSTODY_KEY_PASSPHRASE: '',
  CUSTODY_KEY_PASSPHRASE_FILE: '',
  CUSTODY_REPORT_PASSPHRASE: '',
  CUSTODY_REPORT_PASSPHRASE_FILE: '',
  CUSTODY_LOCK_TIMEOUT_MS: '',
  CUSTODY_TEST_CRASH_AT: '',
  DATABASE_URL: '',
};

/** Runs the CLI with a clean environment plus `env`. */
export function custody(
  args: string[],
  env: Record<string, string> = {},
  opts: Omit<CustodyRunOptions, 'env'> = {},
): Promise<CustodyRunResult> {
  return runCustody(args, { ...opts, env: { ...CLEAN_ENV, ...env } });
}

/** Runs the CLI in-process (runCli), with a clean environment plus `env`: the fast default for e2e tests. */
export function custodyIn(args: string[], env: Record<string, string> = {}): Promise<CustodyRunResult> {
  return runCustodyInProcess(args, { env: { ...CLEAN_ENV, ...env } });
}

/** Like custodyExpect, in-process. */
export async function custodyInExpect(
  code: number,
  args: string[],
  env: Record<string, string> = {},
): Promise<CustodyRunResult> {
  const r = await custodyIn(args, env);
  expect(r.code, `custody ${args.join(' ')}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(code);
  return r;
}

/**
 * The fixture helpers below (initArchive, ingest, verifyJson, readLog, listItems) run the CLI
 * in-process: they build and read archives, and runCli returns the exit code the binary would
 * exit with. An environment that asks for a crash (CUSTODY_TEST_CRASH_AT) runs as a subprocess,
 * since the crash is a SIGKILL of the process that runs the command.
 */
function fixtureRun(args: string[], env: Record<string, string>): Promise<CustodyRunResult> {
  const crash = env.CUSTODY_TEST_CRASH_AT;
  return crash === undefined || crash === '' ? custodyIn(args, env) : custody(args, env);
}

async function fixtureExpect(
  code: number,
  args: string[],
  env: Record<string, string>,
): Promise<CustodyRunResult> {
  const r = await fixtureRun(args, env);
  expect(r.code, `custody ${args.join(' ')}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(code);
  return r;
}

/** Runs the CLI and fails the test (showing stderr) unless it exits with `code`. */
export async function custodyExpect(
  code: number,
  args: string[],
  env: Record<string, string> = {},
): Promise<CustodyRunResult> {
  const r = await custody(args, env);
  expect(r.code, `custody ${args.join(' ')}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(code);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Source trees

export interface SourceTree {
  root: string;
  /** relative path → bytes, for every plain file (the ZIP included, its members not). */
  files: Map<string, Buffer>;
  /** Two paths with the same bytes. */
  duplicate: readonly [string, string];
  zip: { path: string; members: Map<string, Buffer> };
}

/**
 * photos/a.bin, photos/nested/b.bin (random), docs/note.txt, docs/copy-of-a.bin (a duplicate of
 * a.bin) and bundle.zip with two members (one stored, one deflated). `salt` makes the bytes of
 * every tree distinct, so two deliveries share nothing unless a test wants them to.
 */
export async function writeSourceTree(
  root: string,
  salt = randomBytes(8).toString('hex'),
): Promise<SourceTree> {
  const a = randomBytes(3000);
  const members = new Map<string, Buffer>([
    ['inner/readme.txt', Buffer.from(`zip member readme ${salt}\n`)],
    ['inner/data.bin', Buffer.concat([randomBytes(700), Buffer.alloc(700, 7)])],
  ]);
  const zip = buildZip([
    { name: 'inner/readme.txt', data: members.get('inner/readme.txt') },
    { name: 'inner/data.bin', data: members.get('inner/data.bin'), method: 8 },
  ]);
  const files = new Map<string, Buffer>([
    ['photos/a.bin', a],
    ['photos/nested/b.bin', randomBytes(1500)],
    ['docs/note.txt', Buffer.from(`field note ${salt}\n`)],
    ['docs/copy-of-a.bin', a],
    ['bundle.zip', zip],
  ]);
  for (const [rel, bytes] of files) {
    const path = join(root, rel);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, bytes);
  }
  return {
    root,
    files,
    duplicate: ['photos/a.bin', 'docs/copy-of-a.bin'],
    zip: { path: 'bundle.zip', members },
  };
}

/** One more plain folder of random files (for a second or third delivery). */
export async function writeExtraFiles(root: string, count = 3): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) files.set(`extra-${i}.bin`, randomBytes(400 + i * 100));
  await mkdir(root, { recursive: true });
  for (const [rel, bytes] of files) await writeFile(join(root, rel), bytes);
  return files;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Archives through the CLI

export interface TestArchive {
  dir: string;
  origin: string;
  verifierKey: string;
  /** Environment every command on this archive needs (DATABASE_URL for PostgreSQL, passphrase). */
  env: Record<string, string>;
}

export interface InitJson {
  archive: string;
  id: string;
  origin: string;
  database: string;
  verifier_key: string;
  key_encrypted: boolean;
}

export async function initArchive(
  dir: string,
  env: Record<string, string> = {},
  extra: string[] = [],
): Promise<TestArchive> {
  const r = await fixtureExpect(0, ['init', '--archive', dir, '--json', ...extra], env);
  const init = JSON.parse(r.stdout) as InitJson;
  return { dir, origin: init.origin, verifierKey: init.verifier_key, env };
}

export async function ingest(
  archive: TestArchive,
  paths: string[],
  source = 'SRC-ALPHA',
): Promise<IngestJson> {
  const r = await fixtureExpect(
    0,
    ['ingest', ...paths, '--source', source, '--new-source', '--archive', archive.dir, '--json'],
    archive.env,
  );
  return JSON.parse(r.stdout) as IngestJson;
}

export interface IngestJson {
  delivery: string;
  summary: { items_added: number; objects_added: number; objects_shared: number; problems: number };
  ledger: { size: number; root: string };
}

/** A temp dir holding `src/` (a source tree) and `archive/` (init + one delivery of it). */
export async function buildArchive(
  prefix: string,
  env: Record<string, string> = {},
): Promise<{ archive: TestArchive; tree: SourceTree; base: string }> {
  const base = await makeTempDir(prefix);
  const tree = await writeSourceTree(join(base, 'src'));
  const archive = await initArchive(join(base, 'archive'), env);
  await ingest(archive, [tree.root]);
  return { archive, tree, base };
}

/** A copy of an archive directory (SQLite index included) in a fresh temp dir. */
export async function cloneArchive(from: TestArchive, prefix: string): Promise<TestArchive> {
  const dir = join(await makeTempDir(prefix), 'archive');
  await cp(from.dir, dir, { recursive: true, preserveTimestamps: true });
  return { ...from, dir };
}

// ---------------------------------------------------------------------------------------------
// Reading results

export interface Finding {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  subject: string | null;
}

export interface VerifyJson {
  ok: boolean;
  ledger: { size: number; root: string; torn_tail_bytes: number };
  checkpoints: { stored: number; verified: number; latest_size: number | null };
  objects: { listed: number; hashed: number; bytes: number; referenced: number; withdrawn: number };
  trusted: { file: string; size: number | null; result: string }[];
  index: { rows_compared: number; ledger_size_in_index: number };
  findings: Finding[];
  recorded_seq: number | null;
}

export interface VerifyRun {
  code: number | null;
  report: VerifyJson;
  codes: string[];
  stderr: string;
}

/** `custody verify --json [...extra]`; fails the test if stdout is not the JSON report. */
export async function verifyJson(archive: TestArchive, extra: string[] = []): Promise<VerifyRun> {
  const r = await fixtureRun(['verify', '--archive', archive.dir, '--json', ...extra], archive.env);
  let report: VerifyJson;
  try {
    report = JSON.parse(r.stdout) as VerifyJson;
  } catch {
    throw new Error(
      `verify printed no JSON report (exit ${String(r.code)})\nstdout: ${r.stdout}\nstderr: ${r.stderr}`,
    );
  }
  return {
    code: r.code,
    report,
    codes: [...new Set(report.findings.map((f) => f.code))].sort(),
    stderr: r.stderr,
  };
}

/** Asserts a clean verify: exit 0, ok, and no error or warning findings. */
export async function expectClean(archive: TestArchive, extra: string[] = []): Promise<VerifyRun> {
  const v = await verifyJson(archive, extra);
  const loud = v.report.findings.filter((f) => f.severity !== 'info');
  expect(loud, JSON.stringify(v.report.findings, null, 2)).toEqual([]);
  expect(v.code).toBe(0);
  expect(v.report.ok).toBe(true);
  return v;
}

/** Asserts verify exits 1 and reports `code` (among possibly others). */
export async function expectFinding(
  archive: TestArchive,
  code: string,
  extra: string[] = [],
): Promise<VerifyRun> {
  const v = await verifyJson(archive, extra);
  expect(v.codes, JSON.stringify(v.report.findings, null, 2)).toContain(code);
  expect(v.code).toBe(1);
  expect(v.report.ok).toBe(false);
  return v;
}

export interface LedgerEntry {
  seq: number;
  time: string;
  actor: string;
  type: string;
  items: string[];
  objects: string[];
  details: Record<string, unknown>;
}

export interface LogLine {
  index: number;
  entry: LedgerEntry;
  leaf_hash: string;
  canonical: string;
}

export async function readLog(archive: TestArchive): Promise<LogLine[]> {
  const r = await fixtureExpect(0, ['log', '--archive', archive.dir, '--json'], archive.env);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LogLine);
}

export interface ItemJson {
  id: string;
  seq: number;
  delivery: string;
  parent: string | null;
  member_index: number | null;
  path: string;
  relative_path: string;
  name: string;
  size: number;
  media_type: string;
  sha256: string;
  flags: string[];
  actor: string;
}

export async function listItems(archive: TestArchive): Promise<ItemJson[]> {
  const r = await fixtureExpect(0, ['items', '--archive', archive.dir, '--json'], archive.env);
  return JSON.parse(r.stdout) as ItemJson[];
}

/** The one item whose relative path ends with `suffix` (zip members: e.g. 'inner/data.bin'). */
export function itemAt(items: readonly ItemJson[], suffix: string): ItemJson {
  const found = items.filter(
    (i) =>
      i.relative_path === suffix ||
      i.relative_path.endsWith(`/${suffix}`) ||
      i.path.endsWith(`/${suffix}`),
  );
  expect(
    found.map((i) => i.relative_path),
    `exactly one item at ${suffix}`,
  ).toHaveLength(1);
  return found[0] as ItemJson;
}

// ---------------------------------------------------------------------------------------------
// Raw archive files

export function objectPath(dir: string, sha256: string): string {
  return join(dir, 'objects', 'sha256', sha256.slice(0, 2), sha256);
}

export const ledgerPath = (dir: string): string => join(dir, 'ledger', 'entries.jsonl');
export const checkpointsDir = (dir: string): string => join(dir, 'ledger', 'checkpoints');
export const checkpointPath = (dir: string, size: number): string =>
  join(checkpointsDir(dir), `${String(size).padStart(16, '0')}.checkpoint`);

/** The ledger's lines, without their newlines. */
export async function readLedgerLines(dir: string): Promise<string[]> {
  const text = await readFile(ledgerPath(dir), 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n');
}

export async function writeLedgerLines(dir: string, lines: readonly string[]): Promise<void> {
  await writeFile(ledgerPath(dir), lines.map((l) => `${l}\n`).join(''));
}

export async function checkpointSizes(dir: string): Promise<number[]> {
  return (await readdir(checkpointsDir(dir)))
    .map((n) => /^(\d{16})\.checkpoint$/.exec(n)?.[1])
    .filter((s): s is string => s !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** SHA-256 of every file under `dir` (relative path → hex), leaving out SQLite's -wal/-shm. */
export async function hashTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (!/-(wal|shm)$/.test(e.name)) out.set(relative(dir, p), sha256Hex(await readFile(p)));
    }
  };
  await walk(dir);
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

export async function fileMode(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

// ---------------------------------------------------------------------------------------------
// The index database, behind the ledger's back

/** A tiny SQL door into the archive's index, whichever database holds it. */
export interface IndexDb {
  exec(sql: string, params?: unknown[]): Promise<void>;
  rows<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** Placeholders are written `?` and rewritten to `$n` for PostgreSQL. */
export async function withIndexDb<T>(
  archive: TestArchive,
  fn: (db: IndexDb) => Promise<T>,
): Promise<T> {
  const url = archive.env.DATABASE_URL;
  if (url === undefined || url === '') {
    const db = new Database(join(archive.dir, 'index.sqlite'));
    try {
      return await fn({
        exec: (sql, params = []) => {
          db.prepare(sql).run(...params);
          return Promise.resolve();
        },
        rows: <R>(sql: string, params: unknown[] = []) =>
          Promise.resolve(db.prepare(sql).all(...params) as R[]),
      });
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const numbered = (sql: string): string => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  try {
    return await fn({
      exec: async (sql, params = []) => {
        await client.query(numbered(sql), params);
      },
      rows: async <R>(sql: string, params: unknown[] = []) =>
        (await client.query(numbered(sql), params)).rows as R[],
    });
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// The project's own primitives, from the compiled code the CLI runs

type MerkleModule = typeof import('../../src/core/merkle.js');
type CheckpointModule = typeof import('../../src/core/checkpoint.js');

const DIST_CORE = fileURLToPath(new URL('../../dist/src/core/', import.meta.url));

/** dist/src/core/{merkle,checkpoint}.js (typed by their sources; a computed path keeps tsc off dist). */
export async function loadCore(): Promise<{ merkle: MerkleModule; checkpoint: CheckpointModule }> {
  const load = (name: string): Promise<unknown> =>
    import(pathToFileURL(join(DIST_CORE, name)).href);
  return {
    merkle: (await load('merkle.js')) as MerkleModule,
    checkpoint: (await load('checkpoint.js')) as CheckpointModule,
  };
}

export async function readSigningKey(dir: string, passphrase?: string): Promise<KeyObject> {
  const pem = await readFile(join(dir, 'keys', 'checkpoint-signing.pem'), 'utf8');
  return createPrivateKey(passphrase === undefined ? pem : { key: pem, format: 'pem', passphrase });
}

/**
 * What an insider holding the signing key does after rewriting the ledger: recompute the
 * Merkle root at each of `sizes` over the ledger as it now is, and sign a checkpoint for each,
 * replacing whatever checkpoint files were there.
 */
export async function resignCheckpoints(
  archive: TestArchive,
  sizes: readonly number[],
  key?: KeyObject,
): Promise<void> {
  const { merkle, checkpoint } = await loadCore();
  const lines = await readLedgerLines(archive.dir);
  const tree = new merkle.MerkleTree(lines.map((l) => merkle.hashLeaf(Buffer.from(l, 'utf8'))));
  const signer = checkpoint.createEd25519Signer(
    archive.origin,
    key ?? (await readSigningKey(archive.dir)),
  );
  for (const size of sizes) {
    const note = checkpoint.signCheckpoint(
      { origin: archive.origin, size, root: tree.root(size), extensions: [] },
      signer,
    );
    await writeFile(checkpointPath(archive.dir, size), note);
  }
}

/** Parses the body of a signed checkpoint note (origin, size, root) without checking it. */
export function checkpointBody(note: string): {
  origin: string;
  size: number;
  root: Buffer;
  signatures: string[];
} {
  const [body = '', sigs = ''] = note.split('\n\n');
  const [origin = '', size = '', root = ''] = body.split('\n');
  return {
    origin,
    size: Number(size),
    root: Buffer.from(root, 'base64'),
    signatures: sigs.split('\n').filter((l) => l !== ''),
  };
}
