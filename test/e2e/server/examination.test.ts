// Issue 12 over HTTP, "sampling, assignment, the examination form, submission, adjudication": two
// examiners and an adjudicator as real accounts. Their keys are made and encrypted on their side
// with the browser's libraries (@noble/ed25519, @noble/hashes, WebCrypto: src/accounts/
// person-key-client.ts) and enrolled over HTTP; each act is prepared by the server and signed on
// the person's side; the signatures verify with plain OpenSSL from the ledger. Neither examiner
// sees the other's answer, nor the catalogue fields of the plan's subjects, through any of these
// routes before the reveal. SQLite and PostgreSQL.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  fromBase64,
  makePersonKey,
  openPersonKey,
  personKeyFingerprint,
  signEnrolment,
  signPrepared,
  type Json,
  type KeyEnvelope,
} from '../../../src/accounts/person-key-client.js';
import { openSigningKey } from '../../../src/archive/index.js';
import { examinerForm, worldSubjects } from '../../../src/demo/examination-world.js';
import { ALL_ROUTES } from '../../../src/http/routes/index.js';
import { custodyIn, type TestArchive } from '../../support/archive-fixtures.js';
import { describeDatabases } from '../../support/postgres.js';
import { codebookDigest, DEFAULT_CODEBOOK } from '../../../src/examination/codebook/index.js';
import { servedArchive, signIn, TEST_PASSWORD, type Client, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';
import { openCaseFacts } from '../../../src/examination/blind/index.js';

interface Entry {
  seq: number;
  actor: string;
  details: Record<string, unknown> & { action?: string };
}
interface Prepared {
  token: string;
  act: 'submit' | 'adjudicate';
  fields: { [k: string]: Json };
  message: string;
  opening?: { answer: Json; salt: string };
}

const KEY_PASSWORD = 'my key password, not my login 5521';
/** The catalogue's facts about the plan's subjects: none may reach an examiner before the reveal. */
const NUMBER = '4471';
const numberOf = (i: number) => `${NUMBER}${i}/7731`;
const SCHEME = { id: 'card', pattern: '{detainee}/{report}', fields: { detainee: { type: 'integer', min: 1, max: 99999 }, report: { type: 'integer', min: 1, max: 99999 } } };
const UNIT_CODE = 'BRIG9';
const UNIT_NAME = 'Brigade Ninety-Nine';
const DEATH = '2013-07-14';
const PHOTOGRAPHED = '2013-08-02';
const CAT_SEX = 'female';
const CAT_AGE = '60+';

/**
 * The person keys, made with the browser's library at the default cost, which the server requires
 * (its scrypt is @noble/hashes', pure JavaScript: ~1.3 s a key; in the e2e tests, node:crypto's,
 * the same bytes: test/support/scrypt-memo.setup.ts). Each is made once per file and enrolled in
 * both databases' archives: the archives are separate, and within one every name has its own key.
 */
const madeKeys = new Map<string, ReturnType<typeof makePersonKey>>();
function personKey(name: string): ReturnType<typeof makePersonKey> {
  let made = madeKeys.get(name);
  if (made === undefined) madeKeys.set(name, (made = makePersonKey(KEY_PASSWORD)));
  return made;
}

describeDatabases('examination over HTTP (issue 12)', (db) => {
  let s: ServedArchive;
  let archive: TestArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  const ids = new Map<string, string>();
  const subjects: string[] = [];
  let items: string[] = [];
  let plan = '';
  let codes: string[] = [];
  let members: string[] = [];
  const secrets = new Map<string, Uint8Array>();
  const [world] = worldSubjects(1);

  const cli = async (who: string, args: string[]) => {
    const r = await custodyIn([...args, '--archive', archive.dir, '--actor', ids.get(who) ?? who], archive.env);
    expect(r.code, `custody ${args.join(' ')}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };
  const log = async (): Promise<Entry[]> =>
    (await cli('inv-d', ['log', '--json']))
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { entry: Entry }).entry);
  const size = () => s.open.ledger.size;
  const codeOf = (r: { statusCode: number; body: string }) =>
    r.statusCode >= 400 ? (JSON.parse(r.body) as { code: string }).code : r.statusCode;
  /** ex-a answers 30-39, ex-b 40-49: one disputed field for the adjudicator; both say male. */
  const form = (who: string) => ({ ...(examinerForm(world!, who, 0) as object), sex: 'male', age_band: who === 'ex-a' ? '30-39' : '40-49' });
  const prepare = async (c: Client, n: number, who: string, language = 'ar') => {
    const r = await c.request('POST', `/api/plans/${plan}/cases/${codes[n]}/submission/prepare`, { form: form(who), language });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<Prepared>();
  };
  const submit = (c: Client, n: number, token: string, signature: { key_id: string; value: string }) =>
    c.request('POST', `/api/plans/${plan}/cases/${codes[n]}/submission`, { token, signature });

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(
      `exam-http-${db.kind}`,
      [
        ['ex-a', 'examiner'],
        ['ex-b', 'examiner'],
        ['ex-e', 'examiner'],
        ['adj-c', 'adjudicator'],
        ['inv-d', 'investigator'],
        ['Boss Admin', 'administrator'],
      ],
      {
        dbUrl: made.url,
        before: async (a) => {
          archive = a;
          const list = JSON.parse((await custodyIn(['user', 'list', '--json', '--archive', a.dir], a.env)).stdout) as { id: string; name: string }[];
          for (const x of list) ids.set(x.name, x.id);
          const photos = join(await makeTempDir('exam-http-photos'), 'photos');
          await mkdir(photos);
          for (let i = 0; i < 3; i++)
            await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 60 * i, g: 90, b: 200 - 40 * i } } })
              .jpeg()
              .withExifMerge({ IFD0: { ImageDescription: `${numberOf(i)} ${UNIT_NAME}` } })
              .toFile(join(photos, `card-${NUMBER}${i}-photo-${i}.jpg`));
          await cli('inv-d', ['ingest', photos, '--source', 'KITE', '--new-source']);
          await cli('inv-d', ['analyze']);
          items = (JSON.parse(await cli('inv-d', ['items', '--json'])) as { id: string; name: string }[]).sort((x, y) => x.name.localeCompare(y.name)).map((x) => x.id);
          await cli('inv-d', ['unit', 'add', '--name-en', UNIT_NAME, '--code', UNIT_CODE]);
          await writeFile(join(photos, '..', 'scheme.json'), JSON.stringify(SCHEME));
          await cli('inv-d', ['scheme', 'add', join(photos, '..', 'scheme.json')]);
          for (let i = 0; i < 3; i++) {
            const added = JSON.parse(
              await cli('inv-d', ['subject', 'add', '--number', numberOf(i), '--unit', UNIT_CODE, '--sex', CAT_SEX, '--age-band', CAT_AGE, '--date-of-death', DEATH, '--date-of-photography', PHOTOGRAPHED, '--item', items[i]!, '--reason', 'catalogue card', '--json']),
            ) as string | { id: string };
            subjects.push(typeof added === 'string' ? added : added.id);
          }
        },
      },
    );
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    await cleanup();
  });

  it('keys are made and encrypted on the person side, enrolled self-signed over HTTP, recorded as their own act; the server holds only ciphertext, which the login password does not open, and gives it only to its owner', async () => {
    for (const who of ['ex-a', 'ex-b', 'adj-c']) {
      const c = await signIn(s.server, who);
      const made = await personKey(who);
      const enrol = await signEnrolment(made.secretKey, ids.get(who)!);
      const r = await c.request('POST', '/api/me/key', { ...enrol, encrypted_key: made.envelope });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json()).toMatchObject({ account: ids.get(who), key_id: made.keyId, fingerprint: personKeyFingerprint(made.publicKey), replaces: null });
      secrets.set(who, made.secretKey);
    }
    const enrolments = (await log()).filter((e) => e.details.action === 'account.key.enrol');
    expect(enrolments.map((e) => e.actor).sort()).toEqual(['ex-a', 'ex-b', 'adj-c'].map((w) => ids.get(w)).sort());
    // ex-a fetches the key file and opens it in the browser with the key password: the same key.
    const a = await signIn(s.server, 'ex-a');
    const got = await a.request('GET', '/api/me/key');
    expect(got.statusCode).toBe(200);
    const envelope = got.json<{ encrypted_key: KeyEnvelope }>().encrypted_key;
    expect(await openPersonKey(envelope, KEY_PASSWORD)).toEqual(secrets.get('ex-a'));
    const text = JSON.stringify(envelope);
    expect(text).not.toContain(Buffer.from(secrets.get('ex-a')!).toString('base64'));
    // Whoever holds the server (and sees login passwords) cannot open it; the CLI's reader opens it with the key password.
    await expect(openSigningKey(text, TEST_PASSWORD)).rejects.toMatchObject({ code: 'KEY_PASSPHRASE_WRONG' });
    await openSigningKey(text, KEY_PASSWORD);
    // Only one's own: an investigator has none, and no route takes another account's.
    const inv = await signIn(s.server, 'inv-d');
    expect(codeOf(await inv.request('GET', '/api/me/key'))).toBe('PERSON_KEY_NOT_FOUND');
    const invKey = await personKey('inv-d');
    const before = size();
    const refused = await inv.request('POST', '/api/me/key', { ...(await signEnrolment(invKey.secretKey, ids.get('inv-d')!)), encrypted_key: invKey.envelope });
    expect(codeOf(refused)).toBe('PERSON_KEY_ROLE_REFUSED');
    expect(size()).toBe(before);
  }, 120_000);

  it('an enrolment not signed by the key it enrols, or whose key file is of another key, is refused (PERSON_KEY_INVALID); nothing is appended and no key file stays', async () => {
    const c = await signIn(s.server, 'ex-b');
    const made = await personKey('ex-b, second key');
    const other = await personKey('ex-b, third key');
    const before = size();
    const files = await readdir(join(archive.dir, 'keys', 'people'));
    const forged = await c.request('POST', '/api/me/key', { public_key: (await signEnrolment(made.secretKey, ids.get('ex-b')!)).public_key, signature: (await signEnrolment(other.secretKey, ids.get('ex-b')!)).signature, encrypted_key: made.envelope });
    expect(codeOf(forged)).toBe('PERSON_KEY_INVALID');
    const wrongFile = await c.request('POST', '/api/me/key', { ...(await signEnrolment(made.secretKey, ids.get('ex-b')!)), encrypted_key: other.envelope });
    expect(codeOf(wrongFile)).toBe('PERSON_KEY_INVALID');
    // Signed for another account: not this account's enrolment.
    const theirs = await c.request('POST', '/api/me/key', { ...(await signEnrolment(made.secretKey, ids.get('ex-a')!)), encrypted_key: made.envelope });
    expect(codeOf(theirs)).toBe('PERSON_KEY_INVALID');
    expect(size()).toBe(before);
    expect(await readdir(join(archive.dir, 'keys', 'people'))).toEqual(files);
  }, 120_000);

  it('an investigator draws a plan and assigns it over HTTP; an administrator cannot be assigned (ASSIGNMENT_ROLE_REFUSED), nor an adjudicator as examiner, and nothing is appended', async () => {
    const inv = await signIn(s.server, 'inv-d');
    const drawn = await inv.request('POST', '/api/plans', { name: 'plan', over: 'subjects', method: 'simple', size: 2 });
    expect(drawn.statusCode, drawn.body).toBe(201);
    plan = drawn.json<{ id: string }>().id;
    members = drawn.json<{ members: string[] }>().members;
    const before = size();
    for (const bad of [['ex-a', 'Boss Admin'], [ids.get('Boss Admin')!, 'ex-b'], ['ex-a', 'adj-c']]) {
      const r = await inv.request('POST', `/api/plans/${plan}/assignment`, { examiners: bad });
      expect([r.statusCode, codeOf(r)], bad.join(',')).toEqual([403, 'ASSIGNMENT_ROLE_REFUSED']);
    }
    expect(size()).toBe(before);
    // An examiner may not assign (the matrix), whatever they name.
    const ex = await signIn(s.server, 'ex-a');
    expect(codeOf(await ex.request('POST', `/api/plans/${plan}/assignment`, { examiners: ['ex-a', 'ex-b'] }))).toBe('HTTP_FORBIDDEN');
    const ok = await inv.request('POST', `/api/plans/${plan}/assignment`, { examiners: ['ex-a', 'ex-b'] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ cases: 2, per_case: 2 });
    const shown = await inv.request('GET', `/api/plans/${plan}`);
    codes = shown.json<{ cases: { code: string }[] }>().cases.map((c) => c.code);
    expect(codes.every((c) => /^k-[0-9a-f]{12}$/.test(c))).toBe(true);
  });

  it("an examiner's queue, forms and photographs name cases by code only: no subject or item id, number, unit, date, file name, or the catalogue's sex and age, in any response of these routes", async () => {
    const ex = await signIn(s.server, 'ex-a');
    const bodies: string[] = [];
    const queue = await ex.request('GET', '/api/examination/queue');
    expect(queue.statusCode).toBe(200);
    expect(queue.json<{ plans: { cases: { case: string; mine: string }[] }[] }>().plans[0]?.cases.map((c) => c.case).sort()).toEqual([...codes].sort());
    bodies.push(queue.body);
    for (const code of codes) {
      const f = await ex.request('GET', `/api/plans/${plan}/cases/${code}/form`);
      expect(f.statusCode, f.body).toBe(200);
      const { codebook, ...rest } = f.json<{ codebook: unknown; photos: { n: number; preview: string; original: string }[]; form: { sex: unknown; age_band: unknown } }>();
      // The form carries the codebook the plan recorded, its Arabic (and the review status) included.
      expect(codebook).toMatchObject({
        version: 'custody-forensic-v2',
        digest: codebookDigest(DEFAULT_CODEBOOK),
        definition: { version: 'custody-forensic-v2', translations: { ar: { status: 'needs-review-by-native-forensic-practitioner', findings: { emaciation: { label: 'هزال' } } } } },
      });
      expect(rest.form).toMatchObject({ sex: null, age_band: null });
      expect(rest.photos).toHaveLength(1);
      bodies.push(JSON.stringify(rest));
      for (const p of rest.photos) {
        for (const url of [p.preview, `${p.preview}?unblurred=true&size=1280`, p.original]) {
          const r = await ex.request('GET', url);
          expect(r.statusCode, `${url} ${r.body.slice(0, 200)}`).toBe(200);
          expect(String(r.headers['content-disposition'])).toMatch(new RegExp(`^inline; filename="${code}-${p.n}\\.`));
          bodies.push(String(r.headers['content-disposition']), r.rawPayload.toString('latin1'));
        }
        // The original's pixels come without the file's EXIF (which here carries the number and unit).
        const meta = await sharp((await ex.request('GET', p.original)).rawPayload).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.format).toBe('png');
      }
      const prepared = await prepare(ex, codes.indexOf(code), 'ex-a');
      const { opening, ...signed } = prepared;
      expect(opening?.answer).toMatchObject({ sex: 'male', age_band: '30-39' });
      bodies.push(JSON.stringify(signed));
    }
    const text = bodies.join('\n');
    for (const secret of [...subjects, ...items, numberOf(0), numberOf(1), numberOf(2), UNIT_CODE, UNIT_NAME, DEATH, PHOTOGRAPHED, '-photo-', CAT_SEX, `"${CAT_AGE}"`, ...[...subjects, ...items].map((x) => x.toLowerCase())])
      expect(text, secret).not.toContain(secret);
    // The per-item routes stay closed to a blinded examiner.
    const planItem = items[subjects.indexOf(members[0]!)]!;
    expect(codeOf(await ex.request('GET', `/api/items/${planItem}/original`))).toBe('BLIND_REFUSED');
  });

  it('a forged signature (a key not enrolled, or another examiner’s) is refused with EXAMINATION_SIGNATURE_INVALID and nothing is appended', async () => {
    const ex = await signIn(s.server, 'ex-a');
    const p = await prepare(ex, 0, 'ex-a');
    // A sign-in is a ledger entry: ex-b signs in first.
    const bKeyId = (await (await signIn(s.server, 'ex-b')).request('GET', '/api/me/key')).json<{ key_id: string }>().key_id;
    const before = size();
    const stranger = (await personKey('a stranger')).secretKey;
    const forgedValue = (await signPrepared(stranger, { ...p, fields: { ...p.fields } }).catch(() => null)) ?? null;
    expect(forgedValue).toBeNull(); // the client refuses to sign with a key the server did not ask for
    const ed = await import('@noble/ed25519');
    const forged = { key_id: p.fields.key_id as string, value: Buffer.from(await ed.signAsync(fromBase64(p.message), stranger)).toString('base64') };
    expect(codeOf(await submit(ex, 0, p.token, forged))).toBe('EXAMINATION_SIGNATURE_INVALID');
    const byB = { key_id: p.fields.key_id as string, value: Buffer.from(await ed.signAsync(fromBase64(p.message), secrets.get('ex-b')!)).toString('base64') };
    expect(codeOf(await submit(ex, 0, p.token, byB))).toBe('EXAMINATION_SIGNATURE_INVALID');
    // ex-b's own key id, over ex-a's submission: not ex-a's key.
    expect(codeOf(await submit(ex, 0, p.token, { ...byB, key_id: bKeyId }))).toBe('EXAMINATION_SIGNATURE_INVALID');
    expect(codeOf(await submit(ex, 0, p.token, { key_id: p.fields.key_id as string, value: 'AAAA' }))).toBe('EXAMINATION_SIGNATURE_INVALID');
    expect(size()).toBe(before);
  });

  it('a submission prepared in one session cannot be submitted from another (of the same account or not): HTTP_PREPARED_UNKNOWN, nothing appended', async () => {
    const one = await signIn(s.server, 'ex-a');
    const two = await signIn(s.server, 'ex-a');
    const b = await signIn(s.server, 'ex-b');
    const p = await prepare(one, 0, 'ex-a');
    const sig = await signPrepared(secrets.get('ex-a')!, p);
    const before = size();
    for (const other of [two, b]) {
      const r = await submit(other, 0, p.token, sig);
      expect([r.statusCode, codeOf(r)]).toEqual([404, 'HTTP_PREPARED_UNKNOWN']);
    }
    // Nor for another case of the plan, in the same session.
    expect(codeOf(await submit(one, 1, p.token, sig))).toBe('HTTP_PREPARED_UNKNOWN');
    expect(size()).toBe(before);
    // The session that prepared it submits it.
    const ok = await submit(one, 0, p.token, sig);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ case: codes[0], submitted: 1, assigned: 2, revealed: false });
    // Once used, the token is spent.
    expect(codeOf(await submit(one, 0, p.token, sig))).toBe('HTTP_PREPARED_UNKNOWN');
  });

  it("neither examiner sees the other's answer before the reveal; the adjudicator sees none while sealed; after the reveal the adjudicator sees them side by side", async () => {
    const a = await signIn(s.server, 'ex-a');
    const b = await signIn(s.server, 'ex-b');
    const adj = await signIn(s.server, 'adj-c');
    const answers = (c: Client) => c.request('GET', `/api/plans/${plan}/cases/${codes[0]}/answers`);
    expect(codeOf(await answers(a))).toBe('BLIND_REFUSED');
    expect(codeOf(await answers(b))).toBe('BLIND_REFUSED');
    expect(codeOf(await answers(adj))).toBe('EXAMINATION_SEALED');
    expect(codeOf(await adj.request('GET', `/api/plans/${plan}/cases/${codes[0]}/photos/1/preview`))).toBe('EXAMINATION_SEALED');
    // ex-b's queue: nothing of ex-a's answer, only that one of two is in.
    const queue = (await b.request('GET', '/api/examination/queue')).body;
    expect(queue).not.toContain('30-39');
    // ex-b submits: the case is revealed, but ex-a (a case left) still sees no answers, nor whether they agreed.
    const p = await prepare(b, 0, 'ex-b');
    const r = await submit(b, 0, p.token, await signPrepared(secrets.get('ex-b')!, p));
    expect(r.json()).toMatchObject({ revealed: true });
    expect(codeOf(await answers(a))).toBe('BLIND_REFUSED');
    const aQueue = (await a.request('GET', '/api/examination/queue')).json<{ plans: { cases: { case: string; status: string }[] }[] }>();
    expect(aQueue.plans[0]?.cases.find((c) => c.case === codes[0])?.status).toBe('revealed');
    const side = await answers(adj);
    expect(side.statusCode, side.body).toBe(200);
    const shown = side.json<{ case: string; answers: { examiner: string; answer: { age_band: string } }[]; disagreements: { field: string }[] }>();
    expect(shown.case).toBe(codes[0]);
    expect(shown.answers.map((x) => x.answer.age_band).sort()).toEqual(['30-39', '40-49']);
    expect(shown.disagreements.map((d) => d.field)).toEqual(['age_band']);
    for (const id of [...subjects, ...items]) expect(side.body).not.toContain(id);
    // The answers say how many photographs the case has: exactly those are served by ordinal.
    const count = side.json<{ photos: number }>().photos;
    expect(count).toBeGreaterThan(0);
    expect((await adj.request('GET', `/api/plans/${plan}/cases/${codes[0]}/photos/${count}/preview`)).statusCode).toBe(200);
    expect((await adj.request('GET', `/api/plans/${plan}/cases/${codes[0]}/photos/${count + 1}/preview`)).statusCode).toBe(404);
    expect((await adj.request('GET', '/api/adjudication/queue')).json<{ cases: { case: string }[] }>().cases.map((c) => c.case)).toEqual([codes[0]]);
  });

  it('the adjudicator adjudicates with a signature made on their side; the rest of the plan is submitted, and the plan closes', async () => {
    const adj = await signIn(s.server, 'adj-c');
    const prep = await adj.request('POST', `/api/plans/${plan}/cases/${codes[0]}/adjudication/prepare`, { decisions: [{ field: 'age_band', value: '40-49', reason: 'dentition on photograph 1' }] });
    expect(prep.statusCode, prep.body).toBe(200);
    const p = prep.json<Prepared>();
    const r = await adj.request('POST', `/api/plans/${plan}/cases/${codes[0]}/adjudication`, { token: p.token, signature: await signPrepared(secrets.get('adj-c')!, p) });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ status: 'final', adjudicated: true });
    for (const who of ['ex-a', 'ex-b']) {
      const c = await signIn(s.server, who);
      const q = await prepare(c, 1, who, 'en');
      const done = await submit(c, 1, q.token, await signPrepared(secrets.get(who)!, q));
      expect(done.statusCode, done.body).toBe(201);
    }
    // The other case disagrees too: adjudicated, then the plan closes.
    const p2 = (await adj.request('POST', `/api/plans/${plan}/cases/${codes[1]}/adjudication/prepare`, { decisions: [{ field: 'age_band', value: '30-39', reason: 'the pelvis' }] })).json<Prepared>();
    expect((await adj.request('POST', `/api/plans/${plan}/cases/${codes[1]}/adjudication`, { token: p2.token, signature: await signPrepared(secrets.get('adj-c')!, p2) })).statusCode).toBe(201);
    // Now finished, ex-a sees the answers.
    expect((await (await signIn(s.server, 'ex-a')).request('GET', `/api/plans/${plan}/cases/${codes[0]}/answers`)).statusCode).toBe(200);
    const inv = await signIn(s.server, 'inv-d');
    const closed = await inv.request('POST', `/api/plans/${plan}/close`);
    expect(closed.statusCode, closed.body).toBe(200);
  }, 60_000);

  it('every submission and adjudication in the ledger is signed, and plain `openssl pkeyutl -verify -rawin` verifies each from the entry fields; the submission records the language and the photographs opened unblurred', async () => {
    const entries = await log();
    const keys = new Map(entries.filter((e) => e.details.action === 'account.key.enrol').map((e) => [String(e.details.key_id), String(e.details.public_key)]));
    // The entries of a plan with sealed case ids name the case by its code (issue 12, blinded cases).
    const codeBy = { get: (c: string): string => c };
    const dir = await makeTempDir('exam-http-openssl');
    const canonical = (o: Record<string, string>) => JSON.stringify(Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : 1))));
    const h = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
    const acts = entries.filter((e) => e.details.action === 'examination.submit' || e.details.action === 'examination.adjudicate');
    expect(acts).toHaveLength(6);
    for (const e of acts) {
      const d = e.details as Record<string, unknown> & { sample: string; case: string; signature: { key_id: string; value: string } };
      expect(d.signature, `entry ${e.seq}`).toBeDefined();
      const fields: Record<string, string> =
        d.action === 'examination.submit'
          ? { plan: d.sample, case: codeBy.get(d.case), key_id: d.signature.key_id, commitment: String(d.commitment), sealed_sha256: h(String(d.sealed)) }
          : { plan: d.sample, case: codeBy.get(d.case), key_id: d.signature.key_id, decisions_sha256: h(canonicalJsonOf(d.decisions)), final_sha256: h(canonicalJsonOf(d.final)) };
      const act = d.action === 'examination.submit' ? 'submit' : 'adjudicate';
      const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(keys.get(d.signature.key_id)!, 'base64')]);
      await writeFile(join(dir, 'pub.pem'), `-----BEGIN PUBLIC KEY-----\n${spki.toString('base64')}\n-----END PUBLIC KEY-----\n`);
      await writeFile(join(dir, 'sig'), Buffer.from(d.signature.value, 'base64'));
      await writeFile(join(dir, 'msg'), `custody ${act} v1\n${canonical(fields)}`);
      const v = spawnSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', join(dir, 'pub.pem'), '-rawin', '-in', join(dir, 'msg'), '-sigfile', join(dir, 'sig')], { encoding: 'utf8' });
      expect(v.stdout, `entry ${e.seq}: ${v.stderr}`).toContain('Signature Verified Successfully');
    }
    const first = acts.find((e) => e.details.action === 'examination.submit' && e.actor === ids.get('ex-a'))!;
    // The language in clear; the photographs (their count, the item ids opened) sealed under the
    // case-id key, which the close published.
    expect(first.details.examined_with).toMatchObject({ language: 'ar' });
    expect(first.details.examined_with).not.toHaveProperty('opened_unblurred');
    const close = entries.find((e) => e.details.action === 'examination.close')!;
    const facts = openCaseFacts(Buffer.from(String(close.details.case_id_key), 'hex'), String(first.details.sample), String(first.details.case), first.actor, String((first.details.examined_with as { sealed: string }).sealed));
    expect(facts).toMatchObject({ photos: 1 });
    expect((facts as { opened_unblurred: string[] }).opened_unblurred).toHaveLength(1);
  });

  it('an examiner not assigned to a case gets neither its form, nor its photographs, nor a prepared submission (EXAMINATION_NOT_ASSIGNED)', async () => {
    const e = await signIn(s.server, 'ex-e');
    const before = size();
    for (const [method, url, body] of [
      ['GET', `/api/plans/${plan}/cases/${codes[0]}/form`],
      ['GET', `/api/plans/${plan}/cases/${codes[0]}/photos/1/preview`],
      ['GET', `/api/plans/${plan}/cases/${codes[0]}/photos/1/original`],
      ['POST', `/api/plans/${plan}/cases/${codes[0]}/submission/prepare`, { form: form('ex-a') }],
    ] as const) {
      const r = await e.request(method, url, body);
      expect([r.statusCode, codeOf(r)], url).toEqual([403, 'EXAMINATION_NOT_ASSIGNED']);
    }
    expect(size()).toBe(before);
    expect((await e.request('GET', '/api/examination/queue')).json()).toEqual({ plans: [] });
  });

  it('a key is revoked over HTTP by its holder or by an administrator, recorded with the reason; a revoked key is no longer served', async () => {
    const b = await signIn(s.server, 'ex-b');
    const r = await b.request('POST', '/api/me/key/revoke', { reason: 'laptop lost' });
    expect(r.statusCode, r.body).toBe(200);
    expect(codeOf(await b.request('GET', '/api/me/key'))).toBe('PERSON_KEY_NOT_FOUND');
    const boss = await signIn(s.server, 'Boss Admin');
    const byAdmin = await boss.request('POST', `/api/accounts/${ids.get('adj-c')}/key/revoke`, { reason: 'left the team' });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    // An examiner cannot revoke someone else's key.
    const a = await signIn(s.server, 'ex-a');
    expect(codeOf(await a.request('POST', `/api/accounts/${ids.get('ex-a')}/key/revoke`, { reason: 'x' }))).toBe('HTTP_FORBIDDEN');
    const revokes = (await log()).filter((e) => e.details.action === 'account.key.revoke');
    expect(revokes.map((e) => e.details.reason).sort()).toEqual(['laptop lost', 'left the team']);
  });

  it('custody verify is clean afterwards, checking every signature', async () => {
    await s.close();
    const r = await custodyIn(['verify', '--archive', archive.dir], archive.env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    s = await servedArchive('exam-http-reopen', [], { reuse: archive, dbUrl: archive.env.DATABASE_URL ?? null });
  }, 120_000);
});

/** RFC 8785 JSON of the (integer, string, boolean, null, array, object) values in the ledger. */
function canonicalJsonOf(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJsonOf).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJsonOf(o[k])}`)
    .join(',')}}`;
}

// Every examination route is in the registry (the role-matrix and blindness walks cover them).
it('the examination routes are registered', () => {
  for (const url of ['/api/me/key', '/api/plans', '/api/examination/queue', '/api/plans/:plan/cases/:code/submission/prepare', '/api/plans/:plan/cases/:code/adjudication'])
    expect(ALL_ROUTES.some((r) => r.url === url), url).toBe(true);
});
