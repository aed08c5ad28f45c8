// Issue 15, "Missing-person reports" and "Recording": reports from families, sealed each under its
// own key; the ledger holds only ciphertext, its digest and non-identifying metadata; the contact
// is read only through an audited read; `missing erase` destroys the key (crypto-shredding) and
// records it; rebuild and verify stay clean. On SQLite and PostgreSQL (the index is involved).
import { existsSync } from 'node:fs';
import { copyFile, cp, readFile, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { openArchive } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { custodyInExpect, withIndexDb, type LogLine, type TestArchive } from '../support/archive-fixtures.js';
import { readTree } from '../support/export-bags.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';
import { uncheckedDraft } from '../support/unchecked-draft.js';

// Synthetic people: no real names.
const NAME_AR = 'زيدون قطرميز';
const NAME_LATIN = 'Zaydoun Qatramiz';
const MOTHER = 'فطوم خربوشة';
const PHONE = '+963-555-0199-731';
const NAME2_AR = 'بشموش طنبرجي';

const HEADER =
  'name_ar,name_latin,father_name,mother_name,sex,birth,origin,event,event_date,event_place,unit,marks,build,contact_name,contact_relation,contact_phone,consent_orgs,consent_photographs,consent_liaison';
const ROW1 = `${NAME_AR},${NAME_LATIN},سليمون,${MOTHER},male,1985,حمص,arrest,2013-05-21,checkpoint north of Homs,AFI,face:scar:left cheek;upper_limbs:tattoo:eagle,slight,أم زيدون,mother,${PHONE},Org B;Org C,yes,Liaison Rima`;
const ROW2 = `${NAME2_AR},Bashmoush Tanbarji,,,male,1990,درعا,last_seen,2014,,Branch of Nowhere,,,,,,,no,`;

interface ReportJson {
  id: string;
  org: string;
  content: Record<string, unknown> & { contact: unknown; am: Record<string, unknown> };
  contact_read_seq: number | null;
  contact_reads: { seq: number; actor: string; reason: string | null; sealed: boolean }[];
}
interface SummaryJson {
  id: string;
  key: string;
  erased_seq: number | null;
  erased_category: string | null;
  erased_reason: string | null;
  contact_reads: number;
  name_ar?: string | null;
}

describeDatabases('custody missing: sealed reports, audited contact, erasure', (db) => {
  let base: string;
  let a: TestArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let printed: string;

  const run = async (code: number, args: string[]) => {
    const r = await custodyInExpect(code, [...args, '--archive', a.dir], a.env);
    printed += r.stdout + r.stderr;
    return r;
  };
  const json = async <T>(args: string[]): Promise<T> => JSON.parse((await run(0, [...args, '--json'])).stdout) as T;
  const ledger = (): Promise<Buffer> => readFile(join(a.dir, 'ledger', 'entries.jsonl'));
  const log = async (): Promise<LogLine[]> =>
    (await run(0, ['log', '--json'])).stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as LogLine);
  const keysDir = (): string => join(a.dir, 'keys', 'reports');
  const csv = async (name: string, text: string): Promise<string> => {
    const p = join(base, name);
    await writeFile(p, text, 'utf8');
    return p;
  };
  const importTwo = async (): Promise<string[]> => {
    const r = await json<{ ids: string[] }>(['missing', 'import', await csv('r.csv', `\uFEFF${HEADER}\n${ROW1}\n${ROW2}\n`), '--org', 'Org A']);
    return r.ids;
  };
  /** Every byte an insider with the folder (and the PostgreSQL index) could read. */
  const everything = async (): Promise<Buffer> => {
    const parts = [...(await readTree(a.dir)).values()];
    if (db.kind === 'postgres')
      await withIndexDb(a, async (d) => {
        for (const t of ['ledger_entries', 'missing_reports', 'missing_report_reads', 'subject_pm', 'meta'])
          parts.push(Buffer.from(JSON.stringify(await d.rows(`SELECT * FROM ${t}`)), 'utf8'));
      });
    return Buffer.concat(parts);
  };
  const secrets = [NAME_AR, NAME_LATIN, MOTHER, PHONE, NAME2_AR, 'Qatramiz', 'Liaison Rima', 'left cheek'];

  // The archive (init, one unit) is made once per database and copied for each test: the folder
  // with cp, a PostgreSQL index with CREATE DATABASE … TEMPLATE. The copies share the archive's
  // identity; each test has its own files and database.
  let template: Promise<{ dir: string; url: string | null }> | undefined;
  let dropTemplate: () => Promise<void> = () => Promise.resolve();
  afterAll(() => dropTemplate());
  beforeEach(async () => {
    template ??= (async () => {
      const made = await db.makeUrl();
      dropTemplate = made.cleanup;
      const dir = join(await makeTempDir(`missing-template-${db.kind}`), 'archive');
      const env: Record<string, string> = made.url === null ? {} : { DATABASE_URL: made.url };
      await custodyInExpect(0, ['init', '--archive', dir], env);
      await custodyInExpect(0, ['unit', 'add', '--name-en', 'Air Force Intelligence', '--code', 'AFI', '--archive', dir], env);
      return { dir, url: made.url };
    })();
    const made = await template;
    const copy = await db.copyUrl(made.url);
    cleanup = copy.cleanup;
    base = await makeTempDir(`missing-${db.kind}`);
    a = { dir: join(base, 'archive'), origin: '', verifierKey: '', env: copy.url === null ? {} : { DATABASE_URL: copy.url } };
    await cp(made.dir, a.dir, { recursive: true, preserveTimestamps: true });
    printed = '';
  });
  afterEach(() => cleanup());

  it('imports a UTF-8 CSV (with BOM): the Arabic round-trips exactly, the unit links to the registry', async () => {
    const [id1, id2] = await importTwo();
    const r1 = await json<ReportJson>(['missing', 'show', id1 ?? '']);
    expect(r1.org).toBe('Org A');
    expect(r1.content).toMatchObject({ name_ar: NAME_AR, name_latin: NAME_LATIN, mother_name: MOTHER, father_name: 'سليمون', origin: 'حمص', sex: 'male', birth: '1985', event: 'arrest', event_date: '2013-05-21' });
    expect(r1.content.unit).toEqual({ as_reported: 'AFI', id: expect.any(String) as unknown });
    expect(r1.content.am).toEqual({ build: 'slight', marks: [{ region: 'face', kind: 'scar', description: 'left cheek' }, { region: 'upper_limbs', kind: 'tattoo', description: 'eagle' }] });
    expect(r1.content.consent).toEqual({ orgs: ['Org B', 'Org C'], photographs: 'yes', liaison: 'Liaison Rima' });
    expect(r1.content.contact).toBe('sealed');
    const r2 = await json<ReportJson>(['missing', 'show', id2 ?? '']);
    expect(r2.content).toMatchObject({ name_ar: NAME2_AR, event: 'last_seen', event_date: '2014', unit: { as_reported: 'Branch of Nowhere', id: null }, contact: null });
    expect(r2.content.consent).toEqual({ orgs: [], photographs: 'no', liaison: null });
    const names = await json<SummaryJson[]>(['missing', 'list', '--names']);
    expect(names.map((s) => s.name_ar)).toEqual([NAME_AR, NAME2_AR]);
  });

  it('a JSON import takes lists for marks and consent organisations', async () => {
    const file = join(base, 'r.json');
    await writeFile(file, JSON.stringify([{ org: 'Org J', name_ar: NAME_AR, marks: [{ region: 'chest', kind: 'birthmark' }, 'hands:amputation:two fingers'], consent_orgs: ['Org K'] }]));
    const [id] = (await json<{ ids: string[] }>(['missing', 'import', file])).ids;
    const r = await json<ReportJson>(['missing', 'show', id ?? '']);
    expect(r.org).toBe('Org J');
    expect(r.content.am.marks).toEqual([{ region: 'chest', kind: 'birthmark', description: null }, { region: 'hands', kind: 'amputation', description: 'two fingers' }]);
  });

  it('no family data in clear anywhere in the archive folder or the index: the ledger entry has ciphertext, digest and metadata only', async () => {
    const [id1] = await importTwo();
    await run(0, ['missing', 'show', id1 ?? '', '--contact', '--reason', 'liaison call back']);
    // The needles are right: the decrypted report carries them, byte for byte.
    const shown = Buffer.from((await run(0, ['missing', 'show', id1 ?? '', '--contact', '--reason', 'control', '--json'])).stdout, 'utf8');
    for (const s of [NAME_AR, NAME_LATIN, MOTHER, PHONE, 'Liaison Rima', 'left cheek']) expect(shown.includes(Buffer.from(s, 'utf8')), s).toBe(true);
    const logText = (await run(0, ['log'])).stdout + (await run(0, ['log', '--json'])).stdout;
    const all = await everything();
    for (const s of secrets) {
      expect(all.includes(Buffer.from(s, 'utf8')), s).toBe(false);
      expect(logText, s).not.toContain(s);
    }
    const entry = (await log()).find((l) => l.entry.details.action === 'missing.report')?.entry;
    expect(Object.keys(entry?.details ?? {}).sort()).toEqual(['action', 'codebook', 'digest', 'org', 'report', 'sealed']);
    expect(entry?.details.sealed).toMatchObject({ alg: 'AES-256-GCM' });
  });

  it('a bad row rejects the whole import (MISSING_REPORT_IMPORT_REJECTED), naming row and column; nothing is written', async () => {
    const before = (await ledger()).length;
    const bad = `${HEADER},shoe_size\n${ROW1},42\n`;
    const r1 = await run(1, ['missing', 'import', await csv('bad1.csv', bad), '--org', 'Org A']);
    expect(r1.stderr).toContain('[MISSING_REPORT_IMPORT_REJECTED]');
    expect(r1.stderr).toContain('row 1, shoe_size: unknown column');
    const rows = `${HEADER}\n${ROW1}\n${ROW2.replace(',male,1990,', ',yes,19x0,')}\n${ROW1.replace('face:scar', 'face:wound')}\n`;
    const r2 = await run(1, ['missing', 'import', await csv('bad2.csv', rows), '--org', 'Org A']);
    expect(r2.stderr).toContain('[MISSING_REPORT_IMPORT_REJECTED]');
    expect(r2.stderr).toContain('row 3, sex:');
    expect(r2.stderr).toContain('row 3, birth:');
    expect(r2.stderr).toContain('row 4, marks: mark kind "wound"');
    const noOrg = await run(1, ['missing', 'import', await csv('noorg.csv', `${HEADER}\n${ROW1}\n`)]);
    expect(noOrg.stderr).toContain('row 2, org:');
    expect((await ledger()).length).toBe(before);
    expect(existsSync(keysDir()) ? await readdir(keysDir()) : []).toEqual([]);
    expect(await json<SummaryJson[]>(['missing', 'list'])).toEqual([]);
  });

  it('the contact is sealed unless read with a reason, and every read is a ledger entry naming the actor', async () => {
    const [id1] = await importTwo();
    const size = (await ledger()).length;
    const plain = await json<ReportJson>(['missing', 'show', id1 ?? '']);
    expect(plain.content.contact).toBe('sealed');
    expect((await ledger()).length).toBe(size);
    expect((await run(2, ['missing', 'show', id1 ?? '', '--contact'])).stderr).toContain('[USAGE]');
    const read = await custodyInExpect(0, ['missing', 'show', id1 ?? '', '--contact', '--reason', 'family asked for news', '--json', '--archive', a.dir], { ...a.env, CUSTODY_ACTOR: 'liaison-rima' });
    const r = JSON.parse(read.stdout) as ReportJson;
    expect(r.content.contact).toEqual({ name: 'أم زيدون', relation: 'mother', phone: PHONE, email: null, address: null });
    const entry = (await log()).find((l) => l.entry.details.action === 'missing.read')?.entry;
    // The entry names the actor and the report; the reason is sealed under the report's key.
    expect(entry).toMatchObject({ actor: 'liaison-rima', seq: r.contact_read_seq, details: { report: id1, sealed: { alg: 'AES-256-GCM' } } });
    expect(Object.keys(entry?.details ?? {}).sort()).toEqual(['action', 'digest', 'report', 'sealed']);
    expect(r.contact_reads).toEqual([{ seq: r.contact_read_seq, actor: 'liaison-rima', time: expect.any(String) as unknown, reason: 'family asked for news', sealed: true }]);
    expect((await run(0, ['missing', 'show', id1 ?? ''])).stdout).toContain(`entry ${String(r.contact_read_seq)}`);
    expect((await json<SummaryJson[]>(['missing', 'list']))[0]?.contact_reads).toBe(1);
  });

  it('list without --names opens read-only and shows no names', async () => {
    await importTwo();
    const out = await run(0, ['missing', 'list']);
    expect(out.stdout).toContain('names and contacts are sealed');
    expect(out.stdout).not.toContain(NAME_AR);
    expect((await json<SummaryJson[]>(['missing', 'list']))[0]).not.toHaveProperty('name_ar');
    // Nothing printed so far (import, list) carries a name.
    for (const s of secrets) expect(printed, s).not.toContain(s);
  });

  it('erase destroys the key and records it: nothing shows the report again, the ciphertext stays, verify and rebuild stay clean', async () => {
    const [id1, id2] = await importTwo();
    const sealedBefore = (await log()).find((l) => l.entry.details.report === id1)?.canonical;
    await run(0, ['verify']);
    const r = await json<{ seq: number; key_destroyed: boolean }>(['missing', 'erase', id1 ?? '', '--category', 'consent-withdrawn']);
    expect(r.key_destroyed).toBe(true);
    expect(existsSync(join(keysDir(), `${id1}.key`))).toBe(false);
    expect(existsSync(join(keysDir(), `${id2}.key`))).toBe(true);
    const entries = await log();
    expect(entries.find((l) => l.entry.details.action === 'missing.erase')?.entry).toMatchObject({ seq: r.seq, details: { report: id1, category: 'consent-withdrawn' } });
    expect(entries.find((l) => l.entry.details.report === id1)?.canonical).toBe(sealedBefore);
    for (const args of [['missing', 'show', id1 ?? ''], ['missing', 'show', id1 ?? '', '--contact', '--reason', 'x'], ['missing', 'candidates', id1 ?? '']])
      expect((await run(1, args)).stderr).toContain('[MISSING_REPORT_ERASED]');
    expect((await run(1, ['missing', 'erase', id1 ?? '', '--category', 'duplicate'])).stderr).toContain('[MISSING_REPORT_ERASED]');
    const list = await json<SummaryJson[]>(['missing', 'list', '--names']);
    expect(list[0]).toMatchObject({ id: id1, key: 'destroyed', erased_seq: r.seq, erased_category: 'consent-withdrawn', erased_reason: null, name_ar: null, unreadable: 'MISSING_REPORT_ERASED' });
    expect((await run(0, ['missing', 'list'])).stdout).toContain(`ERASED (entry ${r.seq}: consent-withdrawn)`);
    expect(list[1]).toMatchObject({ id: id2, key: 'present', name_ar: NAME2_AR });
    const notInfo = async (): Promise<unknown[]> => (await json<{ findings: { severity: string }[] }>(['verify'])).findings.filter((f) => f.severity !== 'info');
    expect(await notInfo()).toEqual([]);
    const rebuilt = await json<{ findings: unknown[] }>(['rebuild']);
    expect(rebuilt.findings).toEqual([]);
    expect(await notInfo()).toEqual([]);
    expect((await run(1, ['missing', 'show', id1 ?? ''])).stderr).toContain('[MISSING_REPORT_ERASED]');
    const all = await everything();
    for (const s of [NAME_AR, NAME_LATIN, MOTHER, PHONE]) expect(all.includes(Buffer.from(s, 'utf8')), s).toBe(false);
  });

  it('a key file restored after the erasure is still refused: the ledger says erased (MISSING_REPORT_ERASED)', async () => {
    const [id1] = await importTwo();
    const keyFile = join(keysDir(), `${id1}.key`);
    await copyFile(keyFile, join(base, 'backup.key'));
    await run(0, ['missing', 'erase', id1 ?? '', '--category', 'consent-withdrawn']);
    await copyFile(join(base, 'backup.key'), keyFile);
    expect((await run(1, ['missing', 'show', id1 ?? ''])).stderr).toContain('[MISSING_REPORT_ERASED]');
    expect((await json<SummaryJson[]>(['missing', 'list']))[0]?.key).toBe('left-after-erase');
    const v = JSON.parse((await run(0, ['verify', '--json'])).stdout) as { findings: { code: string; severity: string }[] };
    expect(v.findings).toContainEqual(expect.objectContaining({ code: 'REPORT_KEY_AFTER_ERASE', severity: 'warning' }));
    // Running erase again finishes the job on the restored copy.
    await run(0, ['missing', 'erase', id1 ?? '', '--category', 'consent-withdrawn']);
    expect(existsSync(keyFile)).toBe(false);
  });

  it('rebuild restores the report rows from the ledger alone; verify reports an edited row (DB_ROW_CHANGED)', async () => {
    const [id1] = await importTwo();
    await run(0, ['missing', 'show', id1 ?? '', '--contact', '--reason', 'r']);
    await withIndexDb(a, async (d) => {
      await d.exec('DELETE FROM missing_reports');
      await d.exec('DELETE FROM missing_report_reads');
    });
    await run(0, ['rebuild']);
    expect((await json<ReportJson>(['missing', 'show', id1 ?? ''])).content.name_ar).toBe(NAME_AR);
    expect((await json<SummaryJson[]>(['missing', 'list']))[0]?.contact_reads).toBe(1);
    await withIndexDb(a, (d) => d.exec("UPDATE missing_reports SET org = 'Org Z' WHERE id = ?", [id1]));
    const v = JSON.parse((await run(1, ['verify', '--json'])).stdout) as { findings: { code: string; subject: string }[] };
    expect(v.findings).toContainEqual(expect.objectContaining({ code: 'DB_ROW_CHANGED', subject: `missing_reports/${id1}` }));
  });

  it("attack: one report's key file copied over another's is refused (MISSING_REPORT_KEY_INVALID), nothing shown", async () => {
    const [id1, id2] = await importTwo();
    await copyFile(join(keysDir(), `${id1}.key`), join(keysDir(), `${id2}.key`));
    const r = await run(1, ['missing', 'show', id2 ?? '']);
    expect(r.stderr).toContain('[MISSING_REPORT_KEY_INVALID]');
    expect(r.stdout).toBe('');
    expect((await json<ReportJson>(['missing', 'show', id1 ?? ''])).content.name_ar).toBe(NAME_AR);
  });

  it("attack: a report's ciphertext swapped in the index is refused (MISSING_REPORT_KEY_INVALID)", async () => {
    const [id1, id2] = await importTwo();
    await withIndexDb(a, async (d) => {
      const rows = await d.rows<{ id: string; sealed_json: string; digest: string }>('SELECT id, sealed_json, digest FROM missing_reports');
      const other = rows.find((x) => x.id === id2);
      await d.exec('UPDATE missing_reports SET sealed_json = ?, digest = ? WHERE id = ?', [other?.sealed_json, other?.digest, id1]);
    });
    expect((await run(1, ['missing', 'show', id1 ?? ''])).stderr).toContain('[MISSING_REPORT_KEY_INVALID]');
    const v = JSON.parse((await run(1, ['verify', '--json'])).stdout) as { findings: { code: string; subject: string }[] };
    expect(v.findings).toContainEqual(expect.objectContaining({ code: 'DB_ROW_CHANGED', subject: `missing_reports/${id1}` }));
  });

  it('attack: a deleted key file makes the report unreadable and says so (MISSING_REPORT_KEY_MISSING); the others still open', async () => {
    const [id1, id2] = await importTwo();
    await unlink(join(keysDir(), `${id1}.key`));
    expect((await run(1, ['missing', 'show', id1 ?? ''])).stderr).toContain('[MISSING_REPORT_KEY_MISSING]');
    expect((await json<SummaryJson[]>(['missing', 'list']))[0]?.key).toBe('missing');
    // A key deleted without a recorded erasure is an erasure no one recorded: verify fails on it.
    const v = JSON.parse((await run(1, ['verify', '--json'])).stdout) as { findings: { code: string; subject: string; severity: string }[] };
    expect(v.findings).toEqual([expect.objectContaining({ code: 'REPORT_KEY_MISSING', severity: 'error', subject: `keys/reports/${id1}.key` })]);
    expect((await json<ReportJson>(['missing', 'show', id2 ?? ''])).content.name_ar).toBe(NAME2_AR);
  });

  it('attack: an index row pointing an erase at a report the ledger does not record is refused (MISSING_REPORT_NOT_FOUND), no key destroyed', async () => {
    const [id1, id2] = await importTwo();
    // The row of report 2 now claims it was recorded by report 1's entry: the index alone would erase report 2.
    await withIndexDb(a, async (d) => {
      const [r1] = await d.rows<{ recorded_seq: number }>('SELECT recorded_seq FROM missing_reports WHERE id = ?', [id1]);
      await d.exec('UPDATE missing_reports SET recorded_seq = ? WHERE id = ?', [Number(r1?.recorded_seq), id2]);
      await d.exec('UPDATE missing_reports SET recorded_seq = ? WHERE id = ?', [0, id1]);
    });
    const size = (await ledger()).length;
    for (const id of [id1, id2]) expect((await run(1, ['missing', 'erase', id ?? '', '--category', 'error'])).stderr).toContain('[MISSING_REPORT_NOT_FOUND]');
    expect((await ledger()).length).toBe(size);
    expect(await readdir(keysDir())).toHaveLength(2);
    await run(0, ['rebuild']);
    expect((await json<ReportJson>(['missing', 'show', id2 ?? ''])).content.name_ar).toBe(NAME2_AR);
  });

  it('attack: a key file planted for no report is reported by verify (REPORT_KEY_UNKNOWN) and opens nothing', async () => {
    const [id1] = await importTwo();
    await copyFile(join(keysDir(), `${id1}.key`), join(keysDir(), '01ARZ3NDEKTSV4RRFFQ69G5FAV.key'));
    const v = JSON.parse((await run(0, ['verify', '--json'])).stdout) as { findings: { code: string; subject: string }[] };
    expect(v.findings).toContainEqual(expect.objectContaining({ code: 'REPORT_KEY_UNKNOWN', subject: 'keys/reports/01ARZ3NDEKTSV4RRFFQ69G5FAV.key' }));
    expect((await run(1, ['missing', 'show', '01ARZ3NDEKTSV4RRFFQ69G5FAV'])).stderr).toContain('[MISSING_REPORT_NOT_FOUND]');
  });

  it('an unknown report is MISSING_REPORT_NOT_FOUND; erase needs a category (usage), and free text is refused, nothing recorded (MISSING_REPORT_INVALID)', async () => {
    expect((await run(1, ['missing', 'show', '01ARZ3NDEKTSV4RRFFQ69G5FAV'])).stderr).toContain('[MISSING_REPORT_NOT_FOUND]');
    expect((await run(1, ['missing', 'show', '../../custody'])).stderr).toContain('[MISSING_REPORT_NOT_FOUND]');
    expect((await run(2, ['missing', 'erase', '01ARZ3NDEKTSV4RRFFQ69G5FAV'])).stderr).toContain('[USAGE]');
    const [id1] = await importTwo();
    const size = (await ledger()).length;
    const free = await run(1, ['missing', 'erase', id1 ?? '', '--reason', 'the family moved abroad']);
    expect(free.stderr).toContain('[MISSING_REPORT_INVALID]');
    expect(free.stderr).toContain('--category');
    expect((await run(2, ['missing', 'erase', id1 ?? '', '--category', 'duplicate', '--reason', 'duplicate'])).stderr).toContain('[USAGE]');
    expect((await ledger()).length).toBe(size);
    expect(existsSync(join(keysDir(), `${id1}.key`))).toBe(true);
    // --reason naming a category is still taken (the older spelling of the option).
    expect((await json<{ category: string }>(['missing', 'erase', id1 ?? '', '--reason', 'duplicate'])).category).toBe('duplicate');
  });

  it('no reason typed for a contact read or an erasure reaches the ledger file or the index; after the erasure the read reasons cannot be opened; log shows the category and "(reason sealed)"', async () => {
    // Two reports with a contact each.
    const [id1, id2] = (await json<{ ids: string[] }>(['missing', 'import', await csv('r.csv', `${HEADER}\n${ROW1}\n${ROW1}\n`), '--org', 'Org A'])).ids;
    const typed = 'sister of the missing man asked on 3 March';
    const shown = await json<ReportJson>(['missing', 'show', id1 ?? '', '--contact', '--reason', typed]);
    await json<ReportJson>(['missing', 'show', id2 ?? '', '--contact', '--reason', `${typed} (2)`]);
    expect(shown.contact_reads.map((x) => x.reason)).toEqual([typed]);
    const r = await json<{ seq: number }>(['missing', 'erase', id1 ?? '', '--category', 'family-request']);
    const text = (await run(0, ['log'])).stdout;
    expect(text).toContain('missing.read (reason sealed)');
    expect(text).toContain('missing.erase (family-request)');
    // The raw ledger file, and every byte of the archive (and of the PostgreSQL index), hold no typed reason.
    expect((await ledger()).includes(Buffer.from('sister of the missing man', 'utf8'))).toBe(false);
    expect((await everything()).includes(Buffer.from('sister of the missing man', 'utf8'))).toBe(false);
    // The erased report's read cannot be opened by anyone; the other report's still opens.
    expect((await run(1, ['missing', 'show', id1 ?? ''])).stderr).toContain('[MISSING_REPORT_ERASED]');
    expect((await json<ReportJson>(['missing', 'show', id2 ?? ''])).contact_reads.map((x) => x.reason)).toEqual([`${typed} (2)`]);
    const entry = (await log()).find((l) => l.entry.seq === r.seq)?.entry;
    expect(Object.keys(entry?.details ?? {}).sort()).toEqual(['action', 'category', 'digest', 'report']);
  });

  it('entries written before reasons were sealed (a clear read reason, a free-text erasure) still parse, verify, rebuild and show', async () => {
    const [id1, id2] = await importTwo();
    const digest2 = (await log()).find((l) => l.entry.details.report === id2)?.entry.details.digest;
    const archive = await openArchive(loadConfig({ CUSTODY_ARCHIVE: a.dir, CUSTODY_ACTOR: 'older-custody', ...a.env }, {}), 'write', 'test: entries in the older format');
    try {
      await archive.commit([
        uncheckedDraft({ actor: 'older-custody', type: 'cataloguing', details: { action: 'missing.read', report: id1 ?? '', reason: 'older read, in clear' } }),
        uncheckedDraft({ actor: 'older-custody', type: 'cataloguing', details: { action: 'missing.erase', report: id2 ?? '', digest: String(digest2), reason: 'older erasure, in clear' } }),
      ]);
    } finally {
      await archive.close();
    }
    // The erasure entry alone does not destroy the key: finish it as an interrupted erasure is finished.
    await run(0, ['missing', 'erase', id2 ?? '', '--category', 'other']);
    const notInfo = async (): Promise<unknown[]> => (await json<{ findings: { severity: string }[] }>(['verify'])).findings.filter((f) => f.severity !== 'info');
    expect(await notInfo()).toEqual([]);
    expect((await json<{ findings: unknown[] }>(['rebuild'])).findings).toEqual([]);
    expect(await notInfo()).toEqual([]);
    expect((await json<ReportJson>(['missing', 'show', id1 ?? ''])).contact_reads).toEqual([
      { seq: expect.any(Number) as unknown, actor: 'older-custody', time: expect.any(String) as unknown, reason: 'older read, in clear', sealed: false },
    ]);
    const list = await json<SummaryJson[]>(['missing', 'list']);
    expect(list.find((x) => x.id === id2)).toMatchObject({ erased_category: null, erased_reason: 'older erasure, in clear', key: 'destroyed' });
    const text = (await run(0, ['log'])).stdout;
    expect(text).toContain('missing.read (reason in clear: an entry written before it was sealed)');
    expect(text).toContain('missing.erase (reason in clear: an entry written before categories)');
  });
});

