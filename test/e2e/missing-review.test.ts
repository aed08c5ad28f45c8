// Issue 15, "Review" and "Consented viewing" at the CLI: a reviewer accepts or rejects a proposed
// report↔subject link with a reason; the link's evidence level rises to recognised only from a
// viewing in which the family recognised a photograph, and to confirmed only over a recognition
// with a corroboration reference; the family liaison the consent names records each viewing.
// Reasons, references and attendees are sealed under the report's key: erasing the report erases
// them, and the ledger still verifies. The index table is rebuilt from the ledger alone. Each
// refusal is its own test, with its code, and writes nothing. On SQLite and PostgreSQL.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { cloneArchive, custodyInExpect, withIndexDb, writeExtraFiles, type TestArchive } from '../support/archive-fixtures.js';
import { readTree } from '../support/export-bags.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

// Synthetic people and notes: no real names.
const NAME_AR = 'زيدون قطرميز';
const LIAISON = 'Liaison Rima';
const REASON = 'scar on the left cheek as his sister described';
const ATTENDEE = 'أم زيدون';
const REFERENCE = 'prison register page 14 line 3';
const HEADER = 'name_ar,sex,birth,consent_orgs,consent_photographs,consent_liaison';
const CSV = `${HEADER}\n${NAME_AR},male,1985,Org B,yes,${LIAISON}\nبشموش طنبرجي,male,1990,,no,\n`;

interface Link {
  subject: string;
  status: string;
  level: string | null;
  viewings: number[];
  events: { seq: number; action: string; note: Record<string, unknown> }[];
}

