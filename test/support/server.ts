// Helpers for tests of the team server: an archive with accounts, the server built over it (no
// port: `inject()`), and signed-in sessions that carry their cookie and CSRF token.
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { openArchive, type Archive } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { buildServer, type ServerOptions } from '../../src/http/server.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  CLEAN_ENV,
  custodyInExpect,
  sha256Hex,
  writeExtraFiles,
  type TestArchive,
} from './archive-fixtures.js';
import { createTestDatabase, replaceTestDatabase, testPostgresUrl } from './postgres.js';
import { makeTempDir, onTestFileEnd } from './tmp.js';

export const TEST_PASSWORD = 'pw-server-test-0000';

export interface ServedArchive {
  archive: TestArchive;
  /** Account ids by name. */
  accounts: Map<string, string>;
  open: Archive;
  server: FastifyInstance;
  close(): Promise<void>;
}

/** A fresh archive (on `dbUrl`'s PostgreSQL when given) with one account per [name, role, organisation?]. */
export async function servedArchive(
  prefix: string,
  users: Users,
  opts: {
    dbUrl?: string | null;
    server?: Partial<ServerOptions>;
    before?: (a: TestArchive) => Promise<void>;
    /** openArchive's options (e.g. writerCadence). */
    open?: Parameters<typeof openArchive>[3];
    /** Serve this existing archive (no init, no new accounts). */
    reuse?: TestArchive;
    /**
     * Copy the archive (init and accounts) from one built once per test file for these users and
     * this database kind, instead of building it again: for files that serve a fresh archive per
     * test. The copies share one identity (origin, signing key, account ids).
     */
    template?: boolean;
  } = {},
): Promise<ServedArchive> {
  const env: Record<string, string> = opts.dbUrl ? { DATABASE_URL: opts.dbUrl } : {};
  const accounts = new Map<string, string>();
  const archive: TestArchive = opts.reuse ?? {
    dir: join(await makeTempDir(prefix), 'archive'),
    origin: '',
    verifierKey: '',
    env,
  };
  if (opts.reuse === undefined && opts.template === true) {
    const made = await templateArchive(prefix, users, opts.dbUrl ?? null);
    await cp(made.archive.dir, archive.dir, { recursive: true, preserveTimestamps: true });
    if (opts.dbUrl) await replaceTestDatabase(testPostgresUrl(), opts.dbUrl, made.archive.env.DATABASE_URL ?? '');
    for (const [name, id] of made.accounts) accounts.set(name, id);
    await writeFile(join(archive.dir, '..', 'pw'), `${TEST_PASSWORD}\n`, { mode: 0o600 });
  } else {
    if (opts.reuse === undefined) await custodyInExpect(0, ['init', '--archive', archive.dir], env);
    for (const [name, id] of await addUsers(archive, users, env)) accounts.set(name, id);
  }
  await opts.before?.(archive);
  const open = await openArchive(
    loadConfig(env, { archive: archive.dir, actor: 'server' }),
    'write',
    'serve',
    opts.open,
  );
  const server = await buildServer({ archive: open, ...opts.server });
  return {
    archive,
    accounts,
    open,
    server,
    async close() {
      await server.close();
      await open.close();
    },
  };
}

type Users = readonly (readonly [string, string] | readonly [string, string, string])[];

/** Adds one account per [name, role, organisation?] with TEST_PASSWORD; name → account id. */
async function addUsers(
  archive: TestArchive,
  users: Users,
  env: Record<string, string>,
): Promise<Map<string, string>> {
  const accounts = new Map<string, string>();
  const pw = join(archive.dir, '..', 'pw');
  await writeFile(pw, `${TEST_PASSWORD}\n`, { mode: 0o600 });
  for (const [name, role, org] of users) {
    const r = await custodyInExpect(
      0,
      [
        'user',
        'add',
        name,
        '--role',
        role,
        ...(org === undefined ? [] : ['--org', org]),
        '--password-file',
        pw,
        '--json',
        '--archive',
        archive.dir,
      ],
      env,
    );
    accounts.set(name, (JSON.parse(r.stdout) as { id: string }).id);
  }
  return accounts;
}