describeDatabases('custody export --redact and missing-person reports', (db) => {
  it('a full-ledger bag with --redact withholds the report entries (listed as withheld) and still verifies; without it, only ciphertext travels', async () => {
    const made = await db.makeUrl();
    try {
      const base = await makeTempDir(`missing-export-${db.kind}`);
      const env: Record<string, string> = made.url === null ? {} : { DATABASE_URL: made.url };
      const a = { dir: join(base, 'archive'), env };
      const run = (code: number, args: string[]) => custodyInExpect(code, [...args, '--archive', a.dir], a.env);
      await run(0, ['init']);
      const file = join(base, 'r.csv');
      await writeFile(file, `name_ar,contact_phone\n${NAME_AR},${PHONE}\n`);
      const [id] = (JSON.parse((await run(0, ['missing', 'import', file, '--org', 'Org A', '--json'])).stdout) as { ids: string[] }).ids;
      await run(0, ['missing', 'show', id ?? '', '--contact', '--reason', 'call back']);
      const redacted = join(base, 'bag-redacted');
      await run(0, ['export', '--select', 'all', '--full-ledger', '--redact', '--out', redacted]);
      const withheld = JSON.parse(await readFile(join(redacted, 'custody', 'withheld-entries.json'), 'utf8')) as { action: string; reason: string }[];
      expect(withheld.filter((w) => w.reason.startsWith('missing-person report')).map((w) => w.action)).toEqual(['missing.report', 'missing.read']);
      const redactedLedger = await readFile(join(redacted, 'custody', 'ledger.jsonl'), 'utf8');
      expect(redactedLedger).not.toContain('missing.');
      await custodyInExpect(0, ['verify-export', redacted], a.env);
      const full = join(base, 'bag-full');
      await run(0, ['export', '--select', 'all', '--full-ledger', '--out', full]);
      const bytes = Buffer.concat([...(await readTree(full)).values()]);
      expect(bytes.includes(Buffer.from('missing.report'))).toBe(true);
      for (const s of [NAME_AR, PHONE]) expect(bytes.includes(Buffer.from(s, 'utf8')), s).toBe(false);
    } finally {
      await made.cleanup();
    }
  });
});
