// The link service over in-memory ports (the index is the ledger's projection replayed in
// memory): consent scope is respected when the caller's organisation is known, and the mapping of
// a report's content to the linkage's record.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUlidFactory, type JsonValue } from '../../core/index.js';
import type { MissingLinkReviewsTable, MissingReportReadsTable, MissingReportsTable } from '../../db/index.js';
import { MemoryIndex, projectEntry } from '../../ledger/index.js';
import { linkRecordsFor } from '../linkage/index.js';
import { linkReports, openLinkReason, reviewLink, toLinkRecord, type LinkPorts } from './link.service.js';
import type { ReportKeyStore } from './ports.js';
import type { ReportContent } from './report-content.js';
import { parseReportsCsv } from './report-rows.js';
import { importReports } from './reports.service.js';

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

function memoryArchive() {
  const index = new MemoryIndex();
  let seq = 1;
  const keys = new MemoryKeys();
  const reportKeys = { kek: { id: 'test-kek', key: randomBytes(32) }, legacy: null };
  const rows = <T>(t: Parameters<MemoryIndex['table']>[0]): T[] => [...index.table(t).values()] as unknown as T[];
  return (viewerOrg: string | null): LinkPorts => ({
    actor: 'tester',
    newId: createUlidFactory(),
    reportKeys: () => Promise.resolve(reportKeys),
    viewerOrg,
    keys,
    listReports: () => Promise.resolve(rows<MissingReportsTable>('missing_reports')),
    ledgerDetails: () => Promise.resolve(null),
    getReport: (id) => Promise.resolve(index.table('missing_reports').get(id) as MissingReportsTable | undefined),
    listReads: () => Promise.resolve(rows<MissingReportReadsTable>('missing_report_reads')),
    listLinkReviews: () => Promise.resolve(rows<MissingLinkReviewsTable>('missing_link_reviews')),
    listUnits: () => Promise.resolve([]),
    commit(details: readonly { [k: string]: JsonValue }[]) {
      return Promise.resolve(
        details.map((d) => {
          const entry = { seq: seq++, time: '2026-01-01T00:00:00Z', actor: 'tester', type: 'cataloguing' as const, items: [], objects: [], details: d };
          index.apply(projectEntry(entry, '00'));
          return entry.seq;
        }),
      );
    },
  });
}