/**
 * servedArchive's `template`: the archive (init and accounts) built once per test file for each
 * set of users and database kind, and copied for each test that asks (the folder with cp, a
 * PostgreSQL index with CREATE DATABASE … TEMPLATE). The copies share the archive's identity
 * (origin, signing key, account ids), as a restored backup would; each has its own files.
 */
const templates = new Map<string, Promise<{ archive: TestArchive; accounts: Map<string, string> }>>();
const templateDatabases: (() => Promise<void>)[] = [];
onTestFileEnd(async () => {
  templates.clear();
  for (const drop of templateDatabases.splice(0)) await drop();
});

function templateArchive(
  prefix: string,
  users: Users,
  dbUrl: string | null,
): Promise<{ archive: TestArchive; accounts: Map<string, string> }> {
  const key = JSON.stringify([dbUrl === null ? 'sqlite' : 'postgres', users]);
  let made = templates.get(key);
  if (made === undefined) {
    made = (async () => {
      const env: Record<string, string> = {};
      if (dbUrl !== null) {
        const db = await createTestDatabase(testPostgresUrl());
        templateDatabases.push(() => db.drop());
        env.DATABASE_URL = db.url;
      }
      const archive: TestArchive = {
        dir: join(await makeTempDir(`${prefix}-template`), 'archive'),
        origin: '',
        verifierKey: '',
        env,
      };
      await custodyInExpect(0, ['init', '--archive', archive.dir], env);
      return { archive, accounts: await addUsers(archive, users, env) };
    })();
    templates.set(key, made);
  }
  return made;
}

/** A signed-in client: every request carries the session cookie, and the CSRF token on writes. */
export interface Client {
  readonly csrf: string;
  readonly cookie: string;
  request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

export async function signIn(
  server: FastifyInstance,
  name: string,
  password = TEST_PASSWORD,
): Promise<Client> {
  const r = await server.inject({
    method: 'POST',
    url: '/api/session',
    payload: { name, password },
  });
  if (r.statusCode !== 200) throw new Error(`sign-in of ${name} failed: ${r.statusCode} ${r.body}`);
  const set = r.cookies.find((c) => c.name === 'custody_session');
  if (set === undefined) throw new Error('no session cookie');
  const cookie = `custody_session=${set.value}`;
  const csrf = r.json<{ csrf_token: string }>().csrf_token;
  return {
    csrf,
    cookie,
    request: (method, url, body, headers = {}) =>
      server.inject({
        method,
        url,
        headers: { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }), ...headers },
        ...(body === undefined ? {} : { payload: body as object }),
      }),
  };
}

/** Ingests `count` small random files into the archive (the objects decisions can name); their sha256s. */
export async function ingestObjects(archive: TestArchive, count = 3): Promise<string[]> {
  const root = join(await makeTempDir('server-objects'), 'files');
  const files = await writeExtraFiles(root, count);
  await custodyInExpect(
    0,
    ['ingest', root, '--source', 'SRC-SERVER', '--new-source', '--archive', archive.dir, '--json'],
    archive.env,
  );
  return [...files.values()].map((b) => sha256Hex(b)).sort();
}

/** A `custody serve` subprocess on a free port of 127.0.0.1. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const BIN = fileURLToPath(new URL('../../bin/custody.js', import.meta.url));

export async function startServe(
  archive: TestArchive,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--archive', archive.dir],
    {
      env: { ...process.env, ...CLEAN_ENV, CUSTODY_ACTOR: 'server', ...archive.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`custody serve did not start: ${out} ${err}`));
    }, 60_000);
    const check = (): void => {
      const m = /serving .* at (http:\/\/[0-9.:]+)/.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`custody serve exited: ${out} ${err}`));
    });
  });
  return { url, child, stdout: () => out, stderr: () => err, exited };
}

/** A signed-in client of a real server (fetch). */
export async function signInOver(
  url: string,
  name: string,
  password = TEST_PASSWORD,
): Promise<{ post(path: string, body: unknown): Promise<Response> }> {
  const r = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
  });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${await r.text()}`);
  const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { csrf_token } = (await r.json()) as { csrf_token: string };
  return {
    post: (path, body) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf_token },
        body: JSON.stringify(body),
      }),
  };
}
