// Issue 12, routes "export" and "the report": an export or a report runs as a server job while the
// server keeps serving, is written to the server's exports area under the job's id (never a path
// the client names), and is recorded in the ledger naming the account, as is every download. The
// downloaded ZIP is a bag `custody verify-export` accepts.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_CHROMIUM, findChromium } from '../../../src/reports/report/index.js';
import { adjudicateCase, assignExaminers, caseForm, closePlan } from '../../../src/examination/blind/examination.service.js';
import { drawPlan } from '../../../src/examination/sampling/plan.service.js';
import { archiveFor } from '../../../src/http/request-context.js';
import { custodyIn, expectClean, type TestArchive } from '../../support/archive-fixtures.js';
import { describeDatabases } from '../../support/postgres.js';
import { servedArchive, signIn, type ServedArchive } from '../../support/server.js';
import { makeTempDir } from '../../support/tmp.js';

interface Job<R> {
  id: string;
  state: 'running' | 'done' | 'failed';
  started_by: string;
  stage: string | null;
  result: R | null;
  error: string | null;
  error_code: string | null;
}
type ExportJob = Job<{ seq: number; tree_size: number; items: number; redacted: boolean; tagmanifest_sha256: string }>;
type ReportJob = Job<{ template: string; format: string; verified: boolean; tree_size: number }>;

