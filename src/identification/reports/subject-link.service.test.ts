// Report↔subject review and consented viewing over in-memory ports (the index is the ledger's
// projection replayed in memory): the evidence-level rules, each refusal by its code, the viewing's
// consent and liaison checks, and the sealing of reasons and attendees under the report's key.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUlidFactory, hasCode, type JsonValue } from '../../core/index.js';
import type { MissingReportReadsTable, MissingReportsTable, MissingSubjectEventsTable, SubjectsTable } from '../../db/index.js';
import { MemoryIndex, projectEntry } from '../../ledger/index.js';
import type { ReportKeyStore, SubjectLinkPorts } from './ports.js';
import { parseReportsCsv } from './report-rows.js';
import { eraseReport, importReports } from './reports.service.js';
import { foldSubjectLinks } from './subject-link-state.js';
import { raiseLevel, reviewSubjectLink, subjectLinksOf } from './subject-link.service.js';
import { recordViewing, type ViewingRequest } from './viewing.service.js';

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

const SUBJECTS = new Map([
  ['S1', ['I1', 'I2']],
  ['S2', ['I3']],
]);

function memoryArchive() {
  const index = new MemoryIndex();
  const ledger: { [k: string]: JsonValue }[] = [];
  let seq = 1;
  const keys = new MemoryKeys();
  const reportKeys = { kek: { id: 'test-kek', key: randomBytes(32) }, legacy: null };
  const rows = <T>(t: Parameters<MemoryIndex['table']>[0]): T[] => [...index.table(t).values()] as unknown as T[];
  const ports = (viewerOrg: string | null, actorNames: string[] = ['Liaison Rima']): SubjectLinkPorts => ({
    actor: actorNames[0] ?? 'tester',
    actorNames,
    newId: createUlidFactory(),
    reportKeys: () => Promise.resolve(reportKeys),
    viewerOrg,
    keys,
    listReports: () => Promise.resolve(rows<MissingReportsTable>('missing_reports')),
    ledgerDetails: (s) => Promise.resolve(ledger[s - 1] ?? null),
    getReport: (id) => Promise.resolve(index.table('missing_reports').get(id) as MissingReportsTable | undefined),
    listReads: () => Promise.resolve(rows<MissingReportReadsTable>('missing_report_reads')),
    listUnits: () => Promise.resolve([]),
    getSubject: (id) => Promise.resolve(SUBJECTS.has(id) ? ({ id } as SubjectsTable) : undefined),
    subjectItems: (id) => Promise.resolve((SUBJECTS.get(id) ?? []).map((item_id) => ({ item_id, subject_id: id, seq: 0 }))),
    listSubjectEvents: (id) => Promise.resolve(rows<MissingSubjectEventsTable>('missing_subject_events').filter((e) => e.report_id === id)),
    commit(details: readonly { [k: string]: JsonValue }[]) {
      return Promise.resolve(
        details.map((d) => {
          const entry = { seq: seq++, time: '2026-01-01T00:00:00Z', actor: actorNames[0] ?? 'tester', type: 'cataloguing' as const, items: [], objects: [], details: d };
          ledger.push(d);
          index.apply(projectEntry(entry, '00'));
          return entry.seq;
        }),
      );
    },
  });
  return { ports, ledger, index };
}

async function withReports() {
  const m = memoryArchive();
  const csv = parseReportsCsv('name_ar,consent_orgs,consent_photographs,consent_liaison\nزيدون قطرميز,Org B,yes,Liaison Rima\nبشموش طنبرجي,,no,\n');
  const [consenting = '', refusing = ''] = (await importReports(m.ports(null), csv.rows, csv.errors, { org: 'Org A' })).ids;
  return { ...m, consenting, refusing };
}

