import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Type } from 'typebox';
import { REPORT_TEMPLATES } from '../../reports/report/index.js';
import { HttpError } from '../errors.js';
import type { ServerJob } from '../server-jobs.js';
import { disposition, evidenceHeaders } from './evidence.routes.js';
import { defineRoute, type RouteDef } from './route.js';
import { ExportResult, JobFields, Nullable, Ulid } from './schemas.js';

const ExportJob = Type.Object({ ...JobFields, result: Nullable(ExportResult) });

const ReportJob = Type.Object({
  ...JobFields,
  result: Nullable(
    Type.Object({
      template: Type.String(),
      format: Type.String(),
      tree_size: Type.Integer(),
      root: Type.String(),
      verified: Type.Boolean(),
      bytes: Type.Integer(),
      pdf_unavailable: Nullable(Type.String()),
    }),
  ),
});

const Listed = Type.Object({
  id: Type.String(),
  seq: Type.Integer(),
  actor: Type.String(),
  time: Type.String(),
  tree_size: Type.Integer(),
  items: Type.Integer(),
  redacted: Type.Boolean(),
  selection: Type.String(),
  bytes: Type.Integer(),
});

const JobParams = Type.Object({ id: Ulid("the job's id (a ULID)") }, { additionalProperties: false });

function jobOf<R>(job: ServerJob<R> | undefined, what: string, id: string): ServerJob<R> {
  if (job === undefined) throw new HttpError('HTTP_NOT_FOUND', `no ${what} ${id} on this server`, { details: { [what]: id } });
  return job;
}

function ready<R>(job: ServerJob<R>, what: string): R {
  if (job.state !== 'done' || job.result === null)
    throw new HttpError('HTTP_JOB_NOT_READY', `the ${what} ${job.id} is ${job.state}`, { details: { job: job.id, state: job.state } });
  return job.result;
}

/** Streams a file of the exports area as an attachment (never rendered: nosniff, sandboxed CSP). */
export async function sendFile(reply: Parameters<RouteDef['handler']>[0]['reply'], path: string, type: string, name: string) {
  evidenceHeaders(reply);
  const size = (await stat(path)).size;
  void reply.header('Content-Disposition', disposition('attachment', name));
  void reply.header('Content-Length', size);
  void reply.type(type);
  return reply.send(createReadStream(path, { highWaterMark: 1 << 20 }));
}

