// Issue 12, "Routes" → linking and suggestions, over HTTP: the cluster suggestions the CLI's
// `subject suggest` gives, bulk linking with one reason (a 'subject.link' ledger entry per subject,
// the account as its actor, in one batch), and unlinking. Bad ids get a clear code and nothing is
// written; a role that may only read is refused; on SQLite and PostgreSQL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { custodyInExpect } from '../../support/archive-fixtures.js';
import { buildCatalogue, COPIED, type Catalogue } from '../../support/catalogue-fixtures.js';
import { describeDatabases } from '../../support/postgres.js';
import { servedArchive, signIn, type Client, type ServedArchive } from '../../support/server.js';

interface Suggestion {
  id: string;
  kind: 'link' | 'review-merge';
  subjects: string[];
  items: string[];
  basis: { type: string };
  item_labels: ({ file: string } | null)[];
}

const UNKNOWN = '01JZZZZZZZZZZZZZZZZZZZZZZZ';

describeDatabases('linking over HTTP', (db) => {
  let s: ServedArchive;
  let cat: Catalogue;
  let ina: Client;
  let lee: Client;
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(
      `linking-${db.kind}`,
      [
        ['Investigator Ina', 'investigator'],
        ['Lawyer Lee', 'lawyer'],
      ],
      { dbUrl: made.url, before: async (a) => void (cat = await buildCatalogue(a)) },
    );
    ina = await signIn(s.server, 'Investigator Ina');
    lee = await signIn(s.server, 'Lawyer Lee');
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    await cleanup();
  });

  const item = (name: string): string => {
    const id = cat.items.get(name);
    if (id === undefined) throw new Error(`no item ${name}`);
    return id;
  };
  const copy = (i: number) => item(`copies/copy-${String(i).padStart(2, '0')}.jpg`);
  const subject = (i: number) => cat.subjectIds[i]!;
  const codeOf = (r: { json<T>(): T }) => r.json<{ code: string }>().code;
  const entries = async (from: number) =>
    (await s.open.ledger.read(from, s.open.ledger.size)).map((e) => e.entry);
  const linkedTo = async (id: string) =>
    (await s.open.index.subjectItems(id)).map((l) => l.item_id).sort();

  it('suggests each unlinked near-duplicate copy for the subject its original shows, as `custody subject suggest` does', async () => {
    const r = await ina.request('GET', '/api/link-suggestions');
    expect(r.statusCode, r.body).toBe(200);
    const { count, suggestions } = r.json<{ count: number; suggestions: Suggestion[] }>();
    expect(count).toBe(suggestions.length);
    const links = suggestions.filter((x) => x.kind === 'link');
    expect(
      links.map((x) => [x.subjects[0], x.items, x.basis.type]).sort(),
    ).toEqual(COPIED.map((i) => [subject(i), [copy(i)], 'cluster']).sort());
    expect(links.every((x) => x.item_labels[0]?.file.startsWith('copy-'))).toBe(true);
    // The loose photographs join no one: never suggested.
    const suggested = suggestions.flatMap((x) => x.items);
    expect(suggested).not.toContain(item('loose-a.jpg'));
    // The same suggestions, by the same ids, as the CLI's.
    const cli = await custodyInExpect(
      0,
      ['subject', 'suggest', '--json', '--archive', s.archive.dir],
      s.archive.env,
    );
    const fromCli = JSON.parse(cli.stdout) as { suggestions: { id: string }[] };
    expect(suggestions.map((x) => x.id).sort()).toEqual(fromCli.suggestions.map((x) => x.id).sort());
  });

  it('a read-only role (lawyer) may see the suggestions but is refused linking and unlinking (403 HTTP_FORBIDDEN); nothing is written', async () => {
    expect((await lee.request('GET', '/api/link-suggestions')).statusCode).toBe(200);
    const before = s.open.ledger.size;
    const link = await lee.request('POST', '/api/links', {
      links: [{ subject: subject(0), items: [copy(0)] }],
      reason: 'matches the card',
    });
    expect([link.statusCode, codeOf(link)]).toEqual([403, 'HTTP_FORBIDDEN']);
    const unlink = await lee.request('POST', `/api/subjects/${subject(3)}/unlink`, {
      items: [item('subject-03.jpg')],
      reason: 'wrong body',
    });
    expect([unlink.statusCode, codeOf(unlink)]).toEqual([403, 'HTTP_FORBIDDEN']);
    expect(s.open.ledger.size).toBe(before);
    expect(await linkedTo(subject(0))).toEqual([item('subject-00.jpg')]);
  });

  it('bad ids get a clear code and nothing is written, not even the good links of the same request', async () => {
    const before = s.open.ledger.size;
    const good = { subject: subject(0), items: [copy(0)] };
    const cases: [unknown, number, string][] = [
      // a subject that does not exist
      [{ links: [good, { subject: UNKNOWN, items: [copy(1)] }], reason: 'r' }, 404, 'SUBJECT_NOT_FOUND'],
      // an item that does not exist
      [{ links: [good, { subject: subject(1), items: [UNKNOWN] }], reason: 'r' }, 422, 'SUBJECT_INVALID'],
      // not an id at all: refused by the schema before any handler runs
      [{ links: [good, { subject: '../../etc/passwd', items: [copy(1)] }], reason: 'r' }, 400, 'HTTP_BAD_REQUEST'],
      [{ links: [{ subject: subject(1), items: ["1' OR '1'='1"] }], reason: 'r' }, 400, 'HTTP_BAD_REQUEST'],
      // an item that already shows another subject
      [{ links: [good, { subject: subject(1), items: [item('subject-02.jpg')] }], reason: 'r' }, 409, 'SUBJECT_ITEM_TAKEN'],
      // the same item named for two subjects
      [{ links: [good, { subject: subject(1), items: [copy(0)] }], reason: 'r' }, 409, 'SUBJECT_ITEM_TAKEN'],
      // no reason
      [{ links: [good], reason: '   ' }, 422, 'SUBJECT_REASON_REQUIRED'],
      [{ links: [good] }, 400, 'HTTP_BAD_REQUEST'],
      [{ links: [], reason: 'r' }, 400, 'HTTP_BAD_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const r = await ina.request('POST', '/api/links', body);
      expect([r.statusCode, codeOf(r)], JSON.stringify(body)).toEqual([status, code]);
      expect(r.json<{ message: string }>().message).not.toMatch(/SELECT|INSERT|at .*\.ts:\d+/);
    }
    // Without the session's CSRF token: refused before the body is read.
    const forged = await s.server.inject({
      method: 'POST',
      url: '/api/links',
      headers: { cookie: ina.cookie, 'x-csrf-token': 'forged' },
      payload: { links: [good], reason: 'r' },
    });
    expect([forged.statusCode, codeOf(forged)]).toEqual([403, 'HTTP_CSRF']);
    expect(s.open.ledger.size).toBe(before);
    expect(await linkedTo(subject(0))).toEqual([item('subject-00.jpg')]);
    expect(await s.open.index.subjectOfItem(copy(1))).toBeUndefined();
  });

  it('links in bulk: one ledger batch, a subject.link entry per subject with the reason and the account as actor; the suggestions are then gone', async () => {
    const before = s.open.ledger.size;
    const reason = 'same photograph re-sent by a second source; card number legible in both';
    const r = await ina.request('POST', '/api/links', {
      links: [
        { subject: subject(0), items: [copy(0)] },
        { subject: subject(1), items: [copy(1), item('loose-a.jpg')] },
      ],
      reason,
    });
    expect(r.statusCode, r.body).toBe(201);
    const written = await entries(before);
    const links = written.filter((e) => e.details.action === 'subject.link');
    expect(links).toHaveLength(2);
    for (const e of links) {
      expect(e.actor).toBe(s.accounts.get('Investigator Ina'));
      expect(e.details.reason).toBe(reason);
    }
    expect(links.map((e) => [(e.details.subject as { id: string }).id, e.details.items])).toEqual([
      [subject(0), [copy(0)]],
      [subject(1), [copy(1), item('loose-a.jpg')].sort()],
    ]);
    expect(r.json<{ links: { seq: number }[] }>().links.map((l) => l.seq)).toEqual(links.map((e) => e.seq));
    expect(await linkedTo(subject(0))).toEqual([copy(0), item('subject-00.jpg')].sort());
    expect(await linkedTo(subject(1))).toEqual([copy(1), item('loose-a.jpg'), item('subject-01.jpg')].sort());
    // The subject's history shows the entry.
    const shown = await ina.request('GET', `/api/subjects/${subject(1)}`);
    const history = shown.json<{ history: { seq: number; action: string; reason: string }[] }>().history;
    expect(history.find((h) => h.seq === links[1]!.seq)).toMatchObject({ action: 'subject.link', reason });
    const after = await ina.request('GET', '/api/link-suggestions');
    const left = after.json<{ suggestions: Suggestion[] }>().suggestions.filter((x) => x.kind === 'link');
    expect(left.map((x) => x.subjects[0])).toEqual([subject(2)]);
  });

  it('unlinks with a reason (a subject.unlink entry); an item the subject does not have is refused (SUBJECT_INVALID) and nothing is written', async () => {
    const wrong = await ina.request('POST', `/api/subjects/${subject(1)}/unlink`, {
      items: [copy(2)],
      reason: 'not this body',
    });
    expect([wrong.statusCode, codeOf(wrong)]).toEqual([422, 'SUBJECT_INVALID']);
    const missing = await ina.request('POST', `/api/subjects/${UNKNOWN}/unlink`, {
      items: [copy(2)],
      reason: 'not this body',
    });
    expect([missing.statusCode, codeOf(missing)]).toEqual([404, 'SUBJECT_NOT_FOUND']);
    const before = s.open.ledger.size;
    const r = await ina.request('POST', `/api/subjects/${subject(1)}/unlink`, {
      items: [item('loose-a.jpg')],
      reason: 'a different body on a second look',
    });
    expect(r.statusCode, r.body).toBe(201);
    const [e] = (await entries(before)).filter((x) => x.details.action === 'subject.unlink');
    expect(e).toMatchObject({
      actor: s.accounts.get('Investigator Ina'),
      details: { reason: 'a different body on a second look', items: [item('loose-a.jpg')] },
    });
    expect(await linkedTo(subject(1))).toEqual([copy(1), item('subject-01.jpg')].sort());
  });
});
