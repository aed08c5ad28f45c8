// Issue 12, "Evidence bytes" and "Views are evidence too": originals streamed with ranges and an
// ETag that is the SHA-256, never rendered as a page; blurred previews unlogged; every download
// and unblurred view a ledger entry naming the account, one per (account, item, hour).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openArchive } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/config.js';
import { buildServer } from '../../../src/http/server.js';
import { custodyInExpect } from '../../support/archive-fixtures.js';
import { describeDatabases } from '../../support/postgres.js';
import { servedArchive, signIn, type Client, type ServedArchive } from '../../support/server.js';
import { ingestEvidence } from '../../support/server-evidence.js';

interface ItemRow {
  id: string;
  name: string;
  sha256: string;
  size: number;
}

describeDatabases('server evidence bytes and audited views', (db) => {
  let s: ServedArchive;
  let ina: Client;
  let abe: Client;
  let root: Client;
  let now = new Date('2026-05-01T10:05:00.000Z');
  const byName = new Map<string, ItemRow>();
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(
      `server-evidence-${db.kind}`,
      [
        ['Investigator Ina', 'investigator'],
        ['Auditor Abe', 'auditor'],
        ['Admin Root', 'administrator'],
        ['Lawyer Lou', 'lawyer'],
      ],
      { dbUrl: made.url, before: ingestEvidence, // Sessions run on the same clock: a long idle timeout, so moving the hour keeps them.
        server: { clock: () => now, idleTimeoutMs: 30 * 24 * 3600 * 1000 } },
    );
    ina = await signIn(s.server, 'Investigator Ina');
    abe = await signIn(s.server, 'Auditor Abe');
    root = await signIn(s.server, 'Admin Root');
    const r = await ina.request('GET', '/api/items?limit=50');
    for (const i of r.json<{ items: ItemRow[] }>().items) byName.set(i.name, i);
  });
  afterAll(async () => {
    await s?.close();
    await cleanup();
  });

  const item = (name: string): ItemRow => {
    const i = byName.get(name);
    if (i === undefined) throw new Error(`no item ${name}`);
    return i;
  };
  const viewEntries = async () =>
    (await s.open.ledger.read(0, s.open.ledger.size)).filter(
      (e) =>
        e.entry.type === 'dissemination' &&
        typeof e.entry.details.action === 'string' &&
        e.entry.details.action.startsWith('view.'),
    );
  const expectEvidenceHeaders = (headers: Record<string, unknown>) => {
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  };

  it('streams an original whole: its bytes, ETag the quoted SHA-256, inline as the image it is, nosniff and a sandboxing CSP', async () => {
    const a = item('a.jpg');
    const r = await ina.request('GET', `/api/items/${a.id}/original`);
    expect(r.statusCode).toBe(200);
    expect(createHash('sha256').update(r.rawPayload).digest('hex')).toBe(a.sha256);
    expect(r.headers.etag).toBe(`"${a.sha256}"`);
    expect(r.headers['content-type']).toBe('image/jpeg');
    expect(r.headers['content-disposition']).toMatch(/^inline; filename="a\.jpg"/);
    expect(r.headers['accept-ranges']).toBe('bytes');
    expectEvidenceHeaders(r.headers);
  });

  it('answers range requests with 206 and Content-Range, and bad ranges with 416 (Content-Range: bytes */size)', async () => {
    const a = item('a.jpg');
    const whole = (await ina.request('GET', `/api/items/${a.id}/original`)).rawPayload;
    const first = await ina.request('GET', `/api/items/${a.id}/original`, undefined, { range: 'bytes=0-9' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-9/${a.size}`);
    expect(first.rawPayload).toEqual(whole.subarray(0, 10));
    expectEvidenceHeaders(first.headers);
    const tail = await ina.request('GET', `/api/items/${a.id}/original`, undefined, { range: 'bytes=-5' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload).toEqual(whole.subarray(a.size - 5));
    const open = await ina.request('GET', `/api/items/${a.id}/original`, undefined, { range: `bytes=${a.size - 3}-` });
    expect(open.rawPayload).toEqual(whole.subarray(a.size - 3));
    for (const range of [`bytes=${a.size}-`, 'bytes=9-2', 'bytes=0-1,4-5', 'bytes=abc', 'bytes=-0']) {
      const r = await ina.request('GET', `/api/items/${a.id}/original`, undefined, { range });
      expect([range, r.statusCode]).toEqual([range, 416]);
      expect(r.headers['content-range']).toBe(`bytes */${a.size}`);
      expect(r.json<{ code: string }>().code).toBe('HTTP_RANGE_NOT_SATISFIABLE');
      expectEvidenceHeaders(r.headers);
    }
  });

  it('If-None-Match with the SHA-256 ETag answers 304 with no body', async () => {
    const a = item('b.jpg');
    const r = await ina.request('GET', `/api/items/${a.id}/original`, undefined, {
      'if-none-match': `"${a.sha256}"`,
    });
    expect(r.statusCode).toBe(304);
    expect(r.rawPayload.length).toBe(0);
    expect(r.headers.etag).toBe(`"${a.sha256}"`);
  });

  it('a planted HTML page and SVG in a delivery are served as opaque attachments, never as a page or an image that runs script', async () => {
    for (const name of ['page.html', 'drawing.svg']) {
      const i = item(name);
      const r = await ina.request('GET', `/api/items/${i.id}/original`);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('application/octet-stream');
      expect(r.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${name.replace('.', '\\.')}"`));
      expectEvidenceHeaders(r.headers);
      expect(createHash('sha256').update(r.rawPayload).digest('hex')).toBe(i.sha256);
    }
  });

  it('blurred previews are served and not logged; an unblurred one is a ledger entry naming the account', async () => {
    const c = item('c.jpg');
    const before = (await viewEntries()).length;
    for (const size of [256, 1280]) {
      const r = await ina.request('GET', `/api/items/${c.id}/preview?size=${size}`);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.headers['content-type']).toBe('image/webp');
      expectEvidenceHeaders(r.headers);
    }
    expect((await viewEntries()).length).toBe(before);
    const bad = await ina.request('GET', `/api/items/${c.id}/preview?size=999`);
    expect(bad.statusCode).toBe(400);
    const u = await ina.request('GET', `/api/items/${c.id}/preview?size=1280&unblurred=true`);
    expect(u.statusCode).toBe(200);
    const blurred = await ina.request('GET', `/api/items/${c.id}/preview?size=1280`);
    expect(u.rawPayload.equals(blurred.rawPayload)).toBe(false);
    const after = await viewEntries();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)?.entry).toMatchObject({
      actor: s.accounts.get('Investigator Ina'),
      type: 'dissemination',
      items: [c.id],
      objects: [c.sha256],
      details: { action: 'view.unblurred', hour: '2026-05-01T10' },
    });
  });

  it('50 requests for one original in one hour are one ledger entry; the next hour another; another account its own', async () => {
    const b = item('b.jpg');
    now = new Date('2026-05-01T11:00:00.000Z');
    const count = async () =>
      (await viewEntries()).filter(
        (e) => e.entry.items[0] === b.id && e.entry.details.action === 'view.original',
      );
    const before = (await count()).length;
    const range = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        ina.request('GET', `/api/items/${b.id}/original`, undefined, { range: `bytes=${i}-${i + 10}` }),
      ),
    );
    expect(range.every((r) => r.statusCode === 206)).toBe(true);
    expect((await count()).length).toBe(before + 1);
    now = new Date('2026-05-01T11:59:59.999Z');
    await ina.request('GET', `/api/items/${b.id}/original`);
    expect((await count()).length).toBe(before + 1);
    now = new Date('2026-05-01T12:00:00.000Z');
    await ina.request('GET', `/api/items/${b.id}/original`);
    expect((await count()).length).toBe(before + 2);
    await root.request('GET', `/api/items/${b.id}/original`);
    const all = await count();
    expect(all.length).toBe(before + 3);
    expect(all.at(-1)?.entry.actor).toBe(s.accounts.get('Admin Root'));
    expect(all.map((e) => e.entry.details.hour)).toEqual(
      expect.arrayContaining(['2026-05-01T11', '2026-05-01T12']),
    );
  });

  it('audit views: who saw what and when; names only for a caller who may open staff names', async () => {
    const b = item('b.jpg');
    const r = await abe.request('GET', `/api/audit/views?item=${b.id}`);
    expect(r.statusCode).toBe(200);
    const out = r.json<{ views: { account: string; name: string | null; role: string; action: string; item: string }[]; names_shown: boolean }>();
    expect(out.names_shown).toBe(false);
    expect(out.views.length).toBeGreaterThanOrEqual(3);
    expect(out.views.every((v) => v.item === b.id && v.name === null)).toBe(true);
    expect(out.views.map((v) => v.account)).toContain(s.accounts.get('Investigator Ina'));
    const byRoot = await root.request(
      'GET',
      `/api/audit/views?item=${b.id}&account=${s.accounts.get('Investigator Ina')}`,
    );
    const named = byRoot.json<{ views: { name: string | null; role: string }[]; names_shown: boolean }>();
    expect(named.names_shown).toBe(true);
    // 10:05 (the If-None-Match request), 11:00 (the 50 range requests and the one at 11:59), 12:00
    expect(named.views.length).toBe(3);
    expect(named.views.every((v) => v.name === 'Investigator Ina' && v.role === 'investigator')).toBe(true);
    const since = await abe.request('GET', `/api/audit/views?since=2099-01-01`);
    expect(since.json<{ views: unknown[] }>().views).toEqual([]);
    const lou = await signIn(s.server, 'Lawyer Lou');
    expect((await lou.request('GET', '/api/audit/views')).statusCode).toBe(403);
  });

  it('a restart does not record an hour again (the recorded hours are in the index, from the ledger); verify is clean; `custody audit views` lists them', async () => {
    const b = item('b.jpg');
    const before = (await viewEntries()).length;
    await s.close();
    const open = await openArchive(
      loadConfig(s.archive.env, { archive: s.archive.dir, actor: 'server' }),
      'write',
      'serve',
    );
    const server = await buildServer({ archive: open, clock: () => now, idleTimeoutMs: 30 * 24 * 3600 * 1000 });
    s = { ...s, open, server, close: async () => { await server.close(); await open.close(); } };
    const again = await signIn(server, 'Investigator Ina');
    expect((await again.request('GET', `/api/items/${b.id}/original`)).statusCode).toBe(200);
    expect((await viewEntries()).length).toBe(before);
    await s.close();
    await custodyInExpect(0, ['verify', '--archive', s.archive.dir, '--json'], s.archive.env);
    const cli = await custodyInExpect(
      0,
      ['audit', 'views', '--item', b.id, '--json', '--archive', s.archive.dir],
      s.archive.env,
    );
    const rows = JSON.parse(cli.stdout) as { account: string; action: string; name: string | null }[];
    expect(rows.length).toBe(4);
    expect(rows.every((r) => r.action === 'view.original' && r.name === null)).toBe(true);
    const bad = await custodyInExpect(2, ['audit', 'views', '--user', 'Investigator Ina', '--archive', s.archive.dir], s.archive.env);
    expect(bad.stderr).toMatch(/--names/);
    // Reopen so afterAll can close it.
    const reopened = await openArchive(
      loadConfig(s.archive.env, { archive: s.archive.dir, actor: 'server' }),
      'write',
      'serve',
    );
    const server2 = await buildServer({ archive: reopened });
    s = { ...s, open: reopened, server: server2, close: async () => { await server2.close(); await reopened.close(); } };
  });
});
