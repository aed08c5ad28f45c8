// Issue 15 over HTTP ("Nothing about a family or a report reaches a role outside its consent
// scope. Test this for every role and every command or route that can read a report"): the
// identification routes for every role, and for family liaisons of organisations inside and
// outside a report's consent; the contact only to the source custodian, each read a ledger entry
// written first; no family data in a refusal. On SQLite and PostgreSQL.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { ROLES } from '../../../src/accounts/index.js';
import { changeRole, disableAccount } from '../../../src/accounts/accounts.service.js';
import { accountsPorts, missingPorts } from '../../../src/app.js';
import { parseReportsCsv } from '../../../src/identification/reports/report-rows.js';
import { eraseReport, importReports } from '../../../src/identification/reports/reports.service.js';
import { bagFiles } from '../../../src/reports/export/bag-files.adapter.js';
import { custodyInExpect } from '../../support/archive-fixtures.js';
import { describeDatabases } from '../../support/postgres.js';
import { servedArchive, signIn, type Client, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

// Synthetic people: no real names.
const NAME_AR = 'زيدون قطرميز';
const PHONE = '+963-555-0199-731';
const HEADER =
  'name_ar,name_latin,sex,birth,event,event_date,unit,contact_name,contact_relation,contact_phone,consent_orgs,consent_photographs,consent_liaison';
// Reported by Org A, consenting to Org B; the second, by Org A, consents to no one.
const ROW1 = `${NAME_AR},Zaydoun Qatramiz,male,1985,arrest,2013-05-21,AFI,أم زيدون,mother,${PHONE},Org B,yes,Liaison Rima`;
const ROW2 = `بشموش طنبرجي,Bashmoush Tanbarji,male,1990,last_seen,2014,,,,,,no,`;

const ANY_SUBJECT = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

interface Summary {
  id: string;
  org: string;
  name_ar: string | null;
}

describeDatabases('server: identification routes and consent', (db) => {
  let s: ServedArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let shared: string; // ROW1: Org A, consent to Org B
  let own: string; // ROW2: Org A only
  const clients = new Map<string, Client>();
  // A gate on the identification export's bag (tests only): closed, the job waits there, after
  // its release and checkpoint and before its dissemination entry, i.e. mid-run.
  let gate: { reached: () => void; open: Promise<void> } | null = null;
  // A gate before an identification export job's work (tests only: ServerOptions.jobGate): closed,
  // the job has answered 202 and waits there, before it re-checks anything.
  let jobGate: { reached: () => void; open: Promise<void> } | null = null;

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(
      `server-missing-${db.kind}`,
      [
        ['Liaison A', 'family liaison', 'Org A'],
        ['Liaison B', 'family liaison', 'Org B'],
        ['Liaison B Leaving', 'family liaison', 'Org B'],
        ['Liaison B Moving', 'family liaison', 'Org B'],
        ['Liaison D', 'family liaison', 'Org D'],
        ['Liaison Nobody', 'family liaison'],
        ['Custodian A', 'source custodian', 'Org A'],
        ['Custodian D', 'source custodian', 'Org D'],
        // one account of every other role, all in Org A (the reporting organisation)
        ...ROLES.filter((r) => r !== 'family liaison' && r !== 'source custodian').map(
          (r) => [`Role ${r}`, r, 'Org A'] as const,
        ),
      ],
      {
        dbUrl: made.url,
        server: {
          jobGate: async (job) => {
            const g = jobGate;
            if (g === null || job.kind !== 'identification export') return;
            g.reached();
            await g.open;
          },
          bagFiles: (dir) => {
            const real = bagFiles(dir);
            return {
              ...real,
              async create(out) {
                const g = gate;
                if (g !== null) {
                  g.reached();
                  await g.open;
                }
                return real.create(out);
              },
            };
          },
        },
        before: async (a) => {
          const csv = join(await makeTempDir('server-missing-src'), 'reports.csv');
          await writeFile(csv, `${HEADER}\n${ROW1}\n${ROW2}\n`, 'utf8');
          await custodyInExpect(0, ['missing', 'import', csv, '--org', 'Org A', '--archive', a.dir], a.env);
        },
      },
    );
    for (const name of s.accounts.keys()) clients.set(name, await signIn(s.server, name));
    const list = (await clients.get('Liaison A')!.request('GET', '/api/missing')).json<{ reports: Summary[] }>();
    shared = list.reports.find((r) => r.name_ar === NAME_AR)!.id;
    own = list.reports.find((r) => r.id !== shared)!.id;
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    await cleanup();
  });

  const get = (who: string, url: string) => clients.get(who)!.request('GET', url);

  interface ExportJob {
    id: string;
    state: string;
    error_code: string | null;
    result: { seq: number; redacted: boolean; tree_size: number } | null;
  }
  /** Starts an identification export as `who` and waits for its job to end; the job, as the poll route answers. */
  const exportJob = async (who: string, report: string): Promise<ExportJob> => {
    const r = await clients.get(who)!.request('POST', `/api/missing/${report}/export`, {});
    expect(r.statusCode, r.body).toBe(202);
    const started = r.json<ExportJob>();
    await s.server.custody.exportsArea.settled();
    const polled = await get(who, `/api/missing/${report}/export/jobs/${started.id}`);
    expect(polled.statusCode, polled.body).toBe(200);
    return polled.json<ExportJob>();
  };

  it('the reporting organisation sees both reports with the names; an organisation named by the consent sees only that one', async () => {
    const a = (await get('Liaison A', '/api/missing')).json<{ reports: Summary[] }>().reports;
    expect(a.map((r) => r.id).sort()).toEqual([shared, own].sort());
    const b = (await get('Liaison B', '/api/missing')).json<{ reports: Summary[] }>().reports;
    expect(b.map((r) => [r.id, r.name_ar])).toEqual([[shared, NAME_AR]]);
    const shown = await get('Liaison B', `/api/missing/${shared}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json<{ content: { contact: unknown } }>().content.contact).toBe('sealed');
    expect(shown.body).not.toContain(PHONE);
    const candidates = await get('Liaison B', `/api/missing/${shared}/candidates`);
    expect(candidates.statusCode).toBe(200);
    expect(candidates.json<{ notice: string }>().notice).toMatch(/not an identification/);
  });

  it('an organisation outside the consent scope learns nothing: no list entry, and 403 with no family data on every report route', async () => {
    const d = (await get('Liaison D', '/api/missing')).json<{ reports: Summary[] }>().reports;
    expect(d).toEqual([]);
    for (const url of [`/api/missing/${shared}`, `/api/missing/${own}`, `/api/missing/${shared}/candidates`]) {
      const r = await get('Liaison D', url);
      expect(r.statusCode, url).toBe(403);
      expect(r.json<{ code: string }>().code).toBe('MISSING_REPORT_FORBIDDEN');
      expect(r.body).not.toContain(NAME_AR);
      expect(r.body).not.toContain('Zaydoun');
    }
    const b = await get('Liaison B', `/api/missing/${own}`);
    expect(b.statusCode).toBe(403);
    expect(b.body).not.toContain('Bashmoush');
  });

  it('a liaison whose account has no organisation sees no report at all (not every report)', async () => {
    for (const url of ['/api/missing', `/api/missing/${shared}`]) {
      const r = await get('Liaison Nobody', url);
      expect(r.statusCode, url).toBe(403);
      expect(r.json<{ code: string; details: { reason: string } }>()).toMatchObject({
        code: 'MISSING_REPORT_FORBIDDEN',
        details: { reason: 'no-organisation' },
      });
    }
  });

  it('every other role, even of the reporting organisation, is refused every report route, with nothing of a family in the body', async () => {
    for (const name of [...s.accounts.keys()].filter((n) => n.startsWith('Role '))) {
      for (const [method, url, body] of [
        ['GET', '/api/missing', undefined],
        ['GET', `/api/missing/${shared}`, undefined],
        ['GET', `/api/missing/${shared}/candidates`, undefined],
        ['POST', `/api/missing/${shared}/contact`, { reason: 'curious' }],
        // Issue 15, "Review" and "Consented viewing" (identification-review.test.ts has their consent checks).
        ['GET', `/api/missing/${shared}/subjects`, undefined],
        ['POST', `/api/missing/${shared}/subjects/${ANY_SUBJECT}/review`, { decision: 'accept', reason: 'r' }],
        ['POST', `/api/missing/${shared}/subjects/${ANY_SUBJECT}/level`, { level: 'recognised', viewing: 1, reason: 'r' }],
        ['POST', `/api/missing/${shared}/subjects/${ANY_SUBJECT}/viewings`, { attendees: [{ name: 'x' }], photographs: [{ item: ANY_SUBJECT, blurred_first: true, outcome: 'unsure' }] }],
        // Issue 15, "Export".
        ['POST', `/api/missing/${shared}/export`, {}],
        ['GET', `/api/missing/${shared}/export/${ANY_SUBJECT}`, undefined],
      ] as const) {
        const r = await clients.get(name)!.request(method, url, body);
        expect(r.statusCode, `${name} ${method} ${url}`).toBe(403);
        expect(r.body).not.toContain(NAME_AR);
        expect(r.body).not.toContain(PHONE);
      }
    }
  });

  it('the contact goes only to the source custodian within the consent scope, each read recorded in the ledger first, with the reason', async () => {
    // A family liaison may not read the contact.
    const liaison = await clients.get('Liaison A')!.request('POST', `/api/missing/${shared}/contact`, { reason: 'call the family' });
    expect(liaison.statusCode).toBe(403);
    // A custodian outside the scope is refused, and nothing is recorded.
    const before = s.open.ledger.size;
    const outside = await clients.get('Custodian D')!.request('POST', `/api/missing/${shared}/contact`, { reason: 'call the family' });
    expect(outside.statusCode).toBe(403);
    expect(outside.json<{ code: string }>().code).toBe('MISSING_REPORT_FORBIDDEN');
    expect(outside.body).not.toContain(PHONE);
    expect(s.open.ledger.size).toBe(before);
    // Without a reason: refused before anything is read.
    const noReason = await clients.get('Custodian A')!.request('POST', `/api/missing/${shared}/contact`, {});
    expect(noReason.statusCode).toBe(400);
    // The custodian of the reporting organisation reads it, and the read is in the ledger.
    const r = await clients.get('Custodian A')!.request('POST', `/api/missing/${shared}/contact`, { reason: 'arrange the family visit' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.body).toContain(PHONE);
    const seq = r.json<{ contact_read_seq: number }>().contact_read_seq;
    const [e] = await s.open.ledger.read(seq, seq + 1);
    expect(e!.entry.actor).toBe(s.accounts.get('Custodian A'));
    expect(e!.entry.details).toMatchObject({ action: 'missing.read', report: shared, sealed: { alg: 'AES-256-GCM' } });
    // The ledger holds the report id and the reason sealed under the report's key, never the contact nor the reason in clear.
    expect(JSON.stringify(e!.entry)).not.toContain(PHONE);
    expect(JSON.stringify(e!.entry)).not.toContain('arrange the family visit');
    // Opened for those within the consent scope: the liaison of a named organisation sees it; outside it, nothing.
    const reads = r.json<{ contact_reads: { seq: number; reason: string | null }[] }>().contact_reads;
    expect(reads).toContainEqual(expect.objectContaining({ seq, reason: 'arrange the family visit' }));
    const forB = await get('Liaison B', `/api/missing/${shared}`);
    expect(forB.json<{ contact_reads: { seq: number; reason: string | null; sealed: boolean }[] }>().contact_reads).toContainEqual({ seq, actor: s.accounts.get('Custodian A'), time: expect.any(String) as unknown, reason: 'arrange the family visit', sealed: true });
    const forD = await get('Liaison D', `/api/missing/${shared}`);
    expect(forD.statusCode).toBe(403);
    expect(forD.body).not.toContain('arrange the family visit');
    // The custodian has no list or candidates route (that is the liaison's work).
    expect((await get('Custodian A', '/api/missing')).statusCode).toBe(403);
  });

  it('export: a liaison within the consent scope gets the identification file as a bag verify-export accepts, recorded as a dissemination entry naming the account, without the contact', async () => {
    const job = await exportJob('Liaison B', shared);
    expect(job.state, JSON.stringify(job)).toBe('done');
    // The bag is named by the job's id.
    const done = { ...job.result!, id: job.id };
    expect(done.redacted).toBe(true);
    // The job is polled within the consent scope only, and through its own report only.
    expect((await get('Liaison D', `/api/missing/${shared}/export/jobs/${job.id}`)).statusCode).toBe(403);
    expect((await get('Liaison A', `/api/missing/${own}/export/jobs/${job.id}`)).statusCode).toBe(404);
    const [e] = await s.open.ledger.read(done.seq, done.seq + 1);
    expect(e!.entry).toMatchObject({ type: 'dissemination', actor: s.accounts.get('Liaison B'), details: { action: 'missing.export', report: shared, contacts: 'redacted' } });
    const bag = s.server.custody.exportsArea.bagFile(done.id);
    const v = await custodyInExpect(0, ['verify-export', bag, '--receipt', s.server.custody.exportsArea.receiptFile(done.id), '--json']);
    expect(JSON.parse(v.stdout)).toMatchObject({ valid: true });
    // A stored (uncompressed) ZIP: the report's name is in it, the contact's phone is not.
    const bytes = (await readFile(bag)).toString('utf8');
    expect(bytes).toContain(NAME_AR);
    expect(bytes).not.toContain(PHONE);

    // The liaison downloads it (no export.create needed), and the download is a ledger entry naming them.
    const dl = await clients.get('Liaison B')!.request('GET', `/api/missing/${shared}/export/${done.id}`);
    expect(dl.statusCode, dl.body).toBe(200);
    expect(dl.headers['content-type']).toBe('application/zip');
    expect(String(dl.headers['content-disposition'])).toMatch(/^attachment/);
    expect(Buffer.compare(dl.rawPayload, await readFile(bag))).toBe(0);
    const [last] = await s.open.ledger.read(s.open.ledger.size - 1, s.open.ledger.size);
    expect(last!.entry).toMatchObject({
      type: 'dissemination',
      actor: s.accounts.get('Liaison B'),
      details: { action: 'missing.export.download', job: done.id, export_seq: done.seq, report: shared },
    });

    // Outside the consent scope: refused, and nothing recorded, even knowing the bag's id.
    const before = s.open.ledger.size;
    const outside = await clients.get('Liaison D')!.request('GET', `/api/missing/${shared}/export/${done.id}`);
    expect([outside.statusCode, outside.json<{ code: string }>().code]).toEqual([403, 'MISSING_REPORT_FORBIDDEN']);
    // Through another report the caller may see, the bag is not that report's: not found, nothing recorded.
    const other = await clients.get('Liaison A')!.request('GET', `/api/missing/${own}/export/${done.id}`);
    expect([other.statusCode, other.json<{ code: string }>().code]).toEqual([404, 'HTTP_NOT_FOUND']);
    expect(s.open.ledger.size).toBe(before);
  });

  it('export: refused outside the consent scope (MISSING_REPORT_FORBIDDEN), with no family data in the body and nothing recorded', async () => {
    const before = s.open.ledger.size;
    for (const [who, report] of [['Liaison D', shared], ['Liaison B', own], ['Liaison Nobody', shared]] as const) {
      const r = await clients.get(who)!.request('POST', `/api/missing/${report}/export`, {});
      expect([r.statusCode, r.json<{ code: string }>().code], `${who} ${report}`).toEqual([403, 'MISSING_REPORT_FORBIDDEN']);
      expect(r.body).not.toContain(NAME_AR);
    }
    expect(s.open.ledger.size).toBe(before);
  });

  it('export runs as a job that holds the writer only for its own entries: while it runs another write succeeds, a second export is refused (HTTP_JOB_RUNNING), and its bag still verifies', async () => {
    let reached!: () => void;
    const atGate = new Promise<void>((r) => (reached = r));
    let open!: () => void;
    gate = { reached, open: new Promise<void>((r) => (open = r)) };
    try {
      const r = await clients.get('Liaison B')!.request('POST', `/api/missing/${shared}/export`, {});
      expect(r.statusCode, r.body).toBe(202);
      const job = r.json<ExportJob>();
      expect(job.state).toBe('running');
      await atGate;
      // Mid-run: a ledger-writing route answers (it would wait for the job if the job held the writer).
      const read = await clients.get('Custodian A')!.request('POST', `/api/missing/${shared}/contact`, { reason: 'while the export runs' });
      expect(read.statusCode, read.body).toBe(200);
      const readSeq = read.json<{ contact_read_seq: number }>().contact_read_seq;
      expect((await get('Liaison B', `/api/missing/${shared}/export/jobs/${job.id}`)).json<ExportJob>().state).toBe('running');
      const second = await clients.get('Liaison A')!.request('POST', `/api/missing/${shared}/export`, {});
      expect([second.statusCode, second.json<{ code: string }>().code]).toEqual([409, 'HTTP_JOB_RUNNING']);
      open();
      await s.server.custody.exportsArea.settled();
      const done = (await get('Liaison B', `/api/missing/${shared}/export/jobs/${job.id}`)).json<ExportJob>();
      expect(done.state, JSON.stringify(done)).toBe('done');
      // The write made mid-run is after the bag's checkpoint, and before the export's dissemination entry.
      expect(readSeq).toBeGreaterThanOrEqual(done.result!.tree_size);
      expect(done.result!.seq).toBeGreaterThan(readSeq);
      const v = await custodyInExpect(0, ['verify-export', s.server.custody.exportsArea.bagFile(job.id), '--receipt', s.server.custody.exportsArea.receiptFile(job.id), '--json']);
      expect(JSON.parse(v.stdout)).toMatchObject({ valid: true });
    } finally {
      gate = null;
      open?.();
    }
  });

  /** Holds the next identification export job before it runs. */
  const holdNextJob = (): { atGate: Promise<void>; release: () => void } => {
    let reached!: () => void;
    const atGate = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    jobGate = { reached, open: new Promise<void>((r) => (release = r)) };
    return { atGate, release };
  };
  /** What the ledger gained from `from` on: the actions of the entries. */
  const actionsSince = async (from: number): Promise<unknown[]> =>
    (await s.open.ledger.read(from, s.open.ledger.size)).map((e) => e.entry.details?.action);

  /**
   * Starts `who`'s export of `report`, holds the job after its 202, makes `change` (which appends
   * `action`), releases it: the job fails with `code` and leaves no bag, no receipt, and nothing in
   * the ledger but the change.
   */
  const refusedAtRun = async (
    who: string,
    report: string,
    change: () => Promise<unknown>,
    action: string,
    code: string,
  ): Promise<void> => {
    const held = holdNextJob();
    try {
      const r = await clients.get(who)!.request('POST', `/api/missing/${report}/export`, {});
      expect(r.statusCode, r.body).toBe(202);
      const job = r.json<ExportJob>();
      await held.atGate;
      const before = s.open.ledger.size;
      await change();
      expect(await actionsSince(before)).toEqual([action]);
      held.release();
      await s.server.custody.exportsArea.settled();
      // As the server keeps the job (the poll route itself refuses an erased report):
      const done = s.server.custody.exportsArea.identificationJob(job.id, report)!;
      expect([done.state, done.error_code], JSON.stringify(done)).toEqual(['failed', code]);
      expect(done.result).toBeNull();
      expect(await actionsSince(before)).toEqual([action]);
      expect(existsSync(s.server.custody.exportsArea.bagFile(job.id))).toBe(false);
      expect(existsSync(s.server.custody.exportsArea.receiptFile(job.id))).toBe(false);
      expect(JSON.stringify(done)).not.toContain(NAME_AR);
    } finally {
      jobGate = null;
    }
  };

  it('export job re-check: the account disabled between the 202 and the run -> the job fails MISSING_REPORT_FORBIDDEN, writes no bag, no release, no dissemination', async () => {
    await refusedAtRun(
      'Liaison B Leaving',
      shared,
      () => disableAccount(accountsPorts(s.open), 'Liaison B Leaving', 'left the organisation'),
      'account.disable',
      'MISSING_REPORT_FORBIDDEN',
    );
  });

  it('export job re-check: the account given another role between the 202 and the run (analyst: no report access) -> the job fails MISSING_REPORT_FORBIDDEN, writes no bag, no release, no dissemination', async () => {
    await refusedAtRun(
      'Liaison B Moving',
      shared,
      () => changeRole(accountsPorts(s.open), 'Liaison B Moving', 'analyst', 'moved to the analysis team'),
      'account.role',
      'MISSING_REPORT_FORBIDDEN',
    );
  });

  it('export job re-check: consent withdrawn between the 202 and the run (the report erased, consent-withdrawn) -> the job fails MISSING_REPORT_ERASED, writes no bag, no release, no dissemination', async () => {
    const { rows, errors } = parseReportsCsv(`${HEADER}\n${ROW1}\n`);
    const [report = ''] = (await importReports(missingPorts(s.open), rows, errors, { org: 'Org A' })).ids;
    await refusedAtRun(
      'Liaison B',
      report,
      () => eraseReport(missingPorts(s.open), report, 'consent-withdrawn'),
      'missing.erase',
      'MISSING_REPORT_ERASED',
    );
  });
});
