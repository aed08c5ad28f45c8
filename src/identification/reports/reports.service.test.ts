// The reports service over in-memory ports: the index is the ledger's own projection replayed in
// memory, the key store a map. Consent scope, all-or-nothing import, and the key requirement.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUlidFactory, type JsonValue } from '../../core/index.js';
import type { MissingReportReadsTable, MissingReportsTable, SubjectPmTable, SubjectsTable } from '../../db/index.js';
import { MemoryIndex, projectEntry } from '../../ledger/index.js';
import { candidatesFor } from '../candidates/candidates.service.js';
import type { CandidatePorts, ReportKeyStore } from './ports.js';
import { parseReportsCsv } from './report-rows.js';
import { importReports, listReports, showReport } from './reports.service.js';

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
  const ledgerLog = new Map<number, { [k: string]: JsonValue }>();
  const rows = <T>(t: Parameters<MemoryIndex['table']>[0]): T[] => [...index.table(t).values()] as unknown as T[];
  const ports = (viewerOrg: string | null, key: Buffer | null = sealingKey): CandidatePorts => ({
    actor: 'tester',
    newId: createUlidFactory(),
    sealingKey: key,
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
  return { ports, keys };
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

  it('sealing needs the archive key (MISSING_REPORT_KEY_REQUIRED); so do names, but not the metadata list', async () => {
    const m = memoryArchive();
    const { rows, errors } = parseReportsCsv(CSV);
    await expect(importReports(m.ports(null, null), rows, errors, { org: 'Org A' })).rejects.toMatchObject({ code: 'MISSING_REPORT_KEY_REQUIRED' });
    await importReports(m.ports(null), rows, errors, { org: 'Org A' });
    await expect(listReports(m.ports(null, null), { names: true })).rejects.toMatchObject({ code: 'MISSING_REPORT_KEY_REQUIRED' });
    expect(await listReports(m.ports(null, null), { names: false })).toHaveLength(1);
  });

  it("another archive's key does not open the report (MISSING_REPORT_KEY_INVALID)", async () => {
    const m = memoryArchive();
    const { rows, errors } = parseReportsCsv(CSV);
    const [id = ''] = (await importReports(m.ports(null), rows, errors, { org: 'Org A' })).ids;
    await expect(showReport(m.ports(null, randomBytes(32)), id, { contactReason: null })).rejects.toMatchObject({ code: 'MISSING_REPORT_KEY_INVALID' });
  });
});
