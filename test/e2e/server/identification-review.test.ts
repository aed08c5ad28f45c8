// Issue 15, "Review" and "Consented viewing" over HTTP, with the team server's accounts (where
// consent is enforced against an authenticated person, not a self-declared actor): the review,
// level and viewing routes for liaisons inside and outside a report's consent scope; a viewing
// only by the liaison the consent names (compared with the signed-in account's name); no family
// data in a refusal or in the ledger. On SQLite and PostgreSQL.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { custodyInExpect, writeExtraFiles } from '../../support/archive-fixtures.js';
import { describeDatabases } from '../../support/postgres.js';
import { servedArchive, signIn, type Client, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

// Synthetic people: no real names.
const NAME_AR = 'زيدون قطرميز';
const ATTENDEE = 'أم زيدون';
const REASON = 'the scar his sister described';
const HEADER = 'name_ar,sex,consent_orgs,consent_photographs,consent_liaison';
// Reported by Org A, consenting to Org B, photographs through Liaison Rima; the second, no photographs.
const CSV = `${HEADER}\n${NAME_AR},male,Org B,yes,Liaison Rima\nبشموش طنبرجي,male,Org B,no,\n`;

describeDatabases('server: report↔subject review and consented viewing', (db) => {
  let s: ServedArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let consenting: string;
  let refusing: string;
  let subject: string;
  let items: string[];
  const clients = new Map<string, Client>();

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(
      `server-review-${db.kind}`,
      [
        ['Liaison A', 'family liaison', 'Org A'],
        ['Liaison Rima', 'family liaison', 'Org B'],
        ['Liaison B', 'family liaison', 'Org B'],
        ['Liaison D', 'family liaison', 'Org D'],
        ['Custodian A', 'source custodian', 'Org A'],
      ],
      {
        dbUrl: made.url,
        before: async (a) => {
          const dir = await makeTempDir('server-review-src');
          await writeFile(join(dir, 'reports.csv'), CSV, 'utf8');
          await writeExtraFiles(join(dir, 'photos'), 2);
          const cli = async (...args: string[]) => (await custodyInExpect(0, [...args, '--archive', a.dir, '--json'], a.env)).stdout;
          [consenting = '', refusing = ''] = (JSON.parse(await cli('missing', 'import', join(dir, 'reports.csv'), '--org', 'Org A')) as { ids: string[] }).ids;
          await cli('ingest', join(dir, 'photos'), '--source', 'KITE', '--new-source');
          subject = JSON.parse(await cli('subject', 'add', '--item', 'extra-0.bin', '--item', 'extra-1.bin', '--reason', 'card')) as string;
          items = (JSON.parse(await cli('subject', 'show', subject)) as { items: string[] }).items;
        },
      },
    );
    for (const name of s.accounts.keys()) clients.set(name, await signIn(s.server, name));
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    await cleanup();
  });

  const post = (who: string, url: string, body: unknown) => clients.get(who)!.request('POST', url, body);
  const base = (report: string) => `/api/missing/${report}/subjects/${subject}`;
  const session = (outcome: string) => ({
    attendees: [{ name: ATTENDEE, relation: 'mother' }],
    photographs: [
      { item: items[1], blurred_first: true, outcome: 'not-recognised' },
      { item: items[0], blurred_first: true, outcome },
    ],
  });
  const refusedWith = async (code: string, who: string, url: string, body: unknown, status: number): Promise<void> => {
    const size = s.open.ledger.size;
    const r = await post(who, url, body);
    expect([r.statusCode, r.json<{ code: string }>().code], `${who} ${url}: ${r.body}`).toEqual([status, code]);
    for (const x of [NAME_AR, ATTENDEE, 'Rima']) expect(r.body).not.toContain(x);
    expect(s.open.ledger.size).toBe(size);
  };

  it('an organisation outside the consent scope is refused every review and viewing route (403 MISSING_REPORT_FORBIDDEN), nothing written', async () => {
    await refusedWith('MISSING_REPORT_FORBIDDEN', 'Liaison D', `${base(consenting)}/review`, { decision: 'accept', reason: 'r' }, 403);
    await refusedWith('MISSING_REPORT_FORBIDDEN', 'Liaison D', `${base(consenting)}/level`, { level: 'recognised', viewing: 1, reason: 'r' }, 403);
    await refusedWith('MISSING_REPORT_FORBIDDEN', 'Liaison D', `${base(consenting)}/viewings`, session('unsure'), 403);
    const r = await clients.get('Liaison D')!.request('GET', `/api/missing/${consenting}/subjects`);
    expect([r.statusCode, r.json<{ code: string }>().code]).toEqual([403, 'MISSING_REPORT_FORBIDDEN']);
    // The source custodian's permission does not reach these routes either.
    expect((await post('Custodian A', `${base(consenting)}/review`, { decision: 'accept', reason: 'r' })).statusCode).toBe(403);
  });

  it('a viewing before any review is refused (409 MISSING_SUBJECT_LINK_NOT_ACCEPTED)', async () => {
    await refusedWith('MISSING_SUBJECT_LINK_NOT_ACCEPTED', 'Liaison Rima', `${base(refusing)}/viewings`, session('unsure'), 409);
  });

  const get = (who: string, url: string) => clients.get(who)!.request('GET', url);
  const FOREIGN = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

  it("a subject's photographs for the viewing form (list and blurred preview) are refused before acceptance (409) and outside the consent scope (403)", async () => {
    for (const url of [`${base(consenting)}/photographs`, `${base(consenting)}/photographs/${items[0]}/preview`]) {
      const before = await get('Liaison A', url);
      expect([before.statusCode, before.json<{ code: string }>().code], url).toEqual([409, 'MISSING_SUBJECT_LINK_NOT_ACCEPTED']);
      const outside = await get('Liaison D', url);
      expect([outside.statusCode, outside.json<{ code: string }>().code], url).toEqual([403, 'MISSING_REPORT_FORBIDDEN']);
      for (const r of [before, outside]) for (const x of [NAME_AR, 'Rima']) expect(r.body).not.toContain(x);
      expect((await get('Custodian A', url)).statusCode).toBe(403);
    }
  });

  it('review, viewing by the named liaison only, recognised: the ledger holds the report and subject ids, the photographs and outcomes, never the reason or the attendees', async () => {
    const accepted = await post('Liaison A', `${base(consenting)}/review`, { decision: 'accept', reason: REASON });
    expect(accepted.statusCode, accepted.body).toBe(200);
    await post('Liaison A', `${base(refusing)}/review`, { decision: 'accept', reason: REASON });
    // Photographs may not be shown to the second family.
    await refusedWith('MISSING_VIEWING_NO_CONSENT', 'Liaison Rima', `${base(refusing)}/viewings`, session('unsure'), 403);
    // The reporting organisation's liaison, and another of the consenting one, are not the one named.
    await refusedWith('MISSING_VIEWING_WRONG_LIAISON', 'Liaison A', `${base(consenting)}/viewings`, session('recognised'), 403);
    await refusedWith('MISSING_VIEWING_WRONG_LIAISON', 'Liaison B', `${base(consenting)}/viewings`, session('recognised'), 403);
    const v = await post('Liaison Rima', `${base(consenting)}/viewings`, session('recognised'));
    expect(v.statusCode, v.body).toBe(200);
    const seq = v.json<{ seq: number; recognised: boolean }>().seq;
    const [e] = await s.open.ledger.read(seq, seq + 1);
    expect(e!.entry.actor).toBe(s.accounts.get('Liaison Rima'));
    expect(e!.entry.details).toMatchObject({ action: 'missing.viewing', report: consenting, subject, photographs: session('recognised').photographs });
    expect(JSON.stringify(e!.entry)).not.toContain(ATTENDEE);
    // Confirmed needs a recognition first; then the level rises.
    await refusedWith('MISSING_LEVEL_NEEDS_RECOGNITION', 'Liaison A', `${base(consenting)}/level`, { level: 'confirmed', references: [{ kind: 'dna', reference: 'lab 7' }], reason: 'r' }, 409);
    const up = await post('Liaison Rima', `${base(consenting)}/level`, { level: 'recognised', viewing: seq, reason: 'his mother knew him' });
    expect(up.statusCode, up.body).toBe(200);
    await refusedWith('MISSING_LEVEL_NEEDS_CORROBORATION', 'Liaison A', `${base(consenting)}/level`, { level: 'confirmed', references: [], reason: 'r' }, 422);
    const links = (await clients.get('Liaison B')!.request('GET', `/api/missing/${consenting}/subjects`)).json<{ links: { subject: string; level: string; events: { note: unknown }[] }[] }>().links;
    expect(links.map((l) => [l.subject, l.level])).toEqual([[subject, 'recognised']]);
    expect(JSON.stringify(links)).toContain(ATTENDEE);
    const all = (await s.open.ledger.read(0, s.open.ledger.size)).map((x) => JSON.stringify(x.entry)).join('\n');
    for (const x of [REASON, ATTENDEE, 'his mother knew him']) expect(all).not.toContain(x);
  });

  it("after acceptance, the liaison lists the subject's photographs; a preview of an item not of this subject is 404", async () => {
    const listed = await get('Liaison A', `${base(consenting)}/photographs`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ items: string[] }>().items).toEqual([...items].sort());
    const foreign = await get('Liaison A', `${base(consenting)}/photographs/${FOREIGN}/preview`);
    expect([foreign.statusCode, foreign.json<{ code: string }>().code]).toEqual([404, 'HTTP_NOT_FOUND']);
  });
});