describe('the link service', () => {
  it('leaves out the reports outside the caller\'s consent scope (MISSING_REPORT_FORBIDDEN) and refuses to review them', async () => {
    const ports = memoryArchive();
    const csv = (rows: string): ReturnType<typeof parseReportsCsv> => parseReportsCsv(`name_ar,father_name,sex,birth,consent_orgs\n${rows}`);
    const a = csv('زيدون قطرميز,سليمون,male,1985,Org B\nبشموش طنبرجي,دعبول,male,1970,Org B\n');
    const [a1 = '', a2 = ''] = (await importReports(ports(null), a.rows, a.errors, { org: 'Org A' })).ids;
    const c = csv('زيدون قطرميز,سليمون,male,1985,\n');
    const [c1 = ''] = (await importReports(ports(null), c.rows, c.errors, { org: 'Org C' })).ids;
    // The key holder at the CLI (no organisation known) sees all three.
    expect((await linkReports(ports(null), {})).reports).toBe(3);
    const forB = await linkReports(ports('Org B'), {});
    expect(forB.reports).toBe(2);
    expect(forB.excluded).toEqual([{ id: c1, reason: 'MISSING_REPORT_FORBIDDEN' }]);
    expect(forB.pairs.every((p) => p.a !== c1 && p.b !== c1)).toBe(true);
    await expect(reviewLink(ports('Org B'), a1, c1, 'same', 'r')).rejects.toMatchObject({ code: 'MISSING_REPORT_FORBIDDEN' });
    await reviewLink(ports('Org B'), a1, a2, 'different', 'different fathers');
    await reviewLink(ports(null), a1, c1, 'same', 'same man');
    // Org B does not learn of the decision that joins a report it may not see.
    expect((await linkReports(ports('Org B'), {})).persons).toEqual([]);
    expect((await linkReports(ports(null), {})).persons).toEqual([[a1, c1].sort()]);
    await expect(linkReports(ports(null), { threshold: 1 })).rejects.toMatchObject({ code: 'MISSING_LINK_INVALID' });
    await expect(reviewLink(ports(null), a1, a2, 'same', ' ')).rejects.toMatchObject({ code: 'MISSING_LINK_INVALID' });
  });

  it('links through the link port when one is given (the app\'s: on worker threads for a large input), with the same result as on this thread', async () => {
    const ports = memoryArchive();
    const p = ports(null);
    const csv = parseReportsCsv('name_ar,father_name,sex,birth\nزيدون قطرميز,سليمون,male,1985\nزيدون قطرمز,سليمون,male,1985\nبشموش طنبرجي,دعبول,male,1970\n');
    await importReports(p, csv.rows, csv.errors, { org: 'Org A' });
    const seen: number[] = [];
    const viaPort: LinkPorts = { ...p, link: (records, options) => (seen.push(records.length), linkRecordsFor(records, options, { from: 1, threads: 2 })) };
    const onThread = await linkReports(p, {});
    expect(onThread.pairs.length).toBeGreaterThan(0);
    expect(await linkReports(viaPort, {})).toEqual(onThread);
    expect(seen).toEqual([3]);
  }, 60_000);

  it('seals the reason of a decision under both reports\' keys: not in the entry, opened for the caller, unreadable once either report\'s key is gone; an older clear reason still reads', async () => {
    const ports = memoryArchive();
    const p = ports(null);
    const written: { [k: string]: JsonValue }[] = [];
    const spy: LinkPorts = { ...p, commit: (d) => (written.push(...d), p.commit(d)) };
    const csv = parseReportsCsv('name_ar,father_name,sex,birth\nزيدون قطرميز,سليمون,male,1985\nزيدون قطرمز,سليمون,male,1985\nبشموش طنبرجي,دعبول,male,1970\n');
    const [r1 = '', r2 = '', r3 = ''] = (await importReports(p, csv.rows, csv.errors, { org: 'Org A' })).ids;
    await reviewLink(spy, r2, r1, 'same', 'the same father and village');
    const entry = written.at(-1) ?? {};
    expect(Object.keys(entry).sort()).toEqual(['action', 'decision', 'digest', 'reports', 'sealed']);
    expect(JSON.stringify(entry)).not.toContain('village');
    const [lo, hi] = [r1, r2].sort() as [string, string];
    const reasonOf = async (x: string, y: string) => (await linkReports(p, {})).pairs.find((q) => [q.a, q.b].sort().join() === [x, y].sort().join())?.review?.reason;
    expect(await reasonOf(r1, r2)).toBe('the same father and village');
    // Either key gone (an erasure destroys it): the reason cannot be opened by anyone.
    const sealedRow = (await p.listLinkReviews()).find((r) => r.report_a === lo && r.report_b === hi)!;
    expect([sealedRow.reason, sealedRow.sealed_json === null]).toEqual(['', false]);
    const rowOf = async (id: string) => (await p.getReport(id))!;
    const open = async (x: string, y: string) => openLinkReason(p, await rowOf(x), await rowOf(y), sealedRow.sealed_json!, sealedRow.digest!);
    const keys = p.keys as MemoryKeys;
    const saved = new Map(keys.files);
    for (const gone of [lo, hi]) {
      keys.files.delete(gone);
      await expect(open(lo, hi)).rejects.toMatchObject({ code: 'MISSING_REPORT_KEY_MISSING' });
      keys.files.set(gone, saved.get(gone)!);
    }
    expect(await reasonOf(r1, r2)).toBe('the same father and village');
    // A sealed reason moved onto another pair does not open (the additional data names the pair).
    await expect(open(lo, r3)).rejects.toMatchObject({ code: 'MISSING_REPORT_KEY_INVALID' });
    // An entry of the format written before the reasons were sealed: its clear reason still reads.
    await p.commit([{ action: 'missing.link-review', reports: [lo, hi], decision: 'same', reason: 'in clear, as before' }]);
    expect(await reasonOf(r1, r2)).toBe('in clear, as before');
  });

  it('maps a report to the linkage record: birth year, resolved unit id or the name as written, nothing empty', () => {
    const content = {
      name_ar: 'زيدون', name_latin: '', father_name: 'سليمون', grandfather_name: null, family_name: null, mother_name: null,
      sex: 'undetermined', birth: '1985-03-02', origin: 'حمص', event: 'arrest', event_date: '2013-05', event_place: null,
      unit: { as_reported: ' Branch 215 ', id: null }, am: {}, contact: null, reference: null, consent: { orgs: [], photographs: 'no', liaison: null },
    } as ReportContent;
    expect(toLinkRecord('r1', 'Org A', content)).toEqual({ id: 'r1', org: 'Org A', name_ar: 'زيدون', father: 'سليمون', birth_year: 1985, origin: 'حمص', arrest_date: '2013-05', unit: 'branch 215' });
    expect(toLinkRecord('r1', 'Org A', { ...content, unit: { as_reported: 'AFI', id: 'U1' }, sex: 'female' }).unit).toBe('U1');
  });
});
