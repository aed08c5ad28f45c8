// Issue 15, "Export": `custody missing export ID --out DIR [--include-contacts]` puts a report's
// identification file in a bag for the authorities, with proofs like the other exports:
// verify-export (pinned key, receipt), the bag's verify.sh and verify_bag.py accept it; a tampered
// bag fails; the reporting contact is absent unless released, and its release is a ledger entry
// naming the account; an erased report cannot be exported; nothing from a report outside the
// caller's consent scope. On SQLite and PostgreSQL, in-process.
import { spawnSync } from 'node:child_process';
import { access, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { identificationBagArchive, openArchive } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { CustodyError } from '../../src/core/index.js';
import { exportIdentificationBag } from '../../src/reports/export/identification-bag.service.js';
import { bagFiles } from '../../src/reports/export/bag-files.adapter.js';
import {
  CLEAN_ENV,
  cloneArchive,
  custodyInExpect,
  writeExtraFiles,
  type TestArchive,
} from '../support/archive-fixtures.js';
import { readTree } from '../support/export-bags.js';
import { describeDatabases } from '../support/postgres.js';
import { makeTempDir } from '../support/tmp.js';

// Synthetic people: no real names, numbers or places.
const NAME_AR = 'زيدون قطرميز';
const PHONE = '+000 555 0147';
const CONTACT = 'Umm Zaydun Test';
const LIAISON = 'Liaison Rima';
const ATTENDEE = 'أخت زيدون';
const REFERENCE = 'register page 14 line 3';
const OUT_OF_SCOPE_NAME = 'بشموش طنبرجي';
const HEADER =
  'org,name_ar,sex,birth,contact_name,contact_phone,consent_orgs,consent_photographs,consent_liaison';
// A: Org A, Org B may see it, photographs through the liaison. B: Org A only. D: Org B's own.
const CSV = `${HEADER}\nOrg A,${NAME_AR},male,1985,${CONTACT},${PHONE},Org B,yes,${LIAISON}\nOrg A,${OUT_OF_SCOPE_NAME},male,1990,,,,no,\nOrg B,زيدون قطرمز,male,1985,,,,no,\n`;

interface IdFile {
  report: {
    id: string;
    contacts: string;
    contact_release_seq: number | null;
    content: { name_ar: string; contact: unknown };
  };
  report_links: { other_report: string; decision: string; seq: number; reason: string | null }[];
  subject_links: { subject: string; level: string | null }[];
  subject_events: { action: string; note: Record<string, unknown> }[];
  subjects: { subject_id: string; record: unknown; rests_on: number[] }[];
}

describeDatabases('custody missing export: the identification file in a bag', (db) => {
  let base: string;
  let dir: string;
  let env: Record<string, string>;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let A: string;
  let B: string;
  let D: string;
  let s1: string;
  let verifierKey: string;

  const run = (code: number, args: string[], actor = 'reviewer-1') =>
    custodyInExpect(code, [...args, '--archive', dir], { ...env, CUSTODY_ACTOR: actor });
  const json = async <T>(args: string[], actor?: string): Promise<T> =>
    JSON.parse((await run(0, [...args, '--json'], actor)).stdout) as T;
  const ledger = (): Promise<Buffer> => readFile(join(dir, 'ledger', 'entries.jsonl'));
  const ledgerLines = async (): Promise<
    { seq: number; actor: string; type: string; details: Record<string, unknown> }[]
  > =>
    (await ledger())
      .toString('utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            seq: number;
            actor: string;
            type: string;
            details: Record<string, unknown>;
          },
      );
  const exportA = async (name: string, extra: string[] = [], actor = 'exporter-1') =>
    json<{
      out: string;
      receipt: string;
      ledger_seq: number;
      contact_release_seq: number | null;
      tree_size: number;
    }>(['missing', 'export', A, '--out', join(base, name), ...extra], actor);
  const pinned = async (): Promise<string> => {
    const file = join(base, 'pinned.txt');
    await writeFile(file, `${verifierKey}\n`);
    return file;
  };
  const verifyExport = (code: number, bag: string, extra: string[] = []) =>
    custodyInExpect(code, ['verify-export', bag, '--json', ...extra], { ...env });
  const idFile = async (bag: string): Promise<IdFile> =>
    JSON.parse(
      await readFile(join(bag, 'data', 'tables', 'identification.json'), 'utf8'),
    ) as IdFile;
  const bagText = async (bag: string): Promise<string> =>
    [...(await readTree(bag)).values()].map((b) => b.toString('utf8')).join('\n');

  // The fixture is built once per database; each test works on its own copy of it (the folder,
  // and the index database copied by CREATE DATABASE … TEMPLATE), so no test sees another's writes.
  let template: TestArchive;
  let dropTemplate: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    const made = await db.makeUrl();
    dropTemplate = made.cleanup;
    base = await makeTempDir(`missing-export-${db.kind}`);
    dir = join(base, 'archive');
    env = made.url === null ? {} : { DATABASE_URL: made.url };
    verifierKey = (
      JSON.parse((await run(0, ['init', '--json'])).stdout) as { verifier_key: string }
    ).verifier_key;
    await writeExtraFiles(join(base, 'photos'), 2);
    await run(0, ['ingest', join(base, 'photos'), '--source', 'KITE', '--new-source']);
    s1 = await json<string>([
      'subject',
      'add',
      '--item',
      'extra-0.bin',
      '--item',
      'extra-1.bin',
      '--reason',
      'card',
    ]);
    const photos = (await json<{ items: string[] }>(['subject', 'show', s1])).items;
    await writeFile(join(base, 'r.csv'), CSV, 'utf8');
    [A = '', B = '', D = ''] = (
      await json<{ ids: string[] }>(['missing', 'import', join(base, 'r.csv')])
    ).ids;
    await run(0, [
      'missing',
      'review-subject',
      A,
      s1,
      '--accept',
      '--reason',
      'scar on the left cheek',
    ]);
    const v = await json<{ seq: number }>(
      [
        'missing',
        'viewing',
        A,
        s1,
        '--attendee',
        `${ATTENDEE}:sister`,
        '--shown',
        `${photos[0]}:blurred:recognised`,
      ],
      LIAISON,
    );
    await run(
      0,
      [
        'missing',
        'review-subject',
        A,
        s1,
        '--level',
        'recognised',
        '--viewing',
        String(v.seq),
        '--reason',
        'his sister knew him',
      ],
      LIAISON,
    );
    await run(0, [
      'missing',
      'review-subject',
      A,
      s1,
      '--level',
      'confirmed',
      '--reference',
      `number-record:${REFERENCE}`,
      '--reason',
      'the number matches',
    ]);
    await run(0, ['missing', 'link-review', A, B, '--same', '--reason', 'same father and village']);
    await run(0, [
      'missing',
      'link-review',
      A,
      D,
      '--same',
      '--reason',
      'the same man reported twice',
    ]);
    template = { dir, origin: '', verifierKey, env };
  }, 120_000);
  afterAll(() => dropTemplate());

  beforeEach(async () => {
    const made = await db.copyUrl(template.env.DATABASE_URL ?? null);
    cleanup = made.cleanup;
    dir = (await cloneArchive(template, `missing-export-${db.kind}`)).dir;
    base = dirname(dir);
    env = made.url === null ? {} : { DATABASE_URL: made.url };
  });
  afterEach(() => cleanup());

  it('the bag holds the report, its decisions, levels, viewings, references and candidate subjects; verify-export (pinned key, receipt), verify.sh and verify_bag.py accept it', async () => {
    const r = await exportA('bag-a');
    const f = await idFile(r.out);
    expect(f.report).toMatchObject({
      id: A,
      contacts: 'redacted',
      contact_release_seq: null,
      content: { name_ar: NAME_AR, contact: 'redacted' },
    });
    expect(f.subject_links).toEqual([expect.objectContaining({ subject: s1, level: 'confirmed' })]);
    expect(f.subject_events.map((e) => e.action)).toEqual([
      'missing.subject-review',
      'missing.viewing',
      'missing.subject-level',
      'missing.subject-level',
    ]);
    expect(f.subject_events.at(-1)?.note).toEqual({
      reason: 'the number matches',
      references: [{ kind: 'number-record', reference: REFERENCE }],
    });
    expect(f.report_links.map((l) => [l.other_report, l.decision]).sort()).toEqual(
      [
        [B, 'same'],
        [D, 'same'],
      ].sort(),
    );
    expect(f.subjects.map((x) => x.subject_id)).toEqual([s1]);
    expect(f.subjects[0]?.record).toMatchObject({ status: 'active' });
    // The reasons of report↔report decisions are sealed in the ledger (under both reports' keys) and opened in the file.
    expect(f.report_links.find((l) => l.other_report === D)?.reason).toBe('the same man reported twice');
    expect(await readFile(join(r.out, 'custody', 'ledger.jsonl'), 'utf8')).not.toContain('the same man reported twice');
    // Every entry the file names is a proven line of custody/ledger.jsonl.
    const lines = (await readFile(join(r.out, 'custody', 'ledger.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { seq: number }).seq);
    for (const seq of [...f.report_links.map((l) => l.seq), ...(f.subjects[0]?.rests_on ?? [])])
      expect(lines).toContain(seq);
    const key = await pinned();
    const v = JSON.parse(
      (await verifyExport(0, r.out, ['--key', key, '--receipt', r.receipt])).stdout,
    ) as { valid: boolean; steps: { ok: boolean }[] };
    expect(v.valid).toBe(true);
    expect(v.steps).toHaveLength(8);
    expect(spawnSync('bash', ['verify.sh', key], { cwd: r.out, encoding: 'utf8' }).status).toBe(0);
    expect(
      spawnSync('python3', ['verify_bag.py', '.', '--key', key], { cwd: r.out, encoding: 'utf8' })
        .status,
    ).toBe(0);
    // The export is itself a 'dissemination' entry naming the report and the bag's tag manifest.
    const entry = (await ledgerLines()).find((e) => e.seq === r.ledger_seq);
    expect(entry).toMatchObject({
      type: 'dissemination',
      actor: 'exporter-1',
      details: {
        action: 'missing.export',
        report: A,
        tree_size: r.tree_size,
        contacts: 'redacted',
      },
    });
    await run(0, ['verify']);
  });

  it('contacts are absent by default: neither the phone, the contact name nor the attendees are anywhere in the bag, and no contact read is recorded', async () => {
    const r = await exportA('bag-a');
    const text = await bagText(r.out);
    for (const s of [PHONE, CONTACT, ATTENDEE]) expect(text).not.toContain(s);
    expect(text).toContain(NAME_AR);
    expect(
      (await json<{ id: string; contact_reads: number }[]>(['missing', 'list'])).find(
        (x) => x.id === A,
      )?.contact_reads,
    ).toBe(0);
  });

  it('--include-contacts releases the contact, and the release is a ledger entry naming the account, inside the bag', async () => {
    await run(2, ['missing', 'export', A, '--out', join(base, 'no-reason'), '--include-contacts']);
    const r = await exportA('bag-c', [
      '--include-contacts',
      '--reason',
      'requested by the prosecutor, case 12',
    ]);
    const f = await idFile(r.out);
    expect(f.report.contacts).toBe('released');
    expect(JSON.stringify(f.report.content.contact)).toContain(PHONE);
    const release = (await ledgerLines()).find((e) => e.seq === r.contact_release_seq);
    expect(release).toMatchObject({
      actor: 'exporter-1',
      details: {
        action: 'missing.read',
        report: A,
        sealed: { alg: 'AES-256-GCM' },
      },
    });
    // The release's reason is sealed under the report's key: not in the bag's ledger, nor in the archive's.
    expect(await readFile(join(r.out, 'custody', 'ledger.jsonl'), 'utf8')).not.toContain('requested by the prosecutor');
    expect(r.contact_release_seq).toBeLessThan(r.tree_size);
    expect(await readFile(join(r.out, 'custody', 'ledger.jsonl'), 'utf8')).toContain(
      `"seq":${String(r.contact_release_seq)}`,
    );
    expect(
      (await json<{ id: string; contact_reads: number }[]>(['missing', 'list'])).find(
        (x) => x.id === A,
      )?.contact_reads,
    ).toBe(1);
    expect(
      JSON.parse(
        (await verifyExport(0, r.out, ['--key', await pinned(), '--receipt', r.receipt])).stdout,
      ),
    ).toMatchObject({ valid: true });
  });

  it('a tampered bag fails: the identification file edited (its digest no longer matches the manifest)', async () => {
    const r = await exportA('bag-t1');
    const path = join(r.out, 'data', 'tables', 'identification.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"confirmed"', '"candidate"'));
    const v = JSON.parse((await verifyExport(1, r.out, ['--key', await pinned()])).stdout) as {
      valid: boolean;
      findings: { code: string; path?: string }[];
    };
    expect(v.valid).toBe(false);
    expect(v.findings).toContainEqual(
      expect.objectContaining({
        code: 'BAGIT_DIGEST_MISMATCH',
        path: 'data/tables/identification.json',
      }),
    );
  });

  it('a tampered bag fails: a ledger line changed and the tag manifest resealed (the line is no longer proven)', async () => {
    const r = await exportA('bag-t2');
    const path = join(r.out, 'custody', 'ledger.jsonl');
    const text = await readFile(path, 'utf8');
    expect(text).toContain('"decision":"same"');
    const forged = text.replace('"decision":"same"', '"decision":"diff"');
    await writeFile(path, forged);
    const tm = join(r.out, 'tagmanifest-sha256.txt');
    const digest = createHash('sha256').update(forged).digest('hex');
    await writeFile(
      tm,
      (await readFile(tm, 'utf8')).replace(
        /^[0-9a-f]{64} {2}custody\/ledger\.jsonl$/m,
        `${digest}  custody/ledger.jsonl`,
      ),
    );
    const v = JSON.parse((await verifyExport(1, r.out, ['--key', await pinned()])).stdout) as {
      findings: { code: string }[];
    };
    expect(v.findings.map((x) => x.code)).toContain('EXPORT_ENTRY_UNPROVEN');
    expect(v.findings.map((x) => x.code)).not.toContain('BAGIT_DIGEST_MISMATCH');
  });

  it('refused: an erased report cannot be exported (MISSING_REPORT_ERASED); nothing is written and no bag appears', async () => {
    await run(0, ['missing', 'erase', A, '--category', 'consent-withdrawn']);
    const size = (await ledger()).length;
    const r = await run(1, ['missing', 'export', A, '--out', join(base, 'bag-e')], 'exporter-1');
    expect(r.stderr).toContain('[MISSING_REPORT_ERASED]');
    expect((await ledger()).length).toBe(size);
    await expect(access(join(base, 'bag-e'))).rejects.toThrow();
    await expect(access(join(base, 'bag-e.receipt.json'))).rejects.toThrow();
  });

  it('refused: a report the archive does not hold (MISSING_REPORT_NOT_FOUND)', async () => {
    const size = (await ledger()).length;
    const r = await run(1, [
      'missing',
      'export',
      '01JXXXXXXXXXXXXXXXXXXXXXXX',
      '--out',
      join(base, 'bag-n'),
    ]);
    expect(r.stderr).toContain('[MISSING_REPORT_NOT_FOUND]');
    expect((await ledger()).length).toBe(size);
  });

  /** The export as the team server runs it: the account's organisation is known (viewerOrg). */
  const exportAs = async (org: string, report: string, out: string) => {
    const config = loadConfig(
      { ...CLEAN_ENV, ...env, CUSTODY_ACTOR: `account-of-${org}` },
      { archive: dir },
    );
    return exportIdentificationBag(
      {
        open: async () =>
          identificationBagArchive(await openArchive(config, 'write', 'missing export'), org),
        now: Date.now,
        files: bagFiles(dir),
      },
      {
        report,
        out: join(base, out),
        includeContacts: false,
        reason: null,
        softwareVersion: 'test',
      },
    );
  };

  it("scope: an organisation outside the report's consent scope is refused (MISSING_REPORT_FORBIDDEN) and nothing is written", async () => {
    const size = (await ledger()).length;
    const e = await exportAs('Org C', A, 'bag-c').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CustodyError);
    expect((e as CustodyError<string>).code).toBe('MISSING_REPORT_FORBIDDEN');
    expect((await ledger()).length).toBe(size);
    await expect(access(join(base, 'bag-c'))).rejects.toThrow();
  });

  it('scope: within scope, nothing from reports outside it: the decision with an Org-A-only report is left out, its id and names absent from the bag', async () => {
    const r = await exportAs('Org B', A, 'bag-b');
    expect(r.report_links).toBe(1);
    expect(r.report_links_left_out).toBe(1);
    const f = await idFile(r.out);
    expect(f.report_links.map((l) => l.other_report)).toEqual([D]);
    const text = await bagText(r.out);
    for (const s of [B, OUT_OF_SCOPE_NAME, 'same father and village', PHONE])
      expect(text).not.toContain(s);
    expect(
      JSON.parse(
        (await verifyExport(0, r.out, ['--key', await pinned(), '--receipt', r.receipt])).stdout,
      ),
    ).toMatchObject({ valid: true });
    expect((await ledgerLines()).find((x) => x.seq === r.ledger_seq)?.actor).toBe(
      'account-of-Org B',
    );
  });
});