describeDatabases('custody missing review-subject and viewing', (db) => {
  let a: TestArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let consenting: string; // photographs may be shown, through Liaison Rima
  let refusing: string; // photographs may not be shown
  let s1: string; // two photographs
  let s2: string;
  let photos1: string[];

  const run = (code: number, args: string[], actor = 'reviewer-1') => custodyInExpect(code, [...args, '--archive', a.dir], { ...a.env, CUSTODY_ACTOR: actor });
  const json = async <T>(args: string[], actor?: string): Promise<T> => JSON.parse((await run(0, [...args, '--json'], actor)).stdout) as T;
  const refused = async (code: string, args: string[], actor?: string): Promise<void> => {
    const size = (await ledger()).length;
    const r = await run(1, args, actor);
    expect(r.stderr).toContain(`[${code}]`);
    expect((await ledger()).length).toBe(size);
  };
  const ledger = (): Promise<Buffer> => readFile(join(a.dir, 'ledger', 'entries.jsonl'));
  const links = async (report: string): Promise<Link[]> => (await json<{ links: Link[] }>(['missing', 'subjects', report])).links;
  const accept = (report: string, subject: string) => run(0, ['missing', 'review-subject', report, subject, '--accept', '--reason', REASON]);
  const view = (report: string, subject: string, outcome: string, actor = LIAISON) =>
    json<{ seq: number; recognised: boolean }>(
      ['missing', 'viewing', report, subject, '--attendee', `${ATTENDEE}:mother`, '--shown', `${photos1[1]}:blurred:not-recognised`, '--shown', `${photos1[0]}:blurred:${outcome}`],
      actor,
    );

  // The fixture (an archive with three photographs, two subjects and two reports) is built once
  // per database; each test works on its own copy of it (the folder, and the index database
  // copied by CREATE DATABASE … TEMPLATE), so that no test sees another's writes.
  let template: TestArchive;
  let dropTemplate: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    const made = await db.makeUrl();
    dropTemplate = made.cleanup;
    const base = await makeTempDir(`missing-review-${db.kind}`);
    a = template = { dir: join(base, 'archive'), origin: '', verifierKey: '', env: made.url === null ? {} : { DATABASE_URL: made.url } };
    await run(0, ['init']);
    await writeExtraFiles(join(base, 'photos'), 3);
    await run(0, ['ingest', join(base, 'photos'), '--source', 'KITE', '--new-source']);
    s1 = await json<string>(['subject', 'add', '--item', 'extra-0.bin', '--item', 'extra-1.bin', '--reason', 'card']);
    s2 = await json<string>(['subject', 'add', '--item', 'extra-2.bin', '--reason', 'card']);
    photos1 = (await json<{ items: string[] }>(['subject', 'show', s1])).items;
    const file = join(base, 'r.csv');
    await writeFile(file, CSV, 'utf8');
    [consenting = '', refusing = ''] = (await json<{ ids: string[] }>(['missing', 'import', file, '--org', 'Org A'])).ids;
  });
  afterAll(() => dropTemplate());

  beforeEach(async () => {
    const made = await db.copyUrl(template.env.DATABASE_URL ?? null);
    cleanup = made.cleanup;
    const copy = await cloneArchive(template, `missing-review-${db.kind}`);
    a = { ...copy, env: made.url === null ? {} : { DATABASE_URL: made.url } };
  });
  afterEach(() => cleanup());

  it('accept and reject are ledger entries with the reason sealed; missing subjects opens it', async () => {
    await accept(consenting, s1);
    await run(0, ['missing', 'review-subject', consenting, s2, '--reject', '--reason', 'born ten years later']);
    const l = await links(consenting);
    expect(l.map((x) => [x.subject, x.status, x.level])).toEqual(
      [
        [s1, 'accept', 'candidate'],
        [s2, 'reject', null],
      ].sort((x, y) => ((x[0] ?? '') < (y[0] ?? '') ? -1 : 1)),
    );
    expect(l.find((x) => x.subject === s1)?.events[0]?.note).toEqual({ reason: REASON });
    const text = (await ledger()).toString('utf8') + (await run(0, ['log'])).stdout;
    for (const s of [REASON, 'born ten years later']) expect(text).not.toContain(s);
  });

  it('the whole path: accepted, viewed by the liaison the consent names, recognised, confirmed with a reference; attendees and references sealed', async () => {
    await accept(consenting, s1);
    const v = await view(consenting, s1, 'recognised');
    expect(v.recognised).toBe(true);
    await run(0, ['missing', 'review-subject', consenting, s1, '--level', 'recognised', '--viewing', String(v.seq), '--reason', 'his mother knew him'], LIAISON);
    await run(0, ['missing', 'review-subject', consenting, s1, '--level', 'confirmed', '--reference', `number-record:${REFERENCE}`, '--reason', 'the number matches']);
    const l = (await links(consenting)).find((x) => x.subject === s1);
    expect(l).toMatchObject({ status: 'accept', level: 'confirmed', viewings: [v.seq] });
    expect(l?.events.find((e) => e.action === 'missing.viewing')?.note).toEqual({ attendees: [{ name: ATTENDEE, relation: 'mother' }], notes: null });
    expect(l?.events.at(-1)?.note).toEqual({ reason: 'the number matches', references: [{ kind: 'number-record', reference: REFERENCE }] });
    const text = (await ledger()).toString('utf8');
    for (const s of [ATTENDEE, REFERENCE, 'his mother knew him']) expect(text).not.toContain(s);
    expect(text).toContain(`"item":"${photos1[0]}"`);
    await run(0, ['verify']);
  });

  it('refused: a level over a link no one accepted (MISSING_SUBJECT_LINK_NOT_ACCEPTED)', async () => {
    await refused('MISSING_SUBJECT_LINK_NOT_ACCEPTED', ['missing', 'review-subject', consenting, s1, '--level', 'recognised', '--viewing', '1', '--reason', 'x']);
  });

  it('refused: recognised without a viewing in which the family recognised the subject (MISSING_LEVEL_NEEDS_RECOGNITION)', async () => {
    await accept(consenting, s1);
    const v = await view(consenting, s1, 'unsure');
    expect(v.recognised).toBe(false);
    await refused('MISSING_LEVEL_NEEDS_RECOGNITION', ['missing', 'review-subject', consenting, s1, '--level', 'recognised', '--viewing', String(v.seq), '--reason', 'x']);
  });

  it('refused: confirmed without a recognition, even with a reference (MISSING_LEVEL_NEEDS_RECOGNITION)', async () => {
    await accept(consenting, s1);
    await refused('MISSING_LEVEL_NEEDS_RECOGNITION', ['missing', 'review-subject', consenting, s1, '--level', 'confirmed', '--reference', 'dna:lab 7', '--reason', 'x']);
  });

  it('refused: confirmed over a recognition without a corroboration (MISSING_LEVEL_NEEDS_CORROBORATION)', async () => {
    await accept(consenting, s1);
    const v = await view(consenting, s1, 'recognised');
    await run(0, ['missing', 'review-subject', consenting, s1, '--level', 'recognised', '--viewing', String(v.seq), '--reason', 'r']);
    await refused('MISSING_LEVEL_NEEDS_CORROBORATION', ['missing', 'review-subject', consenting, s1, '--level', 'confirmed', '--reason', 'x']);
    await refused('MISSING_SUBJECT_LINK_INVALID', ['missing', 'review-subject', consenting, s1, '--level', 'confirmed', '--reference', 'rumour:someone said', '--reason', 'x']);
  });

  it('refused: a viewing for a family whose consent does not allow photographs (MISSING_VIEWING_NO_CONSENT)', async () => {
    await accept(refusing, s1);
    const size = (await ledger()).length;
    const r = await run(1, ['missing', 'viewing', refusing, s1, '--attendee', ATTENDEE, '--shown', `${photos1[0]}:blurred:unsure`], LIAISON);
    expect(r.stderr).toContain('[MISSING_VIEWING_NO_CONSENT]');
    expect((await ledger()).length).toBe(size);
  });

  it('refused: a viewing recorded by another than the liaison the consent names (MISSING_VIEWING_WRONG_LIAISON)', async () => {
    await accept(consenting, s1);
    const size = (await ledger()).length;
    const r = await run(1, ['missing', 'viewing', consenting, s1, '--attendee', ATTENDEE, '--shown', `${photos1[0]}:blurred:recognised`], 'Liaison Samir');
    expect(r.stderr).toContain('[MISSING_VIEWING_WRONG_LIAISON]');
    expect(r.stderr).not.toContain(LIAISON);
    expect((await ledger()).length).toBe(size);
  });

  it('refused: a viewing of an unreviewed candidate (MISSING_SUBJECT_LINK_NOT_ACCEPTED), or of a photograph not of the subject (MISSING_VIEWING_INVALID)', async () => {
    const size = (await ledger()).length;
    const r = await run(1, ['missing', 'viewing', consenting, s1, '--attendee', ATTENDEE, '--shown', `${photos1[0]}:blurred:recognised`], LIAISON);
    expect(r.stderr).toContain('[MISSING_SUBJECT_LINK_NOT_ACCEPTED]');
    expect((await ledger()).length).toBe(size);
    await accept(consenting, s2);
    await refused('MISSING_VIEWING_INVALID', ['missing', 'viewing', consenting, s2, '--attendee', ATTENDEE, '--shown', `${photos1[0]}:blurred:recognised`], LIAISON);
  });

  it('erasing the report erases the reasons and attendees with it: nothing opens them, no plaintext anywhere, verify and rebuild stay clean', async () => {
    await accept(consenting, s1);
    await view(consenting, s1, 'recognised');
    await run(0, ['missing', 'erase', consenting, '--category', 'consent-withdrawn']);
    await refused('MISSING_REPORT_ERASED', ['missing', 'subjects', consenting]);
    await refused('MISSING_REPORT_ERASED', ['missing', 'review-subject', consenting, s1, '--reject', '--reason', 'x']);
    const all = Buffer.concat([...(await readTree(a.dir)).values()]);
    for (const s of [REASON, ATTENDEE]) expect(all.includes(Buffer.from(s, 'utf8')), s).toBe(false);
    // The sealed notes stay in the ledger (never rewritten) and it still verifies.
    expect((await ledger()).toString('utf8')).toContain('"action":"missing.viewing"');
    const notInfo = async (): Promise<unknown[]> => (await json<{ findings: { severity: string }[] }>(['verify'])).findings.filter((f) => f.severity !== 'info');
    expect(await notInfo()).toEqual([]);
    expect((await json<{ findings: unknown[] }>(['rebuild'])).findings).toEqual([]);
    expect(await notInfo()).toEqual([]);
  });

  it('rebuild gives the same state from the ledger alone; an edited row is DB_ROW_CHANGED', async () => {
    await accept(consenting, s1);
    const v = await view(consenting, s1, 'recognised');
    await run(0, ['missing', 'review-subject', consenting, s1, '--level', 'recognised', '--viewing', String(v.seq), '--reason', 'r']);
    await run(0, ['missing', 'review-subject', consenting, s2, '--reject', '--reason', 'no']);
    const before = await links(consenting);
    await withIndexDb(a, (d) => d.exec('DELETE FROM missing_subject_events'));
    expect(await links(consenting)).toEqual([]);
    await run(0, ['rebuild']);
    expect(await links(consenting)).toEqual(before);
    await withIndexDb(a, (d) => d.exec("UPDATE missing_subject_events SET value = 'accept' WHERE subject_id = ?", [s2]));
    const r = JSON.parse((await run(1, ['verify', '--json'])).stdout) as { findings: { code: string; subject: string }[] };
    expect(r.findings).toContainEqual(expect.objectContaining({ code: 'DB_ROW_CHANGED' }));
  });

  it('attack: an outcome edited to recognised in the index does not raise the level (MISSING_LEVEL_NEEDS_RECOGNITION); the ledger decides', async () => {
    await accept(consenting, s1);
    const v = await view(consenting, s1, 'unsure');
    await withIndexDb(a, (d) => d.exec("UPDATE missing_subject_events SET facts_json = REPLACE(facts_json, 'unsure', 'recognised') WHERE action = 'missing.viewing'"));
    await refused('MISSING_LEVEL_NEEDS_RECOGNITION', ['missing', 'review-subject', consenting, s1, '--level', 'recognised', '--viewing', String(v.seq), '--reason', 'x']);
  });

  it('attack: an acceptance planted in the index does not open a viewing (MISSING_SUBJECT_LINK_NOT_ACCEPTED)', async () => {
    await accept(consenting, s1);
    await withIndexDb(a, (d) =>
      d.exec(
        "INSERT INTO missing_subject_events (seq, action, report_id, subject_id, value, facts_json, sealed_json, digest, actor, time) SELECT 999999, action, report_id, ?, value, facts_json, sealed_json, digest, actor, time FROM missing_subject_events WHERE subject_id = ?",
        [s2, s1],
      ),
    );
    const [photo2 = ''] = (await json<{ items: string[] }>(['subject', 'show', s2])).items;
    await refused('MISSING_SUBJECT_LINK_NOT_ACCEPTED', ['missing', 'viewing', consenting, s2, '--attendee', ATTENDEE, '--shown', `${photo2}:blurred:recognised`], LIAISON);
  });
});
