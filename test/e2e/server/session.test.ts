// Issue 12, "The server" → sessions: sign-in by account, HttpOnly SameSite=Strict cookies, the
// CSRF token on state-changing requests, stable error bodies, sign-ins in the ledger.
import { randomBytes, scryptSync } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { verifyPassword } from '../../../src/accounts/index.js';
import { describeDatabases } from '../../support/postgres.js';
import { servedArchive, signIn, TEST_PASSWORD, type ServedArchive } from '../../support/server.js';

describeDatabases('server sessions', (db) => {
  let s: ServedArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeEach(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(
      `server-session-${db.kind}`,
      [
        ['Admin Person', 'administrator'],
        ['Examiner One', 'examiner'],
      ],
      { dbUrl: made.url, template: true },
    );
  });
  afterEach(async () => {
    await s.close();
    await cleanup();
  });

  it('signs in by name and password: an HttpOnly, SameSite=Strict cookie and a CSRF token; the sign-in is a ledger entry naming the account id', async () => {
    const r = await s.server.inject({
      method: 'POST',
      url: '/api/session',
      payload: { name: 'examiner one', password: TEST_PASSWORD },
    });
    expect(r.statusCode).toBe(200);
    const cookie = r.cookies.find((c) => c.name === 'custody_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    const body = r.json<{ account: string; role: string; csrf_token: string }>();
    expect(body.account).toBe(s.accounts.get('Examiner One'));
    expect(body.role).toBe('examiner');
    expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const last = await s.open.ledger.read(s.open.ledger.size - 1, s.open.ledger.size);
    expect(last[0]?.entry.actor).toBe(body.account);
    expect(last[0]?.entry.details).toMatchObject({
      action: 'account.sign-in',
      account: body.account,
    });
  });

  it('refuses a wrong password and an unknown name alike (401 HTTP_SIGN_IN_FAILED), and records nothing in the ledger', async () => {
    const before = s.open.ledger.size;
    for (const payload of [
      { name: 'Examiner One', password: 'wrong-password-123' },
      { name: 'No Such Person', password: TEST_PASSWORD },
    ]) {
      const r = await s.server.inject({ method: 'POST', url: '/api/session', payload });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({
        code: 'HTTP_SIGN_IN_FAILED',
        message: expect.any(String) as string,
        details: {},
      });
      expect(r.cookies).toEqual([]);
    }
    expect(s.open.ledger.size).toBe(before);
  });

  it('a password hash an earlier release wrote (scrypt) still signs in, and that sign-in replaces it with Argon2id in the index (a wrong password changes nothing)', async () => {
    const id = s.accounts.get('Examiner One')!;
    const salt = randomBytes(16);
    const digest = scryptSync(TEST_PASSWORD, salt, 32, {
      N: 32768,
      r: 8,
      p: 1,
      maxmem: 64 * 1024 * 1024,
    });
    const legacy = `scrypt$N=32768,r=8,p=1$${salt.toString('base64')}$${digest.toString('base64')}`;
    await s.open.index.setAccountPassword(id, legacy);
    const signInAs = (password: string) =>
      s.server.inject({
        method: 'POST',
        url: '/api/session',
        payload: { name: 'Examiner One', password },
      });

    expect((await signInAs('wrong-password-123')).statusCode).toBe(401);
    expect(await s.open.index.getAccountPassword(id)).toBe(legacy);

    const before = s.open.ledger.size;
    expect((await signInAs(TEST_PASSWORD)).statusCode).toBe(200);
    const upgraded = (await s.open.index.getAccountPassword(id)) ?? '';
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=4\$/);
    expect(await verifyPassword(TEST_PASSWORD, upgraded)).toBe(true);
    // The ledger gets the sign-in and nothing about the hash.
    expect(s.open.ledger.size).toBe(before + 1);
    const [last] = await s.open.ledger.read(before, before + 1);
    expect(JSON.stringify(last?.entry)).not.toMatch(/argon2|scrypt/);

    // Current hashes are left as they are.
    expect((await signInAs(TEST_PASSWORD)).statusCode).toBe(200);
    expect(await s.open.index.getAccountPassword(id)).toBe(upgraded);
  });

  it('a route needing a session answers 401 HTTP_UNAUTHENTICATED without one, and with a forged cookie', async () => {
    for (const cookie of [undefined, 'custody_session=forged-token-value']) {
      const r = await s.server.inject({
        method: 'GET',
        url: '/api/status',
        headers: cookie === undefined ? {} : { cookie },
      });
      expect(r.statusCode).toBe(401);
      expect(r.json<{ code: string }>().code).toBe('HTTP_UNAUTHENTICATED');
    }
  });

  it('a state-changing request without the CSRF token, or with a forged one, is refused (403 HTTP_CSRF) and the session stays', async () => {
    const c = await signIn(s.server, 'Examiner One');
    for (const headers of [{}, { 'x-csrf-token': 'forged' }]) {
      const r = await s.server.inject({
        method: 'DELETE',
        url: '/api/session',
        headers: { cookie: c.cookie, ...headers },
      });
      expect(r.statusCode).toBe(403);
      expect(r.json<{ code: string }>().code).toBe('HTTP_CSRF');
    }
    expect((await c.request('GET', '/api/session')).statusCode).toBe(200);
    expect((await c.request('DELETE', '/api/session')).statusCode).toBe(204);
    expect((await c.request('GET', '/api/session')).statusCode).toBe(401);
  });

  it('a session id planted before sign-in is never adopted (fixation): sign-in issues a new one', async () => {
    const planted = 'custody_session=attacker-chosen-session-id';
    const r = await s.server.inject({
      method: 'POST',
      url: '/api/session',
      headers: { cookie: planted },
      payload: { name: 'Examiner One', password: TEST_PASSWORD },
    });
    expect(r.statusCode).toBe(200);
    const issued = r.cookies.find((c) => c.name === 'custody_session')?.value;
    expect(issued).not.toBe('attacker-chosen-session-id');
    expect(
      (await s.server.inject({ method: 'GET', url: '/api/session', headers: { cookie: planted } }))
        .statusCode,
    ).toBe(401);
  });

  it('status: the ledger size, the latest signed checkpoint and the verifier key', async () => {
    const c = await signIn(s.server, 'Admin Person');
    const r = await c.request('GET', '/api/status');
    expect(r.statusCode).toBe(200);
    const st = r.json<{
      ledger_size: number;
      verifier_key: string;
      items: number;
      database: string;
    }>();
    expect(st.ledger_size).toBe(s.open.ledger.size);
    expect(st.verifier_key).toBe(s.open.verifierKey);
    expect(st.items).toBe(0);
    expect(st.database).toBe(db.kind === 'sqlite' ? 'sqlite' : 'postgres');
  });

  it('bad input gets a stable error body with no stack: unknown route, malformed JSON, wrong content type, oversized body', async () => {
    const cases = [
      {
        req: { method: 'GET' as const, url: '/api/../../etc/passwd' },
        status: 404,
        code: 'HTTP_NOT_FOUND',
      },
      {
        req: {
          method: 'POST' as const,
          url: '/api/session',
          headers: { 'content-type': 'application/json' },
          payload: '{"name":',
        },
        status: 400,
        code: 'HTTP_BAD_REQUEST',
      },
      {
        req: {
          method: 'POST' as const,
          url: '/api/session',
          headers: { 'content-type': 'text/plain' },
          payload: 'name=x',
        },
        status: 415,
        code: 'HTTP_UNSUPPORTED_MEDIA_TYPE',
      },
      {
        req: {
          method: 'POST' as const,
          url: '/api/session',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ name: 'x'.repeat(2_000_000), password: 'y' }),
        },
        status: 413,
        code: 'HTTP_PAYLOAD_TOO_LARGE',
      },
      {
        req: {
          method: 'POST' as const,
          url: '/api/session',
          payload: { name: "x' OR 1=1 --", password: 'p', extra: 1 },
        },
        status: 400,
        code: 'HTTP_BAD_REQUEST',
      },
    ];
    for (const c of cases) {
      const r = await s.server.inject(c.req);
      expect([r.statusCode, r.json<{ code: string }>().code]).toEqual([c.status, c.code]);
      expect(r.body).not.toMatch(/at .*\.(ts|js):\d+|SELECT|sqlite|stack/i);
    }
  });

  it('the API is described: /api/openapi.json lists every route with its schema', async () => {
    const r = await s.server.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(r.statusCode).toBe(200);
    const doc = r.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
    expect(doc.openapi).toBe('3.1.0');
    for (const route of s.server.custody.routes) {
      const path = route.url.replace(/:([a-z_]+)/g, '{$1}');
      expect(
        doc.paths[path]?.[route.method.toLowerCase()],
        `${route.method} ${route.url}`,
      ).toBeDefined();
    }
  });
});
