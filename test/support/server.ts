// Helpers for tests of the team server: an archive with accounts, the server built over it (no
// port: `inject()`), and signed-in sessions that carry their cookie and CSRF token.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { openArchive, type Archive } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { buildServer, type ServerOptions } from '../../src/http/server.js';
import { custodyInExpect, type TestArchive } from './archive-fixtures.js';
import { makeTempDir } from './tmp.js';

export const TEST_PASSWORD = 'pw-server-test-0000';

export interface ServedArchive {
  archive: TestArchive;
  /** Account ids by name. */
  accounts: Map<string, string>;
  open: Archive;
  server: FastifyInstance;
  close(): Promise<void>;
}

/** A fresh archive (on `dbUrl`'s PostgreSQL when given) with one account per [name, role]. */
export async function servedArchive(
  prefix: string,
  users: readonly (readonly [string, string])[],
  opts: {
    dbUrl?: string | null;
    server?: Partial<ServerOptions>;
    before?: (a: TestArchive) => Promise<void>;
  } = {},
): Promise<ServedArchive> {
  const base = await makeTempDir(prefix);
  const env: Record<string, string> = opts.dbUrl ? { DATABASE_URL: opts.dbUrl } : {};
  const archive: TestArchive = { dir: join(base, 'archive'), origin: '', verifierKey: '', env };
  await custodyInExpect(0, ['init', '--archive', archive.dir], env);
  const pw = join(base, 'pw');
  await writeFile(pw, `${TEST_PASSWORD}\n`, { mode: 0o600 });
  const accounts = new Map<string, string>();
  for (const [name, role] of users) {
    const r = await custodyInExpect(
      0,
      [
        'user',
        'add',
        name,
        '--role',
        role,
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
  await opts.before?.(archive);
  const open = await openArchive(
    loadConfig(env, { archive: archive.dir, actor: 'server' }),
    'write',
    'serve',
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
