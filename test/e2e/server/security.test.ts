// Issue 12, "The server" → sessions and security: login rate limiting and lockout, failed sign-ins
// in a rotating security log (never the ledger; never the typed name or the password in clear),
// the hourly count entry per existing account, security headers, idle timeout, Secure cookies,
// sessions ended when the account is disabled or its role changes, the readable docs.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { accountsPorts } from '../../../src/app.js';
import { changeRole, disableAccount } from '../../../src/accounts/accounts.service.js';
import { describeDatabases } from '../../support/postgres.js';
import { servedArchive, signIn, TEST_PASSWORD, type ServedArchive } from '../../support/server.js';
import type { ServerOptions } from '../../../src/http/server.js';

const T0 = Date.parse('2026-03-01T10:05:00.000Z');

describeDatabases('server security', (db) => {
  let s: ServedArchive | undefined;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let now = T0;

  async function serve(server: Partial<ServerOptions> = {}): Promise<ServedArchive> {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    now = T0;
    s = await servedArchive(
      `server-security-${db.kind}`,
      [
        ['Admin Person', 'administrator'],
        ['Examiner One', 'examiner'],
      ],
      { dbUrl: made.url, template: true, server: { clock: () => new Date(now), ...server } },
    );
    return s;
  }
  afterEach(async () => {
    await s?.close();
    s = undefined;
    await cleanup();
  });

  const attempt = (a: ServedArchive, name: string, password: string) =>
    a.server.inject({ method: 'POST', url: '/api/session', payload: { name, password } });

  async function ledgerText(a: ServedArchive): Promise<string> {
    return readFile(join(a.archive.dir, 'ledger', 'entries.jsonl'), 'utf8');
  }
  async function securityLogText(a: ServedArchive): Promise<string> {
    const dir = join(a.archive.dir, 'logs');
    const names = await readdir(dir).catch(() => [] as string[]);
    let all = '';
    for (const n of names) all += await readFile(join(dir, n), 'utf8');
    return all;
  }
  async function failureCounts(a: ServedArchive) {
    const entries = await a.open.ledger.read(0, a.open.ledger.size);
    return entries
      .map((e) => e.entry.details)
      .filter((d) => d.action === 'account.sign-in-failures');
  }

  it('lockout: N failed sign-ins of an account lock it (429 HTTP_RATE_LIMITED with Retry-After), even with the right password, until the window passes', async () => {
    const a = await serve({ signIn: { maxFailures: 3, windowMs: 15 * 60_000 } });
    for (let i = 0; i < 3; i++)
      expect((await attempt(a, 'Examiner One', `wrong-password-${i}`)).statusCode).toBe(401);
    const locked = await attempt(a, 'Examiner One', TEST_PASSWORD);
    expect([locked.statusCode, locked.json<{ code: string }>().code]).toEqual([
      429,
      'HTTP_RATE_LIMITED',
    ]);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.cookies).toEqual([]);
    // another account is not locked by it
    expect((await attempt(a, 'Admin Person', TEST_PASSWORD)).statusCode).toBe(200);
    now += 15 * 60_000 + 1000;
    expect((await attempt(a, 'Examiner One', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('per-IP rate limit on sign-in: past the limit, 429 HTTP_RATE_LIMITED with Retry-After, whatever the name', async () => {
    const a = await serve({ signIn: { perIpPerMinute: 3 } });
    for (let i = 0; i < 3; i++)
      expect((await attempt(a, `Nobody ${i}`, 'whatever-pass')).statusCode).toBe(401);
    const r = await attempt(a, 'Examiner One', TEST_PASSWORD);
    expect([r.statusCode, r.json<{ code: string }>().code]).toEqual([429, 'HTTP_RATE_LIMITED']);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a password typed into the name field never reaches the ledger or the security log in clear; the failure is in the security log, not the ledger', async () => {
    const a = await serve();
    const secret = 'Correct-Horse-Battery-Staple-9137';
    const before = a.open.ledger.size;
    expect((await attempt(a, secret, 'x')).statusCode).toBe(401);
    expect((await attempt(a, 'Examiner One', secret)).statusCode).toBe(401);
    expect(a.open.ledger.size).toBe(before);
    await a.server.custody.flushFailureCounts(true); // what stop writes
    const log = await securityLogText(a);
    const lines = log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.event, l.reason])).toEqual([
      ['sign-in-failed', 'unknown-name'],
      ['sign-in-failed', 'wrong-password'],
    ]);
    expect(lines[1]?.account).toBe(a.accounts.get('Examiner One'));
    expect(lines[0]?.name_mac).toMatch(/^[0-9a-f]{64}$/);
    for (const text of [log, await ledgerText(a)]) {
      expect(text).not.toContain(secret);
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
      expect(text.toLowerCase()).not.toContain('examiner one');
    }
  });

  it('the ledger gets one account.sign-in-failures entry per existing account per hour, with the count; unknown names get none', async () => {
    const a = await serve();
    const examiner = a.accounts.get('Examiner One');
    await attempt(a, 'Examiner One', 'wrong-password-1'); // 10:05
    now = Date.parse('2026-03-01T10:40:00.000Z');
    await attempt(a, 'examiner one', 'wrong-password-2');
    await attempt(a, 'No Such Person', 'wrong-password-3');
    expect(await failureCounts(a)).toEqual([]); // the hour has not ended
    now = Date.parse('2026-03-01T11:02:00.000Z');
    await attempt(a, 'Examiner One', 'wrong-password-4'); // writes 10:00's count, starts 11:00's
    now = Date.parse('2026-03-01T11:30:00.000Z');
    expect((await attempt(a, 'Examiner One', TEST_PASSWORD)).statusCode).toBe(200);
    expect(await failureCounts(a)).toEqual([
      { action: 'account.sign-in-failures', account: examiner, hour: '2026-03-01T10', count: 2 },
    ]);
    await a.server.custody.flushFailureCounts(true); // at stop: the hour in progress too
    await a.server.custody.flushFailureCounts(true);
    expect(await failureCounts(a)).toEqual([
      { action: 'account.sign-in-failures', account: examiner, hour: '2026-03-01T10', count: 2 },
      { action: 'account.sign-in-failures', account: examiner, hour: '2026-03-01T11', count: 1 },
    ]);
  });

  it('the security log rotates by size', async () => {
    const a = await serve({ securityLogBytes: 600, signIn: { maxFailures: 1000 } });
    for (let i = 0; i < 12; i++) await attempt(a, `Nobody ${i}`, 'whatever-pass');
    const names = (await readdir(join(a.archive.dir, 'logs'))).sort();
    expect(names).toContain('security.log');
    expect(names).toContain('security.log.1');
    for (const n of names)
      expect((await readFile(join(a.archive.dir, 'logs', n))).length).toBeLessThanOrEqual(600);
  });

  it('security headers on every response: strict CSP with frame-ancestors none, no-sniff, no referrer', async () => {
    const a = await serve();
    const c = await signIn(a.server, 'Admin Person');
    for (const r of [
      await c.request('GET', '/api/status'),
      await a.server.inject({ method: 'GET', url: '/api/status' }),
      await a.server.inject({ method: 'GET', url: '/no/such/route' }),
    ]) {
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
      expect(r.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('readable docs at /api/docs from bundled assets: nothing fetched elsewhere, and a CSP that allows only their own scripts and styles', async () => {
    const a = await serve();
    let r = await a.server.inject({ method: 'GET', url: '/api/docs' });
    if (r.statusCode === 302)
      r = await a.server.inject({
        method: 'GET',
        url: String(r.headers.location).replace(/^\.\//, '/api/docs/'),
      });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/text\/html/);
    expect(r.body).not.toMatch(/https?:\/\//);
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    const init = await a.server.inject({
      method: 'GET',
      url: '/api/docs/static/swagger-initializer.js',
    });
    expect(init.statusCode).toBe(200);
    expect(init.body).not.toMatch(/["'`]https?:\/\//); // no URL in code (a comment cites one)
    // the API itself keeps the strict policy
    const api = await a.server.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(String(api.headers['content-security-policy'])).toContain("default-src 'none'");
  });

  it('idle timeout: a session unused for longer than the timeout is gone (401), a used one stays', async () => {
    const a = await serve({ idleTimeoutMs: 10 * 60_000 });
    const c = await signIn(a.server, 'Examiner One');
    now += 9 * 60_000;
    const first = await c.request('GET', '/api/session');
    expect([first.statusCode, first.json<{ idle_timeout_s: number }>().idle_timeout_s]).toEqual([
      200, 600,
    ]);
    now += 9 * 60_000; // 18 min since sign-in, 9 since last use
    expect((await c.request('GET', '/api/session')).statusCode).toBe(200);
    now += 10 * 60_000 + 1000;
    const r = await c.request('GET', '/api/session');
    expect([r.statusCode, r.json<{ code: string }>().code]).toEqual([401, 'HTTP_UNAUTHENTICATED']);
  });

  it('Secure cookies and HSTS with secureCookies (custody serve --secure-cookies)', async () => {
    const a = await serve({ secureCookies: true });
    const r = await attempt(a, 'Examiner One', TEST_PASSWORD);
    expect(r.cookies.find((c) => c.name === 'custody_session')).toMatchObject({
      secure: true,
      httpOnly: true,
      sameSite: 'Strict',
    });
    expect(r.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('disabling an account ends its sessions at once (401), and it cannot sign in again', async () => {
    const a = await serve();
    const c = await signIn(a.server, 'Examiner One');
    const other = await signIn(a.server, 'Admin Person');
    await disableAccount(accountsPorts(a.open), 'Examiner One', 'left the team');
    const r = await c.request('GET', '/api/session');
    expect([r.statusCode, r.json<{ code: string }>().code]).toEqual([401, 'HTTP_UNAUTHENTICATED']);
    expect((await other.request('GET', '/api/session')).statusCode).toBe(200);
    expect((await attempt(a, 'Examiner One', TEST_PASSWORD)).statusCode).toBe(401);
  });

  it('changing an account role ends its sessions: the next sign-in carries the new role', async () => {
    const a = await serve();
    const c = await signIn(a.server, 'Examiner One');
    await changeRole(accountsPorts(a.open), 'Examiner One', 'auditor', 'moved to audit');
    expect((await c.request('GET', '/api/status')).statusCode).toBe(401);
    const again = await attempt(a, 'Examiner One', TEST_PASSWORD);
    expect(again.json<{ role: string }>().role).toBe('auditor');
  });
});