export const exportRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: '/api/exports',
    blind: 'refused',
    access: { permission: 'export.create' },
    summary:
      'start an export (as `custody export`, redacted by default) at the latest signed checkpoint, written as a ZIP bag to the server\'s exports area (never a path the client names); one at a time; poll GET /api/exports/jobs/:id; recorded as a dissemination entry naming the account',
    tags: ['export'],
    schema: {
      body: Type.Object(
        {
          selection: Type.String({ minLength: 1, maxLength: 10_000, description: 'all | items:ID,… | delivery:ID | subjects:ID,… | sample:ID | source:CODENAME, joined with +' }),
          redact: Type.Boolean({ default: true, description: 'withhold protected identities (custody export --redact); on unless turned off' }),
          blur_images: Type.Boolean({ default: false }),
          full_ledger: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      response: { 202: ExportJob },
    },
    async handler({ ctx, body, request, reply }) {
      const job = await request.server.custody.exportsArea.startExport(ctx!, {
        selection: body.selection,
        redact: body.redact,
        blurImages: body.blur_images,
        ...(body.full_ledger === undefined ? {} : { fullLedger: body.full_ledger }),
      });
      void reply.status(202);
      return job;
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/exports',
    blind: 'refused',
    access: { permission: 'export.create' },
    summary: 'the export jobs of this server (newest first) and the finished exports in the exports area, each confirmed by its dissemination entry',
    tags: ['export'],
    schema: { response: { 200: Type.Object({ jobs: Type.Array(ExportJob), exports: Type.Array(Listed) }) } },
    async handler({ request }) {
      const area = request.server.custody.exportsArea;
      return { jobs: area.exports.list(), exports: await area.listExports() };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/exports/jobs/:id',
    blind: 'refused',
    access: { permission: 'export.create' },
    summary: 'an export job: its stage and progress, and its result once done',
    tags: ['export'],
    schema: { params: JobParams, response: { 200: ExportJob } },
    handler({ params, request }) {
      return Promise.resolve(jobOf(request.server.custody.exportsArea.exports.get(params.id), 'export', params.id));
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/exports/:id/download',
    blind: 'refused',
    access: { permission: 'export.create' },
    summary: 'the finished bag as a ZIP (attachment; `custody verify-export` checks it); each download is a ledger entry naming the account',
    tags: ['export'],
    schema: { params: JobParams },
    async handler({ params, ctx, request, reply }) {
      const area = request.server.custody.exportsArea;
      const id = params.id.toUpperCase();
      const listed = await area.confirmed(id).catch(() => null);
      if (listed === null) {
        const job = area.exports.get(id);
        if (job !== undefined) ready(job, 'export');
        throw new HttpError('HTTP_NOT_FOUND', `no finished export ${id} in the exports area`, { details: { export: id } });
      }
      // A download is evidence of dissemination: recorded before a byte is sent (fail closed).
      await area.recordDownload(ctx!, 'export.download', id, { export_seq: listed.seq });
      return sendFile(reply, area.bagFile(id), 'application/zip', `custody-export-${id}.zip`);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/exports/:id/receipt',
    blind: 'refused',
    access: { permission: 'export.create' },
    summary: "the export's receipt (its dissemination entry with the proofs; `custody verify-export --receipt`), as an attachment",
    tags: ['export'],
    schema: { params: JobParams },
    async handler({ params, request, reply }) {
      const area = request.server.custody.exportsArea;
      const id = params.id.toUpperCase();
      if ((await area.confirmed(id).catch(() => null)) === null)
        throw new HttpError('HTTP_NOT_FOUND', `no finished export ${id} in the exports area`, { details: { export: id } });
      return sendFile(reply, area.receiptFile(id), 'application/json', `custody-export-${id}.receipt.json`);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/reports',
    blind: 'refused',
    access: { permission: 'report.create' },
    summary:
      'start a report (as `custody report`: the whole archive verified, drawn at the latest signed checkpoint), HTML or PDF; one at a time; poll GET /api/reports/jobs/:id',
    tags: ['report'],
    schema: {
      body: Type.Object(
        {
          template: Type.Union(REPORT_TEMPLATES.map((t) => Type.Literal(t))),
          format: Type.Union([Type.Literal('html'), Type.Literal('pdf')], { default: 'html' }),
        },
        { additionalProperties: false },
      ),
      response: { 202: ReportJob },
    },
    async handler({ ctx, body, request, reply }) {
      const job = await request.server.custody.exportsArea.startReport(ctx!, body.template, body.format);
      void reply.status(202);
      return job;
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/reports/jobs/:id',
    blind: 'refused',
    access: { permission: 'report.create' },
    summary: 'a report job: its stage and progress, and its result once done',
    tags: ['report'],
    schema: { params: JobParams, response: { 200: ReportJob } },
    handler({ params, request }) {
      return Promise.resolve(jobOf(request.server.custody.exportsArea.reports.get(params.id), 'report', params.id));
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/reports/:id/download',
    blind: 'refused',
    access: { permission: 'report.create' },
    summary: 'a finished report (HTML or PDF) as an attachment, never rendered here; each download is a ledger entry naming the account',
    tags: ['report'],
    schema: { params: JobParams },
    async handler({ params, ctx, request, reply }) {
      const area = request.server.custody.exportsArea;
      const id = params.id.toUpperCase();
      const r = ready(jobOf(area.reports.get(id), 'report', id), 'report');
      await area.recordDownload(ctx!, 'report.download', id, { template: r.template, tree_size: r.tree_size });
      const html = r.format === 'html';
      return sendFile(reply, area.reportFile(id, r.format), html ? 'text/html; charset=utf-8' : 'application/pdf', `custody-${r.template}-report-${id}.${r.format}`);
    },
  }),
];