const session = (outcome: 'recognised' | 'not-recognised' | 'unsure' = 'recognised'): ViewingRequest => ({
  attendees: [{ name: 'أم زيدون', relation: 'mother' }],
  photographs: [
    { item: 'I2', blurred_first: true, outcome: 'not-recognised' },
    { item: 'I1', blurred_first: true, outcome },
  ],
});

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
  return 'no error';
}

describe('report↔subject review', () => {
  it('accept makes a candidate, reject ends it; the reason is sealed, never in clear in the entry', async () => {
    const { ports, ledger, consenting } = await withReports();
    const r = await reviewSubjectLink(ports(null), consenting, 'S1', 'accept', 'scar on the left cheek matches');
    expect(r).toMatchObject({ decision: 'accept', level: 'candidate' });
    expect(JSON.stringify(ledger.at(-1))).not.toContain('left cheek');
    expect(Object.keys(ledger.at(-1) ?? {}).sort()).toEqual(['action', 'decision', 'digest', 'report', 'sealed', 'subject']);
    await reviewSubjectLink(ports(null), consenting, 'S2', 'reject', 'born ten years later');
    const view = await subjectLinksOf(ports(null), consenting);
    expect(view.links.map((l) => [l.subject, l.status, l.level])).toEqual([
      ['S1', 'accept', 'candidate'],
      ['S2', 'reject', null],
    ]);
    expect(view.links[0]?.events[0]?.note).toEqual({ reason: 'scar on the left cheek matches' });
  });

  it('refuses an unknown subject (MISSING_SUBJECT_NOT_FOUND), a missing reason (MISSING_SUBJECT_LINK_INVALID), a report outside the consent scope (MISSING_REPORT_FORBIDDEN)', async () => {
    const { ports, ledger, consenting, refusing } = await withReports();
    const n = ledger.length;
    expect(await code(reviewSubjectLink(ports(null), consenting, 'S9', 'accept', 'x'))).toBe('MISSING_SUBJECT_NOT_FOUND');
    expect(await code(reviewSubjectLink(ports(null), consenting, 'S1', 'accept', '  '))).toBe('MISSING_SUBJECT_LINK_INVALID');
    expect(await code(reviewSubjectLink(ports(null), consenting, 'S1', 'maybe' as never, 'x'))).toBe('MISSING_SUBJECT_LINK_INVALID');
    expect(await code(reviewSubjectLink(ports('Org C'), consenting, 'S1', 'accept', 'x'))).toBe('MISSING_REPORT_FORBIDDEN');
    expect(await code(reviewSubjectLink(ports('Org B'), refusing, 'S1', 'accept', 'x'))).toBe('MISSING_REPORT_FORBIDDEN');
    expect(ledger.length).toBe(n);
  });

  it('recognised needs an accepted link (MISSING_SUBJECT_LINK_NOT_ACCEPTED) and a viewing with a recognised photograph (MISSING_LEVEL_NEEDS_RECOGNITION)', async () => {
    const { ports, consenting } = await withReports();
    expect(await code(raiseLevel(ports(null), consenting, 'S1', { level: 'recognised', viewing: 1, reason: 'x' }))).toBe('MISSING_SUBJECT_LINK_NOT_ACCEPTED');
    await reviewSubjectLink(ports(null), consenting, 'S1', 'accept', 'ok');
    const unsure = await recordViewing(ports(null), consenting, 'S1', session('unsure'));
    expect(unsure.recognised).toBe(false);
    expect(await code(raiseLevel(ports(null), consenting, 'S1', { level: 'recognised', viewing: unsure.seq, reason: 'x' }))).toBe('MISSING_LEVEL_NEEDS_RECOGNITION');
    const seen = await recordViewing(ports(null), consenting, 'S1', session());
    // Another subject's viewing does not count for this one.
    await reviewSubjectLink(ports(null), consenting, 'S2', 'accept', 'ok');
    const other = await recordViewing(ports(null), consenting, 'S2', { ...session(), photographs: [{ item: 'I3', blurred_first: true, outcome: 'recognised' }] });
    expect(await code(raiseLevel(ports(null), consenting, 'S1', { level: 'recognised', viewing: other.seq, reason: 'x' }))).toBe('MISSING_LEVEL_NEEDS_RECOGNITION');
    expect(await raiseLevel(ports(null), consenting, 'S1', { level: 'recognised', viewing: seen.seq, reason: 'mother knew him' })).toMatchObject({ level: 'recognised' });
  });

  it('confirmed needs a recognition (MISSING_LEVEL_NEEDS_RECOGNITION) and a corroboration (MISSING_LEVEL_NEEDS_CORROBORATION); references are sealed', async () => {
    const { ports, ledger, consenting } = await withReports();
    await reviewSubjectLink(ports(null), consenting, 'S1', 'accept', 'ok');
    const dna = [{ kind: 'dna' as const, reference: 'lab sample 77-A' }];
    expect(await code(raiseLevel(ports(null), consenting, 'S1', { level: 'confirmed', references: dna, reason: 'x' }))).toBe('MISSING_LEVEL_NEEDS_RECOGNITION');
    const v = await recordViewing(ports(null), consenting, 'S1', session());
    await raiseLevel(ports(null), consenting, 'S1', { level: 'recognised', viewing: v.seq, reason: 'r' });
    expect(await code(raiseLevel(ports(null), consenting, 'S1', { level: 'confirmed', references: [], reason: 'x' }))).toBe('MISSING_LEVEL_NEEDS_CORROBORATION');
    expect(await code(raiseLevel(ports(null), consenting, 'S1', { level: 'confirmed', references: [{ kind: 'rumour' as never, reference: 'x' }], reason: 'x' }))).toBe('MISSING_SUBJECT_LINK_INVALID');
    await raiseLevel(ports(null), consenting, 'S1', { level: 'confirmed', references: dna, reason: 'DNA match' });
    expect(ledger.at(-1)).toMatchObject({ level: 'confirmed', corroboration: ['dna'] });
    expect(JSON.stringify(ledger)).not.toContain('77-A');
    const link = (await subjectLinksOf(ports(null), consenting)).links[0];
    expect(link?.level).toBe('confirmed');
    expect(link?.events.at(-1)?.note).toEqual({ reason: 'DNA match', references: dna });
  });

  it('a rejection ends the level; accepted again, the link starts at candidate and old viewings do not count', async () => {
    const { ports, consenting } = await withReports();
    await reviewSubjectLink(ports(null), consenting, 'S1', 'accept', 'ok');
    const v = await recordViewing(ports(null), consenting, 'S1', session());
    await raiseLevel(ports(null), consenting, 'S1', { level: 'recognised', viewing: v.seq, reason: 'r' });
    await reviewSubjectLink(ports(null), consenting, 'S1', 'reject', 'the number record names someone else');
    expect(await code(recordViewing(ports(null), consenting, 'S1', session()))).toBe('MISSING_SUBJECT_LINK_NOT_ACCEPTED');
    await reviewSubjectLink(ports(null), consenting, 'S1', 'accept', 'reopened');
    expect(await code(raiseLevel(ports(null), consenting, 'S1', { level: 'recognised', viewing: v.seq, reason: 'r' }))).toBe('MISSING_LEVEL_NEEDS_RECOGNITION');
    expect((await subjectLinksOf(ports(null), consenting)).links[0]?.level).toBe('candidate');
  });
});