describeDatabases('server: exports and reports (issue 12)', (db) => {
  let s: ServedArchive;
  let archive: TestArchive;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  const ids = new Map<string, string>();

  const cli = async (who: string, args: string[]) => {
    const r = await custodyIn([...args, '--archive', archive.dir, '--actor', ids.get(who) ?? who], archive.env);
    expect(r.code, `custody ${args.join(' ')}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };

  beforeAll(async () => {
    const made = await db.makeUrl();
    cleanup = made.cleanup;
    s = await servedArchive(
      `exports-http-${db.kind}`,
      [
        ['Investigator Ina', 'investigator'],
        ['Lawyer Lee', 'lawyer'],
        ['ex-a', 'examiner'],
        ['ex-b', 'examiner'],
        ['Auditor Abe', 'auditor'],
      ],
      {
        dbUrl: made.url,
        before: async (a) => {
          archive = a;
          const list = JSON.parse((await custodyIn(['user', 'list', '--json', '--archive', a.dir], a.env)).stdout) as { id: string; name: string }[];
          for (const x of list) ids.set(x.name, x.id);
          const photos = join(a.dir, '..', 'photos');
          await mkdir(photos);
          for (let i = 0; i < 3; i++)
            await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 70 * i, g: 80, b: 200 - 50 * i } } })
              .png()
              .toFile(join(photos, `p${i}.png`));
          await cli('Investigator Ina', ['ingest', photos, '--source', 'KITE', '--new-source']);
          const items = (JSON.parse(await cli('Investigator Ina', ['items', '--json'])) as { id: string }[]).map((x) => x.id);
          for (const item of items)
            await cli('Investigator Ina', ['subject', 'add', '--sex', 'male', '--age-band', '30-39', '--item', item, '--reason', 'catalogue card', '--json']);
          await cli('Investigator Ina', ['sample', 'draw', '--name', 'plan', '--over', 'subjects', '--method', 'simple', '--size', '2', '--json']);
          await cli('Investigator Ina', ['examine', 'assign', 'plan', '--examiners', 'ex-a,ex-b']);
        },
      },
    );
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    await cleanup();
  });

  const exportsDir = () => `${archive.dir}.exports`;
  const files = async () => (await readdir(exportsDir()).catch(() => [] as string[])).sort();

  /** Holds the server's write queue until the returned function is called. */
  function holdWrites(): () => void {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    void s.server.custody.serialWrite(() => gate);
    return release;
  }

  it('an investigator starts an export: it runs as a job with progress while the server keeps serving, is recorded as a dissemination entry naming the account, redacted by default, and the downloaded ZIP verifies with custody verify-export', async () => {
    const ina = await signIn(s.server, 'Investigator Ina');
    const lee = await signIn(s.server, 'Lawyer Lee');
    const release = holdWrites();
    const started = await ina.request('POST', '/api/exports', { selection: 'all' });
    expect(started.statusCode, started.body).toBe(202);
    const job = started.json<ExportJob>();
    expect(job.state).toBe('running');
    // Progress while it waits for the writer; the server answers other requests meanwhile.
    const polled = (await ina.request('GET', `/api/exports/jobs/${job.id}`)).json<ExportJob>();
    expect(polled.state).toBe('running');
    expect(polled.stage).not.toBeNull();
    expect((await lee.request('GET', '/api/status')).statusCode).toBe(200);
    // One export at a time, with a stable code.
    const second = await lee.request('POST', '/api/exports', { selection: 'all' });
    expect([second.statusCode, second.json<{ code: string }>().code]).toEqual([409, 'HTTP_JOB_RUNNING']);
    // Not downloadable before it has finished.
    const early = await lee.request('GET', `/api/exports/${job.id}/download`);
    expect([early.statusCode, early.json<{ code: string }>().code]).toEqual([409, 'HTTP_JOB_NOT_READY']);
    release();
    await s.server.custody.exportsArea.settled();

    const done = (await ina.request('GET', `/api/exports/jobs/${job.id}`)).json<ExportJob>();
    expect(done.error).toBeNull();
    expect(done.state).toBe('done');
    expect(done.result).toMatchObject({ items: 3, redacted: true });
    const [entry] = await s.open.ledger.read(done.result!.seq, done.result!.seq + 1);
    expect(entry!.entry.type).toBe('dissemination');
    expect(entry!.entry.actor).toBe(ids.get('Investigator Ina'));
    expect(entry!.entry.details).toMatchObject({ selection: 'all', redacted: true, tagmanifest_sha256: done.result!.tagmanifest_sha256 });
    expect(await files()).toEqual([`${job.id}.receipt.json`, `${job.id}.zip`]);

    const listing = (await lee.request('GET', '/api/exports')).json<{ exports: { id: string; actor: string; seq: number }[] }>();
    expect(listing.exports).toContainEqual(expect.objectContaining({ id: job.id, actor: ids.get('Investigator Ina'), seq: done.result!.seq }));

    const before = s.open.ledger.size;
    const dl = await lee.request('GET', `/api/exports/${job.id}/download`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/zip');
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="custody-export-/);
    expect(dl.headers['x-content-type-options']).toBe('nosniff');
    // The download is a ledger entry naming the lawyer.
    await s.open.writerIdle();
    const after = await s.open.ledger.read(before, s.open.ledger.size);
    expect(after.map((e) => [e.entry.actor, e.entry.details.action, e.entry.details.job])).toContainEqual([
      ids.get('Lawyer Lee'),
      'export.download',
      job.id,
    ]);
    const receipt = await lee.request('GET', `/api/exports/${job.id}/receipt`);
    expect(receipt.statusCode).toBe(200);
    const dir = await makeTempDir('exports-http-dl');
    await writeFile(join(dir, 'bag.zip'), dl.rawPayload);
    await writeFile(join(dir, 'bag.receipt.json'), receipt.rawPayload);
    await writeFile(join(dir, 'key.txt'), `${s.open.verifierKey}\n`);
    const v = await custodyIn(['verify-export', join(dir, 'bag.zip'), '--key', join(dir, 'key.txt'), '--receipt', join(dir, 'bag.receipt.json'), '--json']);
    expect(v.code, v.stdout + v.stderr).toBe(0);
  }, 120_000);

  it('path traversal is refused: no client-chosen output path, no id that is not a job id; nothing is written', async () => {
    const ina = await signIn(s.server, 'Investigator Ina');
    const size = s.open.ledger.size;
    const had = await files();
    for (const body of [
      { selection: 'all', out: '../../outside' },
      { selection: 'all', dir: '/tmp' },
    ]) {
      const r = await ina.request('POST', '/api/exports', body);
      expect([r.statusCode, r.json<{ code: string }>().code], JSON.stringify(body)).toEqual([400, 'HTTP_BAD_REQUEST']);
    }
    for (const id of ['..%2F..%2Fcustody.json', '..', '.%2E%2Fledger', 'AAAAAAAAAAAAAAAAAAAAAAAAA%2F']) {
      for (const url of [`/api/exports/${id}/download`, `/api/exports/${id}/receipt`, `/api/reports/${id}/download`]) {
        const r = await ina.request('GET', url);
        expect(r.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(r.statusCode, url).toBeLessThan(500);
        expect(['HTTP_BAD_REQUEST', 'HTTP_NOT_FOUND'], url).toContain(r.json<{ code: string }>().code);
      }
    }
    await s.open.writerIdle();
    expect(s.open.ledger.size).toBe(size);
    expect(await files()).toEqual(had);
  });

  it('a role without export.create or report.create is refused (403), and nothing is written', async () => {
    // Signed in first: a sign-in is a ledger entry of its own.
    const clients = [await signIn(s.server, 'Auditor Abe'), await signIn(s.server, 'ex-a')];
    await s.open.writerIdle();
    const size = s.open.ledger.size;
    const had = await files();
    for (const [name, c] of [['Auditor Abe', clients[0]!], ['ex-a', clients[1]!]] as const) {
      for (const [url, body] of [
        ['/api/exports', { selection: 'all' }],
        ['/api/reports', { template: 'tribunal' }],
      ] as const) {
        const r = await c.request('POST', url, body);
        expect([r.statusCode, r.json<{ code: string }>().code], `${name} ${url}`).toEqual([403, 'HTTP_FORBIDDEN']);
      }
    }
    await s.open.writerIdle();
    expect(s.open.ledger.size).toBe(size);
    expect(await files()).toEqual(had);
  });

  it('an examiner blinded on a plan is refused an export or a report, at the route and at the service, before any job starts', async () => {
    const eve = await signIn(s.server, 'ex-a');
    const r = await eve.request('GET', '/api/exports');
    expect([r.statusCode, r.json<{ code: string }>().code]).toEqual([403, 'HTTP_FORBIDDEN']);
    const area = s.server.custody.exportsArea;
    const jobs = area.exports.list().length + area.reports.list().length;
    const ctx = { actor: ids.get('ex-a')!, role: 'examiner' as const, clock: () => new Date(), newId: s.open.newId };
    await expect(area.startExport(ctx, { selection: 'all', redact: true, blurImages: false })).rejects.toMatchObject({ code: 'BLIND_REFUSED' });
    await expect(area.startReport(ctx, 'tribunal', 'html')).rejects.toMatchObject({ code: 'BLIND_REFUSED' });
    expect(area.exports.list().length + area.reports.list().length).toBe(jobs);
  });

  it('a lawyer generates the tribunal report as a job and downloads it as an attachment, recorded in the ledger', async () => {
    const lee = await signIn(s.server, 'Lawyer Lee');
    const started = await lee.request('POST', '/api/reports', { template: 'tribunal' });
    expect(started.statusCode, started.body).toBe(202);
    const job = started.json<ReportJob>();
    await s.server.custody.exportsArea.settled();
    const done = (await lee.request('GET', `/api/reports/jobs/${job.id}`)).json<ReportJob>();
    expect(done.error).toBeNull();
    expect(done.result).toMatchObject({ template: 'tribunal', format: 'html', verified: true });
    const before = s.open.ledger.size;
    const dl = await lee.request('GET', `/api/reports/${job.id}/download`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toMatch(/^attachment; /);
    expect(dl.headers['content-security-policy']).toContain('sandbox');
    expect(dl.body).toContain('<html');
    await s.open.writerIdle();
    const after = await s.open.ledger.read(before, s.open.ledger.size);
    expect(after.map((e) => [e.entry.actor, e.entry.details.action, e.entry.details.job])).toContainEqual([
      ids.get('Lawyer Lee'),
      'report.download',
      job.id,
    ]);
  }, 120_000);

  it('the sampling and examination services refuse a role without the permission when called directly as a request calls them (its archive, archiveFor, and its context), and write nothing', async () => {
    await s.open.writerIdle();
    const size = s.open.ledger.size;
    const as = (name: string, role: 'lawyer' | 'examiner' | 'investigator') => {
      const ctx = { actor: ids.get(name)!, role, clock: () => new Date(), newId: s.open.newId };
      return { archive: archiveFor(s.open, ctx), ctx };
    };
    const lawyer = as('Lawyer Lee', 'lawyer');
    const ina = as('Investigator Ina', 'investigator');
    const exA = as('ex-a', 'examiner');
    const refusals: [string, () => Promise<unknown>][] = [
      ['drawPlan', () => drawPlan(lawyer.archive, lawyer.ctx, { name: 'plan-2', over: 'subjects', method: 'simple', size: 1 } as never)],
      ['closePlan', () => closePlan(lawyer.archive, lawyer.ctx, 'plan')],
      ['assignExaminers', () => assignExaminers(lawyer.archive, lawyer.ctx, 'plan', ['ex-a', 'ex-b'])],
      ['caseForm', () => caseForm(ina.archive, ina.ctx, 'plan', 'k-000000000000', ids.get('Investigator Ina')!)],
      ['adjudicateCase', () => adjudicateCase(exA.archive, exA.ctx, 'plan', 'k-000000000000', [], ids.get('ex-a')!)],
    ];
    for (const [name, call] of refusals) await expect(call(), name).rejects.toMatchObject({ code: 'ACCOUNT_FORBIDDEN' });
    await s.open.writerIdle();
    expect(s.open.ledger.size).toBe(size);
  });

  it('a report asked for as PDF is printed by the server\'s Chromium (HTML, saying why, where there is none)', async () => {
    if (db.kind !== 'sqlite') return; // the printing does not touch the database: once is enough
    const lee = await signIn(s.server, 'Lawyer Lee');
    const started = await lee.request('POST', '/api/reports', { template: 'summary', format: 'pdf' });
    expect(started.statusCode, started.body).toBe(202);
    const job = started.json<ReportJob>();
    await s.server.custody.exportsArea.settled();
    const done = (await lee.request('GET', `/api/reports/jobs/${job.id}`)).json<ReportJob & { result: { pdf_unavailable: string | null } }>();
    expect(done.error).toBeNull();
    const pdf = findChromium(DEFAULT_CHROMIUM) !== null;
    expect(done.result).toMatchObject({ template: 'summary', format: pdf ? 'pdf' : 'html' });
    expect(done.result.pdf_unavailable === null).toBe(pdf);
    const dl = await lee.request('GET', `/api/reports/${job.id}/download`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe(pdf ? 'application/pdf' : 'text/html; charset=utf-8');
    expect(dl.rawPayload.subarray(0, 5).toString('latin1')).toBe(pdf ? '%PDF-' : '<!DOC');
  }, 180_000);

  it('after the exports, reports and downloads, the server stops and custody verify of the archive is clean', async () => {
    const served = s;
    s = undefined as unknown as ServedArchive; // closed here, so that custody verify can take the archive
    await served.close();
    await expectClean(archive);
  }, 120_000);
});
