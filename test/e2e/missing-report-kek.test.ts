// Issue 15, "Recording" ("each report's content sealed under its own key, wrapped for the custodian
// role"): the report key-encryption key is a random key of its own (keys/report-kek.key) under the
// report passphrase, not derived from the archive key. A writer with only the archive passphrase
// cannot read (or record) a report; the holder of the report passphrase can; an archive whose key
// files were wrapped the old way (HKDF of the sealing key) still reads, and is moved onto the KEK
// the first time both passphrases open it; a swapped, edited or deleted KEK file is refused; erasure
// still crypto-shreds. SQLite only: the keys live in files beside the index, whatever its database.
import { cp, readFile, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it, describe } from 'vitest';
import { openArchive } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { legacyReportKek, unwrapDataKey, wrapDataKeyV1 } from '../../src/identification/reports/report-seal.js';
import { custodyInExpect } from '../support/archive-fixtures.js';
import { makeTempDir } from '../support/tmp.js';

// Synthetic people: no real names.
const NAME_AR = 'زيدون قطرميز';
const PHONE = '+963-555-0199-731';
const CSV = [
  'name_ar,name_latin,sex,birth,event,event_date,contact_name,contact_relation,contact_phone,consent_orgs,consent_photographs,consent_liaison',
  `${NAME_AR},Zaydoun Qatramiz,male,1985,arrest,2013-05-21,أم زيدون,mother,${PHONE},Org B,yes,Liaison Rima`,
  'بشموش طنبرجي,Bashmoush Tanbarji,male,1990,last_seen,2014,,,,,no,',
].join('\n');

const ARCHIVE_PASS = 'archive passphrase for writers';
const REPORT_PASS = 'report passphrase for custodians';
const WRITER = { CUSTODY_KEY_PASSPHRASE: ARCHIVE_PASS };
const CUSTODIAN = { CUSTODY_KEY_PASSPHRASE: ARCHIVE_PASS, CUSTODY_REPORT_PASSPHRASE: REPORT_PASS };

interface Shown {
  id: string;
  content: { name_ar: string; contact: unknown };
}

