// Issue 12, "Tests" → hostile input on the API: oversized bodies, wrong content types, path
// traversal in ids, SQL metacharacters in filters, session fixation, a missing or forged CSRF
// token. Each gets a clear error and changes nothing: the ledger, the index and the sessions are
// as they were. (session.test.ts covers the basic cases on sign-in; these extend them to a route
// that writes.)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDatabases } from '../../support/postgres.js';
import {
  ingestObjects,
  servedArchive,
  signIn,
  TEST_PASSWORD,
  type Client,
  type ServedArchive,
} from '../../support/server.js';

describeDatabases('hostile input on the API', (db) => {
  let s: ServedArchive;
  let objects: string[] = [];
  let inv: Client;
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(
      `server-hostile-${db.kind}`,
      [
        ['Investigator One', 'investigator'],
        ['Examiner One', 'examiner'],
      ],
      {
        dbUrl: made.url,
        before: async (a) => {
          objects = await ingestObjects(a, 3);
        },
        server: { signIn: { perIpPerMinute: 10_000 } },
      },
    );
    inv = await signIn(s.server, 'Investigator One');
  });
  afterAll(async () => {
    await s?.close();
    await cleanup();
  });

  /** What must not change: the ledger (size and bytes), the index's view of it, its tables. */
  async function snapshot() {
    return {
      ledger: s.open.ledger.size,
      bytes: (await readFile(join(s.archive.dir, 'ledger', 'entries.jsonl'))).length,
      indexed: await s.open.index.ledgerSize(),
      items: await s.open.index.countItems(),
      objects: await s.open.index.countObjects(),
      accounts: (await s.open.index.listAccounts()).length,
    };
  }
  const codeOf = (r: { json<T>(): T }) => r.json<{ code: string }>().code;
  const noLeak = (body: string) =>
    expect(body).not.toMatch(/at .*\.(ts|js):\d+|SELECT|INSERT|sqlite|postgres|syntax error|stack/i);
  const valid = () => ({ objects: objects.slice(0, 2), decision: 'different' });

  it('a decision naming an object the archive does not hold: 404 HTTP_NOT_FOUND naming it; nothing written', async () => {
    const before = await snapshot();
    const missing = 'f'.repeat(64);
    const r = await inv.request('POST', '/api/decisions', { objects: [objects[0]!, missing], decision: 'different' });
    expect([r.statusCode, codeOf(r)]).toEqual([404, 'HTTP_NOT_FOUND']);
    expect(r.json<{ details: { object: string } }>().details.object).toBe(missing);
    expect(await snapshot()).toEqual(before);
  });

  it('oversized bodies: 413 HTTP_PAYLOAD_TOO_LARGE when signed in, 401 unread when not; nothing written', async () => {
    const before = await snapshot();
    const huge = JSON.stringify({ ...valid(), note: 'x'.repeat(2 * 1024 * 1024) });
    const r = await inv.request('POST', '/api/decisions', huge, { 'content-type': 'application/json' });
    expect([r.statusCode, codeOf(r)]).toEqual([413, 'HTTP_PAYLOAD_TOO_LARGE']);
    const anon = await s.server.inject({
      method: 'POST',
      url: '/api/decisions',
      headers: { 'content-type': 'application/json' },
      payload: huge,
    });
    expect([anon.statusCode, codeOf(anon)]).toEqual([401, 'HTTP_UNAUTHENTICATED']);
    // within the body limit, but over a field's own limit
    const long = await inv.request('POST', '/api/decisions', { ...valid(), note: 'y'.repeat(5000) });
    expect([long.statusCode, codeOf(long)]).toEqual([400, 'HTTP_BAD_REQUEST']);
    const many = await inv.request('POST', '/api/decisions', {
      objects: Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(64, '0')),
      decision: 'different',
    });
    expect([many.statusCode, codeOf(many)]).toEqual([400, 'HTTP_BAD_REQUEST']);
    expect(await snapshot()).toEqual(before);
  });

  it('wrong content types: 415 HTTP_UNSUPPORTED_MEDIA_TYPE, the body never parsed as JSON; nothing written', async () => {
    const before = await snapshot();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'text/html',
    ]) {
      const r = await inv.request('POST', '/api/decisions', JSON.stringify(valid()), { 'content-type': type });
      expect([r.statusCode, codeOf(r)], type).toEqual([415, 'HTTP_UNSUPPORTED_MEDIA_TYPE']);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('path traversal in ids: refused by the schema (400) or no route (404), never a file of the archive', async () => {
    const before = await snapshot();
    for (const id of ['../../custody.json', '..%2f..%2fcustody.json', '/etc/passwd', `${objects[0]}/../../x`]) {
      const r = await inv.request('POST', '/api/decisions', { objects: [id, objects[1]], decision: 'different' });
      expect([r.statusCode, codeOf(r)], id).toEqual([400, 'HTTP_BAD_REQUEST']);
    }
    for (const url of [
      '/api/../custody.json',
      '/api/%2e%2e/%2e%2e/custody.json',
      '/api/status/..%2f..%2fkeys%2fcheckpoint-signing.pem',
      '/api/docs/static/..%2f..%2f..%2fpackage.json',
      '/api/docs/static/../../../../etc/passwd',
    ]) {
      const r = await inv.request('GET', url);
      expect([400, 404], url).toContain(r.statusCode);
      expect(r.body).not.toMatch(/"origin"|BEGIN|PRIVATE|"dependencies"|root:/);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('SQL metacharacters in filters and fields: a clear error or a literal value, never SQL; nothing written, no table harmed', async () => {
    const before = await snapshot();
    const sqls = ["' OR '1'='1", "x'; DROP TABLE items; --", '"; DELETE FROM accounts; --', '%', '\\', '\u0000'];
    for (const q of sqls) {
      const r = await inv.request('GET', `/api/status?delivery=${encodeURIComponent(q)}&unit=${encodeURIComponent(q)}`);
      expect(r.statusCode, q).toBe(200);
      expect(r.json<{ items: number }>().items).toBe(before.items);
      const o = await inv.request('POST', '/api/decisions', { objects: [q, objects[1]], decision: q });
      expect([o.statusCode, codeOf(o)], q).toEqual([400, 'HTTP_BAD_REQUEST']);
      noLeak(o.body);
      const signInAs = await s.server.inject({ method: 'POST', url: '/api/session', payload: { name: q, password: q } });
      expect(signInAs.statusCode, q).toBeGreaterThanOrEqual(400);
      expect(['HTTP_SIGN_IN_FAILED', 'HTTP_BAD_REQUEST']).toContain(codeOf(signInAs));
      noLeak(signInAs.body);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('session fixation: a cookie held before sign-in, even a live session of another account, is never kept; the new session id is fresh', async () => {
    const other = await signIn(s.server, 'Examiner One');
    const r = await s.server.inject({
      method: 'POST',
      url: '/api/session',
      headers: { cookie: other.cookie },
      payload: { name: 'Investigator One', password: TEST_PASSWORD },
    });
    expect(r.statusCode).toBe(200);
    const issued = r.cookies.find((c) => c.name === 'custody_session')?.value;
    expect(`custody_session=${issued}`).not.toBe(other.cookie);
    // the session presented at sign-in is ended, not promoted
    expect((await other.request('GET', '/api/session')).statusCode).toBe(401);
    // and a token never issued is not adopted by sending it with a sign-in
    const planted = 'custody_session=' + 'A'.repeat(43);
    const r2 = await s.server.inject({
      method: 'POST',
      url: '/api/session',
      headers: { cookie: planted },
      payload: { name: 'Examiner One', password: TEST_PASSWORD },
    });
    expect(r2.cookies.find((c) => c.name === 'custody_session')?.value).not.toBe('A'.repeat(43));
    expect((await s.server.inject({ method: 'GET', url: '/api/session', headers: { cookie: planted } })).statusCode).toBe(401);
  });

  it("missing or forged CSRF on a writing route: 403 HTTP_CSRF, nothing written; another session's token, or the token in the query or body, does not count", async () => {
    const other = await signIn(s.server, 'Examiner One'); // a sign-in is a ledger entry: before the snapshot
    const before = await snapshot();
    const attempts: Record<string, string>[] = [
      {},
      { 'x-csrf-token': 'forged' },
      { 'x-csrf-token': '' },
      { 'x-csrf-token': other.csrf },
      { 'x-csrf-token': inv.csrf.slice(0, -1) },
    ];
    for (const headers of attempts) {
      const r = await s.server.inject({
        method: 'POST',
        url: `/api/decisions?csrf_token=${inv.csrf}`,
        headers: { cookie: inv.cookie, 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({ ...valid(), csrf_token: inv.csrf }),
      });
      expect([r.statusCode, codeOf(r)], JSON.stringify(headers)).toEqual([403, 'HTTP_CSRF']);
    }
    expect(await snapshot()).toEqual(before);
    // the same request with the session's own token is accepted: the refusals were the token's
    const ok = await inv.request('POST', '/api/decisions', valid());
    expect(ok.statusCode).toBe(201);
  });

  it('20 concurrent decision requests all land (group commit), each acknowledged with its own entry', async () => {
    const size = s.open.ledger.size;
    const rs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        inv.request('POST', '/api/decisions', { ...valid(), note: `concurrent ${i}` }),
      ),
    );
    expect(rs.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(s.open.ledger.size).toBe(size + 20);
    expect(await s.open.index.ledgerSize()).toBe(size + 20);
    const seqs = rs.map((r) => r.json<{ seq: number }>().seq);
    const entries = await s.open.ledger.read(size, size + 20);
    for (const [i, seq] of seqs.entries()) {
      const e = entries.find((x) => x.entry.seq === seq);
      expect(e?.entry.details.note).toBe(`concurrent ${i}`);
      expect(e?.entry.actor).toBe(s.accounts.get('Investigator One'));
    }
  });
});
