// Issue 12, "The server" → routes: items with filters and paging, item detail, subjects, units,
// the ledger, checkpoints and proofs; ids validated by pattern; queries parameterised.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { custodyInExpect } from '../../support/archive-fixtures.js';
import { ingestEvidence } from '../../support/server-evidence.js';
import { describeDatabases } from '../../support/postgres.js';
import { servedArchive, signIn, type Client, type ServedArchive } from '../../support/server.js';

interface ItemRow {
  id: string;
  name: string;
  sha256: string;
  make: string | null;
  delivery: string;
  date_time_original: string | null;
}
interface ItemPage {
  items: ItemRow[];
  total: number;
  next_cursor: string | null;
}

describeDatabases('server read routes', (db) => {
  let s: ServedArchive;
  let admin: Client;
  let examiner: Client;
  let auditor: Client;
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(
      `server-reads-${db.kind}`,
      [
        ['Investigator Ina', 'investigator'],
        ['Examiner Eve', 'examiner'],
        ['Auditor Abe', 'auditor'],
      ],
      { dbUrl: made.url, before: ingestEvidence },
    );
    admin = await signIn(s.server, 'Investigator Ina');
    examiner = await signIn(s.server, 'Examiner Eve');
    auditor = await signIn(s.server, 'Auditor Abe');
  });
  afterAll(async () => {
    await s?.close();
    await cleanup();
  });

  const page = async (c: Client, qs: string): Promise<ItemPage> => {
    const r = await c.request('GET', `/api/items${qs}`);
    expect(r.statusCode, r.body).toBe(200);
    return r.json<ItemPage>();
  };

  it('lists items with their camera and date, and filters by delivery, camera and date range', async () => {
    const all = await page(admin, '');
    expect(all.total).toBe(5);
    expect(all.items.map((i) => i.name).sort()).toEqual([
      'a.jpg',
      'b.jpg',
      'c.jpg',
      'drawing.svg',
      'page.html',
    ]);
    const delivery = all.items[0]!.delivery;
    expect((await page(admin, `?delivery=${delivery}`)).total).toBe(5);
    const alpha = await page(admin, '?camera=alpha');
    expect(alpha.items.map((i) => i.name).sort()).toEqual(['a.jpg', 'b.jpg']);
    expect((await page(admin, '?camera=Beta%20One')).items.map((i) => i.name)).toEqual(['c.jpg']);
    const march = await page(admin, '?taken_from=2024-03-01&taken_to=2024-03-05');
    expect(march.items.map((i) => i.name)).toEqual(['a.jpg']);
    expect((await page(admin, '?sampled=false')).total).toBe(5);
    expect((await page(admin, '?sampled=true')).total).toBe(0);
  });

  it('pages by offset and by cursor, in a stable order, with a maximum page size', async () => {
    const first = await page(admin, '?sort=name&limit=2');
    expect(first.items.map((i) => i.name)).toEqual(['a.jpg', 'b.jpg']);
    expect(first.next_cursor).not.toBeNull();
    const second = await page(admin, `?sort=name&limit=2&cursor=${first.next_cursor}`);
    expect(second.items.map((i) => i.name)).toEqual(['c.jpg', 'drawing.svg']);
    const byOffset = await page(admin, '?sort=name&limit=2&offset=2');
    expect(byOffset.items.map((i) => i.name)).toEqual(['c.jpg', 'drawing.svg']);
    const desc = await page(admin, '?sort=name&order=desc&limit=1');
    expect(desc.items.map((i) => i.name)).toEqual(['page.html']);
    const tooMany = await admin.request('GET', '/api/items?limit=501');
    expect([tooMany.statusCode, tooMany.json<{ code: string }>().code]).toEqual([
      400,
      'HTTP_BAD_REQUEST',
    ]);
    const forged = await admin.request('GET', '/api/items?cursor=bm90LWEtY3Vyc29y');
    expect([forged.statusCode, forged.json<{ code: string }>().code]).toEqual([
      400,
      'HTTP_BAD_REQUEST',
    ]);
  });

  it('SQL metacharacters in filters are values, not SQL: nothing matches, nothing changes, no SQL in the body', async () => {
    const before = s.open.ledger.size;
    for (const camera of ["alpha' OR '1'='1", 'x"; DROP TABLE items; --', "%' --"]) {
      const r = await admin.request('GET', `/api/items?camera=${encodeURIComponent(camera)}`);
      expect(r.statusCode).toBe(200);
      expect(r.json<ItemPage>().total).toBe(0);
    }
    for (const q of ["delivery=1' OR 1=1 --", 'unit=;DROP TABLE items', "sort=name;--", 'taken_from=2024-01-01%27']) {
      const r = await admin.request('GET', `/api/items?${q}`);
      expect([r.statusCode, r.json<{ code: string }>().code]).toEqual([400, 'HTTP_BAD_REQUEST']);
      expect(r.body).not.toMatch(/SELECT|sqlite|syntax error|relation/i);
    }
    expect((await page(admin, '')).total).toBe(5);
    expect(s.open.ledger.size).toBe(before);
  });

  it('ids in paths are checked by pattern: traversal and SQL metacharacters get 400 or 404, an unknown id 404', async () => {
    const cases: [string, number][] = [
      ['/api/items/..%2F..%2Fetc%2Fpasswd', 400],
      ['/api/items/../../etc/passwd', 404],
      ["/api/items/1'%20OR%20'1'='1", 400],
      ['/api/items/01ARZ3NDEKTSV4RRFFQ69G5FAV', 404],
      ['/api/items/01ARZ3NDEKTSV4RRFFQ69G5FAV/original', 404],
      ['/api/items/..%2Fobjects/original', 400],
      ['/api/subjects/..%2F..', 400],
      ['/api/subjects/01ARZ3NDEKTSV4RRFFQ69G5FAV', 404],
      ['/api/proofs/1;DROP', 400],
      ['/api/proofs/999999', 404],
      ['/api/statistics/..%2F..%2Fetc', 400],
    ];
    for (const [url, status] of cases) {
      const r = await admin.request('GET', url);
      expect([url, r.statusCode]).toEqual([url, status]);
      expect(r.json<{ code: string }>().code).toMatch(/^(HTTP_BAD_REQUEST|HTTP_NOT_FOUND|NOT_FOUND|SUBJECT_NOT_FOUND)$/);
    }
  });

  it('item detail: metadata, indicators, the near-duplicate cluster, and the custody trail from the ledger', async () => {
    const a = (await page(admin, '?camera=alpha&sort=name')).items[0]!;
    const r = await admin.request('GET', `/api/items/${a.id}`);
    expect(r.statusCode, r.body).toBe(200);
    const d = r.json<{
      id: string;
      sha256: string;
      item: { id: string; name: string };
      metadata: { make: string; date_time_original: string };
      indicators: unknown[] | null;
      cluster: unknown;
      trail: { seq: number; type: string }[];
    }>();
    expect(d.id).toBe(a.id);
    expect(d.item.name).toBe('a.jpg');
    expect(d.metadata.make).toBe('Alpha');
    expect(d.metadata.date_time_original).toBe('2024:03:05 10:00:00');
    expect(Array.isArray(d.indicators)).toBe(true);
    const types = d.trail.map((t) => t.type);
    expect(types).toContain('ingestion');
    expect(types).toContain('metadata extraction');
    // The trail is what `custody log --item` gives.
    const log = await custodyInExpect(
      0,
      ['log', '--item', a.id, '--json', '--archive', s.archive.dir],
      s.archive.env,
    );
    const logged = log.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { index: number }).index);
    expect(d.trail.map((t) => t.seq)).toEqual(logged);
  });

  it('subjects and units answer (empty catalogue), paged', async () => {
    const subjects = await admin.request('GET', '/api/subjects?limit=10');
    expect(subjects.statusCode).toBe(200);
    expect(subjects.json()).toMatchObject({ subjects: [], total: 0, limit: 10, offset: 0 });
    const units = await admin.request('GET', '/api/units');
    expect(units.statusCode).toBe(200);
    expect(units.json()).toEqual({ units: [] });
  });

  it('the ledger a page at a time, as `custody log --json`; checkpoints; inclusion proofs as `custody prove`', async () => {
    const r = await auditor.request('GET', '/api/ledger?from=0&limit=3');
    expect(r.statusCode).toBe(200);
    const l = r.json<{ entries: { index: number; canonical: string }[]; next_from: number }>();
    expect(l.entries.map((e) => e.index)).toEqual([0, 1, 2]);
    expect(l.next_from).toBe(3);
    const log = await custodyInExpect(
      0,
      ['log', '--to', '3', '--json', '--archive', s.archive.dir],
      s.archive.env,
    );
    expect(l.entries).toEqual(
      log.stdout
        .trim()
        .split('\n')
        .map((x) => JSON.parse(x) as unknown),
    );
    const cp = await auditor.request('GET', '/api/checkpoints');
    expect(cp.statusCode).toBe(200);
    const c = cp.json<{
      latest: { tree_size: number; root_hex: string; root_base64: string; note: string };
    }>();
    expect(Buffer.from(c.latest.root_base64, 'base64').toString('hex')).toBe(c.latest.root_hex);
    expect(c.latest.note).toContain(c.latest.root_base64);
    const p = await auditor.request('GET', `/api/proofs/2?size=${c.latest.tree_size}`);
    expect(p.statusCode, p.body).toBe(200);
    const prove = await custodyInExpect(
      0,
      ['prove', 'inclusion', '2', '--size', String(c.latest.tree_size), '--json', '--archive', s.archive.dir],
      s.archive.env,
    );
    expect(p.json()).toEqual(JSON.parse(prove.stdout));
  });

  it('each route holds its permission: an examiner may not read the ledger, an auditor may not list items', async () => {
    expect((await examiner.request('GET', '/api/ledger')).statusCode).toBe(403);
    expect((await examiner.request('GET', '/api/checkpoints')).statusCode).toBe(403);
    expect((await auditor.request('GET', '/api/items')).statusCode).toBe(403);
    expect((await auditor.request('GET', '/api/statistics/plan-a')).statusCode).toBe(403);
    expect((await examiner.request('GET', '/api/audit/views')).statusCode).toBe(403);
  });
});