describe('the report KEK: its own key, under the report passphrase', () => {
  let template: string;
  let ids: string[];
  let base: string;

  beforeAll(async () => {
    const dir = join(await makeTempDir('report-kek-template'), 'archive');
    await custodyInExpect(0, ['init', '--archive', dir], CUSTODIAN);
    const csv = join(dir, '..', 'reports.csv');
    await writeFile(csv, `${CSV}\n`, 'utf8');
    const r = await custodyInExpect(0, ['missing', 'import', csv, '--org', 'Org A', '--archive', dir, '--json'], CUSTODIAN);
    ids = (JSON.parse(r.stdout) as { ids: string[] }).ids;
    template = dir;
  }, 120_000);

  /** A fresh copy of the template archive. */
  const copy = async (name: string): Promise<string> => {
    base = await makeTempDir(`report-kek-${name}`);
    const dir = join(base, 'archive');
    await cp(template, dir, { recursive: true, preserveTimestamps: true });
    return dir;
  };
  const show = (dir: string, id: string, env: Record<string, string>, code = 0) => custodyInExpect(code, ['missing', 'show', id, '--archive', dir, '--json'], env);
  const keyFile = (dir: string, id: string): Promise<{ version: number; kek?: string }> =>
    readFile(join(dir, 'keys', 'reports', `${id}.key`), 'utf8').then((t) => JSON.parse(t) as { version: number; kek?: string });

  it('init makes keys/report-kek.key under the report passphrase; key files are version 2 and name it', async () => {
    const names = await readdir(join(template, 'keys'));
    expect(names).toContain('report-kek.key');
    const kekText = await readFile(join(template, 'keys', 'report-kek.key'), 'utf8');
    expect(kekText).not.toContain('PRIVATE KEY'); // encrypted, not a plain PEM
    for (const id of ids) expect(await keyFile(template, id)).toMatchObject({ version: 2, kek: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown });
  });

  it('a writer with only the archive passphrase cannot read a report, nor record one (MISSING_REPORT_KEK_LOCKED, exit 2); the custodian can', async () => {
    const dir = await copy('writer');
    const refused = await show(dir, ids[0]!, WRITER, 2);
    expect(refused.stderr).toContain('[MISSING_REPORT_KEK_LOCKED]');
    expect(refused.stderr).toContain('CUSTODY_REPORT_PASSPHRASE');
    expect(refused.stdout + refused.stderr).not.toContain(NAME_AR);
    // Listing with names needs the KEK too: refused as a whole, no name shown.
    const names = await custodyInExpect(2, ['missing', 'list', '--names', '--archive', dir, '--json'], WRITER);
    expect(names.stderr).toContain('[MISSING_REPORT_KEK_LOCKED]');
    expect(names.stdout).not.toContain(NAME_AR);
    const csv = join(base, 'more.csv');
    await writeFile(csv, `${CSV}\n`, 'utf8');
    const imported = await custodyInExpect(2, ['missing', 'import', csv, '--org', 'Org A', '--archive', dir], WRITER);
    expect(imported.stderr).toContain('[MISSING_REPORT_KEK_LOCKED]');
    const shown = JSON.parse((await show(dir, ids[0]!, CUSTODIAN)).stdout) as Shown;
    expect(shown.content.name_ar).toBe(NAME_AR);
    // A wrong report passphrase is refused as such.
    const wrong = await show(dir, ids[0]!, { ...WRITER, CUSTODY_REPORT_PASSPHRASE: 'not it' }, 1);
    expect(wrong.stderr).toContain('[KEY_PASSPHRASE_WRONG]');
  });

  it('an archive whose key files were wrapped the old way (HKDF of the sealing key) still reads, and is rewrapped under a new KEK when both passphrases first open it', async () => {
    const dir = await copy('old-format');
    // Build the old archive: each key file rewritten as version 1 under the derived key, and no KEK file.
    const archive = await openArchive(loadConfig({ CUSTODY_ARCHIVE: dir, ...CUSTODIAN }, {}), 'write', 'test: old key files');
    try {
      const keys = await archive.reportKeys();
      const legacy = legacyReportKek(archive.sealingKey!);
      for (const id of ids) {
        const row = (await archive.index.getMissingReport(id))!;
        const path = join(dir, 'keys', 'reports', `${id}.key`);
        const dataKey = unwrapDataKey(keys, id, row.digest, await readFile(path, 'utf8'));
        await writeFile(path, wrapDataKeyV1(legacy, id, row.digest, dataKey));
      }
    } finally {
      await archive.close();
    }
    await unlink(join(dir, 'keys', 'report-kek.key'));
    for (const id of ids) expect((await keyFile(dir, id)).version).toBe(1);
    // The writer alone gets no KEK made (it would be unencrypted in an encrypted archive).
    expect((await show(dir, ids[0]!, WRITER, 2)).stderr).toContain('[MISSING_REPORT_KEK_LOCKED]');
    expect((await readdir(join(dir, 'keys'))).includes('report-kek.key')).toBe(false);
    // Both passphrases: the KEK is made, every key file rewrapped (version 2), the report reads.
    const r = await show(dir, ids[0]!, CUSTODIAN);
    expect((JSON.parse(r.stdout) as Shown).content.name_ar).toBe(NAME_AR);
    expect(r.stderr).toContain('2 report key(s) rewrapped');
    const kekIds = new Set<string | undefined>();
    for (const id of ids) {
      const f = await keyFile(dir, id);
      expect(f.version).toBe(2);
      kekIds.add(f.kek);
    }
    expect(kekIds.size).toBe(1);
    expect(kekIds.has((await keyFile(template, ids[0]!)).kek)).toBe(false); // a new KEK, not the template's
    expect((await show(dir, ids[1]!, CUSTODIAN)).code).toBe(0);
    await custodyInExpect(0, ['verify', '--archive', dir], CUSTODIAN);
  });

  it('a KEK file swapped for another archive\'s (same passphrase) is refused by name (MISSING_REPORT_KEY_INVALID); an edited one fails to open; a deleted one is not silently made again (MISSING_REPORT_KEK_MISSING)', async () => {
    const dir = await copy('swapped');
    const other = join(base, 'other');
    await custodyInExpect(0, ['init', '--archive', other], CUSTODIAN);
    const kekPath = join(dir, 'keys', 'report-kek.key');
    const original = await readFile(kekPath);
    await writeFile(kekPath, await readFile(join(other, 'keys', 'report-kek.key')));
    const swapped = await show(dir, ids[0]!, CUSTODIAN, 1);
    expect(swapped.stderr).toContain('[MISSING_REPORT_KEY_INVALID]');
    expect(swapped.stderr).toMatch(/wrapped under report KEK [0-9a-f]{16}, not this archive's/);
    expect(swapped.stdout).not.toContain(NAME_AR);
    // Edited: one character of the envelope changed.
    const text = original.toString('utf8');
    const at = text.indexOf('"ciphertext"') + 20;
    const edited = text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    expect(edited).not.toBe(text);
    await writeFile(kekPath, edited);
    const bad = await show(dir, ids[0]!, CUSTODIAN, 1);
    expect(bad.stderr).toMatch(/\[KEY_(FILE_INVALID|FILE_TAMPERED|PASSPHRASE_WRONG)\]/);
    expect(bad.stdout).not.toContain(NAME_AR);
    await unlink(kekPath);
    const missing = await show(dir, ids[0]!, CUSTODIAN, 1);
    expect(missing.stderr).toContain('[MISSING_REPORT_KEK_MISSING]');
    expect((await readdir(join(dir, 'keys'))).includes('report-kek.key')).toBe(false);
    // The original put back: everything reads again.
    await writeFile(kekPath, original);
    expect((JSON.parse((await show(dir, ids[0]!, CUSTODIAN)).stdout) as Shown).content.name_ar).toBe(NAME_AR);
  });

  it('erase still crypto-shreds: the key file is destroyed, the report unreadable even with the KEK', async () => {
    const dir = await copy('erase');
    await custodyInExpect(0, ['missing', 'erase', ids[0]!, '--category', 'family-request', '--archive', dir], CUSTODIAN);
    expect((await readdir(join(dir, 'keys', 'reports'))).includes(`${ids[0]!}.key`)).toBe(false);
    const gone = await show(dir, ids[0]!, CUSTODIAN, 1);
    expect(gone.stderr).toContain('[MISSING_REPORT_ERASED]');
    expect((await show(dir, ids[1]!, CUSTODIAN)).code).toBe(0);
  });

  it('key rewrap --report re-encrypts the KEK under a new report passphrase (the old one no longer opens it); the archive passphrase is refused as the report passphrase', async () => {
    const dir = await copy('rewrap');
    const newPass = join(base, 'new-pass');
    await writeFile(newPass, 'a new report passphrase\n', { mode: 0o600 });
    const r = await custodyInExpect(0, ['key', 'rewrap', '--report', '--new-passphrase-file', newPass, '--archive', dir, '--json'], CUSTODIAN);
    expect(JSON.parse(r.stdout)).toMatchObject({ key: 'report', rewrapped: true });
    expect((await show(dir, ids[0]!, CUSTODIAN, 1)).stderr).toContain('[KEY_PASSPHRASE_WRONG]');
    expect((await show(dir, ids[0]!, { ...WRITER, CUSTODY_REPORT_PASSPHRASE: 'a new report passphrase' })).code).toBe(0);
    const same = join(base, 'same-pass');
    await writeFile(same, `${ARCHIVE_PASS}\n`, { mode: 0o600 });
    const refused = await custodyInExpect(2, ['key', 'rewrap', '--report', '--new-passphrase-file', same, '--archive', dir], { ...WRITER, CUSTODY_REPORT_PASSPHRASE: 'a new report passphrase' });
    expect(refused.stderr).toContain('must not be the archive key passphrase');
    const init = await custodyInExpect(2, ['init', '--archive', join(base, 'same')], { CUSTODY_KEY_PASSPHRASE: ARCHIVE_PASS, CUSTODY_REPORT_PASSPHRASE: ARCHIVE_PASS });
    expect(init.stderr).toContain('[CONFIG_INVALID]');
  });
});
