// The reports service over in-memory ports: the index is the ledger's own projection replayed in
// memory, the key store a map. Consent scope, all-or-nothing import, and the key requirement.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUlidFactory, type JsonValue } from '../../core/index.js';
import type { MissingReportReadsTable, MissingReportsTable, SubjectPmTable, SubjectsTable } from '../../db/index.js';
import { MemoryIndex, projectEntry } from '../../ledger/index.js';
import { candidatesFor } from '../candidates/candidates.service.js';
import { IdentificationError } from '../errors.js';
import type { CandidatePorts, ReportKeyStore } from './ports.js';
import { parseReportsCsv } from './report-rows.js';
import { eraseReport, importReports, listReports, openReadReason, showReport } from './reports.service.js';

class MemoryKeys implements ReportKeyStore {
  readonly files = new Map<string, string>();
  writeAll(files: readonly { id: string; text: string }[]): Promise<void> {
    for (const f of files) this.files.set(f.id, f.text);
    return Promise.resolve();
  }
  read(id: string): Promise<string | null> {
    return Promise.resolve(this.files.get(id) ?? null);
  }
  destroy(id: string): Promise<boolean> {
    return Promise.resolve(this.files.delete(id));
  }
}

function memoryArchive(opts: { failCommit?: boolean } = {}) {
  const index = new MemoryIndex();
  let seq = 1;
  const keys = new MemoryKeys();
  const sealingKey = randomBytes(32);
  const kek = { id: 'test-kek', key: randomBytes(32) };
  const ledgerLog = new Map<number, { [k: string]: JsonValue }>();
  const rows = <T>(t: Parameters<MemoryIndex['table']>[0]): T[] => [...index.table(t).values()] as unknown as T[];
  const ports = (viewerOrg: string | null, key: Buffer | null = sealingKey): CandidatePorts => ({
    actor: 'tester',
    newId: createUlidFactory(),
    reportKeys: () =>
      key === null
        ? Promise.reject(new IdentificationError('MISSING_REPORT_KEK_LOCKED', 'no report passphrase'))
        : Promise.resolve({ kek: key === sealingKey ? kek : { id: kek.id, key }, legacy: sealingKey }),
    viewerOrg,
    keys,
    listReports: () => Promise.resolve(rows<MissingReportsTable>('missing_reports')),
    ledgerDetails: (n: number) => Promise.resolve(ledgerLog.get(n) ?? null),
    getReport: (id) => Promise.resolve(index.table('missing_reports').get(id) as MissingReportsTable | undefined),
    listReads: () => Promise.resolve(rows<MissingReportReadsTable>('missing_report_reads')),
    listUnits: () => Promise.resolve([]),
    listSubjects: () => Promise.resolve([] as SubjectsTable[]),
    listSubjectPm: () => Promise.resolve(rows<SubjectPmTable>('subject_pm')),
    commit(details: readonly { [k: string]: JsonValue }[]) {
      if (opts.failCommit === true) return Promise.reject(new Error('disk full'));
      const seqs = details.map((d) => {
        const entry = { seq: seq++, time: '2026-01-01T00:00:00Z', actor: 'tester', type: 'cataloguing' as const, items: [], objects: [], details: d };
        index.apply(projectEntry(entry, '00'));
        ledgerLog.set(entry.seq, d);
        return entry.seq;
      });
      return Promise.resolve(seqs);
    },
  });
  return { ports, keys, ledgerLog, index };
}

const CSV = 'name_ar,consent_orgs,contact_phone\nزيدون,Org B,+963-1\n';