describe('consented viewing', () => {
  it('records one entry per session: photographs in order with blurred-first and outcome in clear, attendees sealed', async () => {
    const { ports, ledger, consenting } = await withReports();
    await reviewSubjectLink(ports(null), consenting, 'S1', 'accept', 'ok');
    const v = await recordViewing(ports('Org B'), consenting, 'S1', { ...session(), notes: 'the aunt came too' });
    const entry = ledger.at(-1);
    expect(entry?.photographs).toEqual([
      { item: 'I2', blurred_first: true, outcome: 'not-recognised' },
      { item: 'I1', blurred_first: true, outcome: 'recognised' },
    ]);
    for (const s of ['أم زيدون', 'mother', 'aunt']) expect(JSON.stringify(entry)).not.toContain(s);
    const link = (await subjectLinksOf(ports(null), consenting)).links[0];
    expect(link?.viewings).toEqual([v.seq]);
    expect(link?.events.at(-1)?.note).toEqual({ attendees: [{ name: 'أم زيدون', relation: 'mother' }], notes: 'the aunt came too' });
  });

  it('refused without consent to show photographs (MISSING_VIEWING_NO_CONSENT)', async () => {
    const { ports, ledger, refusing } = await withReports();
    await reviewSubjectLink(ports(null), refusing, 'S1', 'accept', 'ok');
    const n = ledger.length;
    expect(await code(recordViewing(ports(null), refusing, 'S1', session()))).toBe('MISSING_VIEWING_NO_CONSENT');
    expect(ledger.length).toBe(n);
  });

  it('refused to anyone but the liaison the consent names (MISSING_VIEWING_WRONG_LIAISON)', async () => {
    const { ports, ledger, consenting } = await withReports();
    await reviewSubjectLink(ports(null), consenting, 'S1', 'accept', 'ok');
    const n = ledger.length;
    const e = await recordViewing(ports('Org A', ['acct-9', 'Liaison Samir']), consenting, 'S1', session()).catch((x: unknown) => x);
    expect(hasCode(e, 'MISSING_VIEWING_WRONG_LIAISON')).toBe(true);
    expect(String((e as Error).message)).not.toContain('Rima');
    expect(ledger.length).toBe(n);
    // The liaison's name compares as actor names do (case, spaces).
    await recordViewing(ports('Org A', ['acct-1', ' liaison rima']), consenting, 'S1', session());
  });

  it('refused over an unreviewed candidate (MISSING_SUBJECT_LINK_NOT_ACCEPTED), and for photographs not of the subject (MISSING_VIEWING_INVALID)', async () => {
    const { ports, ledger, consenting } = await withReports();
    expect(await code(recordViewing(ports(null), consenting, 'S1', session()))).toBe('MISSING_SUBJECT_LINK_NOT_ACCEPTED');
    await reviewSubjectLink(ports(null), consenting, 'S1', 'accept', 'ok');
    const n = ledger.length;
    expect(await code(recordViewing(ports(null), consenting, 'S1', { ...session(), photographs: [{ item: 'I3', blurred_first: true, outcome: 'unsure' }] }))).toBe('MISSING_VIEWING_INVALID');
    expect(await code(recordViewing(ports(null), consenting, 'S1', { ...session(), attendees: [] }))).toBe('MISSING_VIEWING_INVALID');
    expect(await code(recordViewing(ports(null), consenting, 'S1', { ...session(), photographs: [{ item: 'I1', blurred_first: true, outcome: 'maybe' as never }] }))).toBe('MISSING_VIEWING_INVALID');
    expect(ledger.length).toBe(n);
  });

  it('erasing the report erases the sealed notes with it: nothing opens them, the fold still reads the clear facts', async () => {
    const { ports, index, consenting } = await withReports();
    await reviewSubjectLink(ports(null), consenting, 'S1', 'accept', 'scar matches');
    await recordViewing(ports(null), consenting, 'S1', session());
    await eraseReport(ports(null), consenting, 'consent-withdrawn');
    expect(await code(subjectLinksOf(ports(null), consenting))).toBe('MISSING_REPORT_ERASED');
    expect(await code(reviewSubjectLink(ports(null), consenting, 'S1', 'reject', 'x'))).toBe('MISSING_REPORT_ERASED');
    const events = [...index.table('missing_subject_events').values()] as unknown as MissingSubjectEventsTable[];
    expect(foldSubjectLinks(events).get('S1')?.viewings).toHaveLength(1);
  });
});