describe('the reports service', () => {
  it("shows a report only to its organisation and those its consent names (MISSING_REPORT_FORBIDDEN), the CLI's key holder aside", async () => {
    const m = memoryArchive();
    const { rows, errors } = parseReportsCsv(CSV);
    const [id = ''] = (await importReports(m.ports(null), rows, errors, { org: 'Org A' })).ids;
    for (const org of [null, 'Org A', 'Org B']) expect((await showReport(m.ports(org), id, { contactReason: null })).content.name_ar).toBe('زيدون');
    await expect(showReport(m.ports('Org Z'), id, { contactReason: 'r' })).rejects.toMatchObject({ code: 'MISSING_REPORT_FORBIDDEN' });
    await expect(candidatesFor(m.ports('Org Z'), id, { limit: 5 })).rejects.toMatchObject({ code: 'MISSING_REPORT_FORBIDDEN' });
    const listed = await listReports(m.ports('Org Z'), { names: true });
    expect(listed[0]).toMatchObject({ id, name_ar: null, unreadable: 'MISSING_REPORT_FORBIDDEN' });
    // The refused contact read was not recorded.
    expect((await listReports(m.ports(null), { names: false }))[0]?.contact_reads).toBe(0);
  });

  it('a failed ledger batch leaves no key file behind', async () => {
    const m = memoryArchive({ failCommit: true });
    const { rows, errors } = parseReportsCsv(`${CSV}عمر,,\n`);
    await expect(importReports(m.ports(null), rows, errors, { org: 'Org A' })).rejects.toThrow('disk full');
    expect(m.keys.files.size).toBe(0);
  });

  it('sealing needs the report key (MISSING_REPORT_KEK_LOCKED); so do names, but not the metadata list', async () => {
    const m = memoryArchive();
    const { rows, errors } = parseReportsCsv(CSV);
    await expect(importReports(m.ports(null, null), rows, errors, { org: 'Org A' })).rejects.toMatchObject({ code: 'MISSING_REPORT_KEK_LOCKED' });
    await importReports(m.ports(null), rows, errors, { org: 'Org A' });
    await expect(listReports(m.ports(null, null), { names: true })).rejects.toMatchObject({ code: 'MISSING_REPORT_KEK_LOCKED' });
    expect(await listReports(m.ports(null, null), { names: false })).toHaveLength(1);
  });

  it("another archive's key does not open the report (MISSING_REPORT_KEY_INVALID)", async () => {
    const m = memoryArchive();
    const { rows, errors } = parseReportsCsv(CSV);
    const [id = ''] = (await importReports(m.ports(null), rows, errors, { org: 'Org A' })).ids;
    await expect(showReport(m.ports(null, randomBytes(32)), id, { contactReason: null })).rejects.toMatchObject({ code: 'MISSING_REPORT_KEY_INVALID' });
  });

  it("seals a contact read's reason under the report's key: not in the entry, opened for those within the consent scope, unreadable once the report is erased; an older clear reason still reads", async () => {
    const m = memoryArchive();
    const { rows, errors } = parseReportsCsv(CSV);
    const [id = ''] = (await importReports(m.ports(null), rows, errors, { org: 'Org A' })).ids;
    const typed = 'sister of the missing man asked for news';
    const v = await showReport(m.ports('Org B'), id, { contactReason: typed });
    const written = m.ledgerLog.get(v.contact_read_seq ?? -1) ?? {};
    expect(Object.keys(written).sort()).toEqual(['action', 'digest', 'report', 'sealed']);
    expect(JSON.stringify(written)).not.toContain('sister');
    const readRow = [...m.index.table('missing_report_reads').values()][0] as unknown as MissingReportReadsTable;
    expect(JSON.stringify(readRow)).not.toContain('sister');
    expect((await showReport(m.ports('Org A'), id, { contactReason: null })).contact_reads).toEqual([
      { seq: v.contact_read_seq, actor: 'tester', time: '2026-01-01T00:00:00Z', reason: typed, sealed: true },
    ]);
    // Outside the consent scope the report (and so its reads) is refused.
    await expect(showReport(m.ports('Org Z'), id, { contactReason: null })).rejects.toMatchObject({ code: 'MISSING_REPORT_FORBIDDEN' });
    // A sealed reason moved onto another report does not open (the additional data names the report).
    const [other = ''] = (await importReports(m.ports(null), rows, errors, { org: 'Org A' })).ids;
    const otherRow = (await m.ports(null).getReport(other))!;
    await expect(openReadReason(m.ports(null), otherRow, readRow)).rejects.toMatchObject({ code: 'MISSING_REPORT_KEY_INVALID' });
    // An entry of the format written before reasons were sealed: its clear reason still projects and reads.
    await m.ports(null).commit([{ action: 'missing.read', report: id, reason: 'in clear, as before' }]);
    expect((await showReport(m.ports(null), id, { contactReason: null })).contact_reads.map((r) => [r.reason, r.sealed])).toEqual([
      [typed, true],
      ['in clear, as before', false],
    ]);
    // Erased: the key is destroyed, and with it the sealed reason.
    // The row as it was before the erasure (as a stale index would hold it): the key is gone all the same.
    const row = { ...(await m.ports(null).getReport(id))! };
    await eraseReport(m.ports(null), id, 'consent-withdrawn');
    await expect(openReadReason(m.ports(null), row, readRow)).rejects.toMatchObject({ code: 'MISSING_REPORT_KEY_MISSING' });
    await expect(openReadReason(m.ports(null), (await m.ports(null).getReport(id))!, readRow)).rejects.toMatchObject({ code: 'MISSING_REPORT_ERASED' });
  });

  it('an erasure records a category from the closed list, no free text (MISSING_REPORT_INVALID otherwise); an older erasure with a clear reason still projects', async () => {
    const m = memoryArchive();
    const { rows, errors } = parseReportsCsv(CSV);
    const [id = '', id2 = ''] = (await importReports(m.ports(null), [...rows, ...rows], [...errors, ...errors], { org: 'Org A' })).ids;
    await expect(eraseReport(m.ports(null), id, 'the family moved to Germany')).rejects.toMatchObject({ code: 'MISSING_REPORT_INVALID', details: { categories: expect.arrayContaining(['family-request']) as unknown } });
    expect(m.keys.files.has(id)).toBe(true);
    const r = await eraseReport(m.ports(null), id, ' Family-Request ');
    expect(r).toMatchObject({ category: 'family-request', key_destroyed: true });
    expect(m.ledgerLog.get(r.seq)).toEqual({ action: 'missing.erase', report: id, digest: expect.any(String) as unknown, category: 'family-request' });
    // Written before categories: a clear reason; it still projects (as the legacy reason).
    const row2 = (await m.ports(null).getReport(id2))!;
    await m.ports(null).commit([{ action: 'missing.erase', report: id2, digest: row2.digest, reason: 'withdrawn, as before' }]);
    const listed = await listReports(m.ports(null), { names: false });
    expect(listed.map((x) => [x.erased_category, x.erased_reason])).toEqual([
      ['family-request', null],
      [null, 'withdrawn, as before'],
    ]);
  });
});
