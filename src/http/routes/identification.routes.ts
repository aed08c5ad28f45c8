// Issue 15 over HTTP: missing-person reports for the family liaison, within their organisation's
// consent scope, and the reporting contact for the source custodian, every read of it recorded in
// the ledger first. Consent is enforced in the services (reports.service.ts, withinConsent) with
// the organisation of the signed-in account; an account without an organisation sees no report,
// because on the server "no organisation" must never mean "every organisation" (it means that only
// at the CLI, for the holder of the archive key).
import { Type } from 'typebox';
import { missingPorts, type Archive } from '../../app.js';
import { candidatesFor } from '../../identification/candidates/candidates.service.js';
import { listReports, openForViewer, showReport } from '../../identification/reports/reports.service.js';
import { linkContext, raiseLevel, reviewSubjectLink, subjectLinksOf } from '../../identification/reports/subject-link.service.js';
import { HttpError } from '../errors.js';
import { evidenceHeaders, sendPreview } from './evidence.routes.js';
import { sendFile } from './exports.routes.js';
import { recordViewing } from '../../identification/reports/viewing.service.js';
import type { FastifyRequest } from 'fastify';
import { can } from '../../accounts/index.js';
import type { RequestContext } from '../request-context.js';
import { IdentificationError } from '../../identification/index.js';
import { defineRoute, type RouteDef } from './route.js';
import { ExportResult, IdParams, JobFields, Limit, Nullable, Open, Ulid } from './schemas.js';

/** The ports for this request: its archive view (the account as actor) and the account's organisation. */
async function portsFor(archive: Archive, request: FastifyRequest) {
  const account = await request.server.custody.accounts.get(request.session!.account);
  const org = account?.org ?? null;
  if (org === null || org.trim() === '')
    throw new IdentificationError(
      'MISSING_REPORT_FORBIDDEN',
      'your account belongs to no organisation, so no report is within your consent scope; an administrator sets the organisation',
      { details: { reason: 'no-organisation' } },
    );
  // The liaison a family's consent names is compared with the account's id and its name.
  return missingPorts(archive, org, [account!.id, account!.name]);
}

/** The caller's ports and a report they may see: refused when unknown, erased, unreadable or outside the consent scope. */
async function reportInScope(archive: Archive, request: FastifyRequest, reportId: string) {
  const ports = await portsFor(archive, request);
  const id = reportId.toUpperCase();
  const row = await ports.getReport(id);
  if (row === undefined) throw new IdentificationError('MISSING_REPORT_NOT_FOUND', `no report ${id}`);
  await openForViewer(ports, row);
  return { ports, id };
}

const SubjectParams = Type.Object(
  { id: Ulid("the report's id (a ULID)"), subject: Ulid("the subject's id (a ULID)") },
  { additionalProperties: false },
);
/**
 * The photographs of a subject whose link to the report a reviewer has accepted (the liaison has no
 * evidence.read: this is the only way they see which photographs a viewing may show). Refused for
 * an unreviewed or rejected link (MISSING_SUBJECT_LINK_NOT_ACCEPTED): a candidate never shows a
 * photograph by itself.
 */
async function acceptedItems(archive: Archive, request: FastifyRequest, report: string, subject: string): Promise<string[]> {
  const ports = await portsFor(archive, request);
  const { state } = await linkContext(ports, report, subject);
  if (state?.status !== 'accept')
    throw new IdentificationError('MISSING_SUBJECT_LINK_NOT_ACCEPTED', `no reviewer has accepted subject ${subject} for report ${report}: its photographs are not listed`, {
      details: { report, subject },
    });
  return (await ports.subjectItems(subject)).map((s) => s.item_id).sort();
}

const Reason = Type.String({ minLength: 1, maxLength: 2000 });

const IdentificationExportJob = Type.Object({
  ...JobFields,
  id: Type.String({ description: "the job's id, which is also the bag's (GET /api/missing/:id/export/:bag once done)" }),
  error_code: Nullable(Type.String({ description: 'e.g. MISSING_REPORT_FORBIDDEN when the account left the consent scope before the job ran' })),
  result: Nullable(ExportResult),
});

/**
 * When a job runs, the account must still be what it was when it asked: not disabled, the same
 * role (one that may manage identification) and the same organisation (MISSING_REPORT_FORBIDDEN).
 */
async function stillAllowed(archive: Archive, ctx: RequestContext, org: string): Promise<void> {
  const row = await archive.index.getAccount(ctx.actor);
  if (row === undefined || row.disabled_seq !== null || row.role !== ctx.role || !can(ctx.role, 'identification.manage') || row.org !== org)
    throw new IdentificationError('MISSING_REPORT_FORBIDDEN', 'the account was disabled, or its role or organisation changed, before the export ran: nothing was exported', {
      details: { reason: 'account-changed' },
    });
}

const Summary = Type.Object({
  id: Type.String(),
  org: Type.String(),
  recorded_at: Type.String(),
  recorded_seq: Type.Integer(),
  erased_seq: Nullable(Type.Integer()),
  erased_category: Nullable(Type.String({ description: 'why it was erased: family-request, consent-withdrawn, duplicate, error, legal-order or other (null: erased before categories, or not erased)' })),
  contact_reads: Type.Integer(),
  key: Type.String(),
  name_ar: Nullable(Type.String()),
  name_latin: Nullable(Type.String()),
  unreadable: Nullable(Type.String()),
});

const ReportView = Type.Object({
  id: Type.String(),
  org: Type.String(),
  recorded_at: Type.String(),
  recorded_by: Type.String(),
  content: Open({ contact: Type.Unknown() }),
  contact_read_seq: Nullable(Type.Integer()),
  contact_reads: Type.Array(
    Type.Object({
      seq: Type.Integer(),
      actor: Type.String(),
      time: Type.String(),
      reason: Nullable(Type.String({ description: "the reason, opened from its seal under the report's key (null: it cannot be opened)" })),
      sealed: Type.Boolean({ description: 'false for entries written before reasons were sealed (then in clear in the ledger)' }),
    }),
    { description: "every recorded read of the contact, oldest first; the reasons are sealed in the ledger and opened only within the report's consent scope" },
  ),
});

export const identificationRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/missing',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      "the missing-person reports within your organisation's consent scope, with the names the family gave (contacts stay sealed); reports outside it are not listed",
    tags: ['identification'],
    schema: { response: { 200: Type.Object({ reports: Type.Array(Summary) }) } },
    async handler({ archive, request }) {
      const all = await listReports(await portsFor(archive, request), { names: true });
      const reports = all
        .filter((r) => r.unreadable !== 'MISSING_REPORT_FORBIDDEN')
        .map((r) => ({
          id: r.id,
          org: r.org,
          recorded_at: r.recorded_at,
          recorded_seq: r.recorded_seq,
          erased_seq: r.erased_seq,
          erased_category: r.erased_category,
          contact_reads: r.contact_reads,
          key: r.key,
          name_ar: r.name_ar ?? null,
          name_latin: r.name_latin ?? null,
          unreadable: r.unreadable ?? null,
        }));
      return { reports };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/missing/:id',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      'one report as the family gave it, the contact sealed (403 MISSING_REPORT_FORBIDDEN outside your consent scope)',
    tags: ['identification'],
    schema: { params: IdParams('report'), response: { 200: ReportView } },
    async handler({ params, archive, request }) {
      return showReport(await portsFor(archive, request), params.id.toUpperCase(), {
        contactReason: null,
      });
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/missing/:id/contact',
    blind: 'refused',
    access: { permission: 'source.read-identity' },
    summary:
      "the report with its reporting contact, for the source custodian: the read (account, report, and the reason sealed under the report's key) is a ledger entry written before the contact is sent",
    tags: ['identification'],
    schema: {
      params: IdParams('report'),
      body: Type.Object(
        { reason: Type.String({ minLength: 1, maxLength: 2000 }) },
        { additionalProperties: false },
      ),
      response: { 200: ReportView },
    },
    writes: true,
    async handler({ params, body, archive, request }) {
      return showReport(await portsFor(archive, request), params.id.toUpperCase(), {
        contactReason: body.reason,
      });
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/missing/:id/export',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      "start a report's identification file as a bag for the authorities (as `custody missing export`, contacts redacted), within the account's consent scope, as a job (one at a time; poll GET /api/missing/:id/export/jobs/:job): a ZIP in the server's exports area named by the job's id, recorded as a dissemination entry naming the account. The server keeps taking writes while it runs",
    tags: ['identification'],
    schema: {
      params: IdParams('report'),
      response: { 202: IdentificationExportJob },
    },
    async handler({ params, archive, request, reply, ctx }) {
      // Refused here, before the job starts: erased, unreadable or outside the scope; checked again when it runs.
      const { ports, id } = await reportInScope(archive, request, params.id);
      const org = ports.viewerOrg!;
      const job = request.server.custody.exportsArea.startIdentificationExport(ctx!, {
        report: id,
        org,
        actorNames: ports.actorNames,
        recheck: () => stillAllowed(archive, ctx!, org),
      });
      void reply.status(202);
      return job;
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/missing/:id/export/jobs/:job',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      "an identification export job of this report: its stage, and once done its result (the bag's id is the job's id: GET /api/missing/:id/export/:bag), or the code that stopped it; within the consent scope",
    tags: ['identification'],
    schema: {
      params: Type.Object(
        { id: Ulid("the report's id (a ULID)"), job: Ulid('the job, as POST /api/missing/:id/export answered (a ULID)') },
        { additionalProperties: false },
      ),
      response: { 200: IdentificationExportJob },
    },
    async handler({ params, archive, request }) {
      const { id } = await reportInScope(archive, request, params.id);
      const job = request.server.custody.exportsArea.identificationJob(params.job.toUpperCase(), id);
      if (job === undefined) throw new HttpError('HTTP_NOT_FOUND', `no identification export job ${params.job.toUpperCase()} of report ${id} on this server`, { details: { job: params.job.toUpperCase() } });
      return job;
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/missing/:id/export/:bag',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      "a finished identification bag of this report as a ZIP (attachment; `custody verify-export` checks it), for an account within the report's consent scope; each download is a ledger entry naming the account",
    tags: ['identification'],
    schema: {
      params: Type.Object(
        { id: Ulid("the report's id (a ULID)"), bag: Ulid('the bag, as POST /api/missing/:id/export answered (a ULID)') },
        { additionalProperties: false },
      ),
    },
    async handler({ params, archive, request, reply, ctx }) {
      // The consent scope is checked on every download, not only when the bag was made.
      const { id } = await reportInScope(archive, request, params.id);
      const area = request.server.custody.exportsArea;
      const bag = params.bag.toUpperCase();
      const listed = await area.confirmedIdentification(bag, id);
      if (listed === null) throw new HttpError('HTTP_NOT_FOUND', `no identification bag ${bag} of report ${id} in the exports area`, { details: { export: bag } });
      // Recorded before a byte is sent (fail closed), as every download of an export.
      await area.recordDownload(ctx!, 'missing.export.download', bag, { export_seq: listed.seq, report: id });
      return sendFile(reply, area.bagFile(bag), 'application/zip', `custody-identification-${id}-${bag}.zip`);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/missing/:id/candidates',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      'candidate subjects for a report, each with the factors that rank it (never a photograph, never an identification)',
    tags: ['identification'],
    schema: {
      params: IdParams('report'),
      querystring: Type.Object(
        { limit: Type.Optional(Limit(200, 20)) },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          report: Type.String(),
          candidates: Type.Array(Open({ subject: Type.String() })),
          subjects: Type.Integer(),
          notice: Type.String(),
        }),
      },
    },
    async handler({ params, query, archive, request }) {
      return candidatesFor(await portsFor(archive, request), params.id.toUpperCase(), {
        limit: query.limit ?? 20,
      });
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/missing/:id/subjects',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      "a report's links to subjects: each reviewer's decision, the evidence level, the viewings, with the sealed reasons, references and attendees opened (403 MISSING_REPORT_FORBIDDEN outside your consent scope)",
    tags: ['identification'],
    schema: {
      params: IdParams('report'),
      response: { 200: Type.Object({ report: Type.String(), links: Type.Array(Open({ subject: Type.String() })) }) },
    },
    async handler({ params, archive, request }) {
      return subjectLinksOf(await portsFor(archive, request), params.id.toUpperCase());
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/missing/:id/subjects/:subject/review',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      'accept or reject a proposed report↔subject link, with a reason (a ledger entry; the reason sealed under the report key). Accepted, the link is a candidate',
    tags: ['identification'],
    schema: {
      params: SubjectParams,
      body: Type.Object(
        { decision: Type.Union([Type.Literal('accept'), Type.Literal('reject')]), reason: Reason },
        { additionalProperties: false },
      ),
      response: { 200: Open({ seq: Type.Integer() }) },
    },
    writes: true,
    async handler({ params, body, archive, request }) {
      return reviewSubjectLink(await portsFor(archive, request), params.id.toUpperCase(), params.subject.toUpperCase(), body.decision, body.reason);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/missing/:id/subjects/:subject/level',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      "raise an accepted link's evidence level: recognised (naming the viewing in which the family recognised a photograph) or confirmed (over a recognition, with number-record, dna or document references, sealed)",
    tags: ['identification'],
    schema: {
      params: SubjectParams,
      body: Type.Object(
        {
          level: Type.Union([Type.Literal('recognised'), Type.Literal('confirmed')]),
          viewing: Type.Optional(Type.Integer({ minimum: 0 })),
          references: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  kind: Type.Union([Type.Literal('number-record'), Type.Literal('dna'), Type.Literal('document')]),
                  reference: Type.String({ minLength: 1, maxLength: 500 }),
                },
                { additionalProperties: false },
              ),
              { maxItems: 20 },
            ),
          ),
          reason: Reason,
        },
        { additionalProperties: false },
      ),
      response: { 200: Open({ seq: Type.Integer() }) },
    },
    writes: true,
    async handler({ params, body, archive, request }) {
      const ports = await portsFor(archive, request);
      const [report, subject] = [params.id.toUpperCase(), params.subject.toUpperCase()];
      return body.level === 'recognised'
        ? raiseLevel(ports, report, subject, { level: 'recognised', viewing: body.viewing ?? -1, reason: body.reason })
        : raiseLevel(ports, report, subject, { level: 'confirmed', references: body.references ?? [], reason: body.reason });
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/missing/:id/subjects/:subject/viewings',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      "record a family viewing, by the liaison the family's consent names: who attended (sealed), the photographs shown in order, blurred first or not, and the family's answer for each",
    tags: ['identification'],
    schema: {
      params: SubjectParams,
      body: Type.Object(
        {
          attendees: Type.Array(
            Type.Object(
              { name: Type.String({ minLength: 1, maxLength: 200 }), relation: Type.Optional(Nullable(Type.String({ maxLength: 100 }))) },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: 50 },
          ),
          photographs: Type.Array(
            Type.Object(
              {
                item: Ulid("the photograph's item id"),
                blurred_first: Type.Boolean(),
                outcome: Type.Union([Type.Literal('recognised'), Type.Literal('not-recognised'), Type.Literal('unsure')]),
              },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: 200 },
          ),
          notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
        },
        { additionalProperties: false },
      ),
      response: { 200: Open({ seq: Type.Integer(), recognised: Type.Boolean() }) },
    },
    writes: true,
    async handler({ params, body, archive, request }) {
      return recordViewing(await portsFor(archive, request), params.id.toUpperCase(), params.subject.toUpperCase(), {
        attendees: body.attendees.map((a) => ({ name: a.name, relation: a.relation ?? null })),
        photographs: body.photographs,
        notes: body.notes ?? null,
      });
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/missing/:id/subjects/:subject/photographs',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      "the item ids of an accepted subject's photographs, for the viewing form (403 MISSING_SUBJECT_LINK_NOT_ACCEPTED for a link no reviewer accepted)",
    tags: ['identification'],
    schema: {
      params: SubjectParams,
      response: { 200: Type.Object({ report: Type.String(), subject: Type.String(), items: Type.Array(Type.String()) }) },
    },
    async handler({ params, archive, request }) {
      const [report, subject] = [params.id.toUpperCase(), params.subject.toUpperCase()];
      return { report, subject, items: await acceptedItems(archive, request, report, subject) };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/missing/:id/subjects/:subject/photographs/:item/preview',
    blind: 'refused',
    access: { permission: 'identification.manage' },
    summary:
      "a blurred greyscale preview of one of an accepted subject's photographs, 32 px on the long edge for the page to scale up (never unblurred on this route)",
    tags: ['identification'],
    schema: {
      params: Type.Object(
        { id: Ulid("the report's id (a ULID)"), subject: Ulid("the subject's id (a ULID)"), item: Ulid("the photograph's item id") },
        { additionalProperties: false },
      ),
    },
    async handler({ params, archive, ctx, request, reply }) {
      const [report, subject, id] = [params.id.toUpperCase(), params.subject.toUpperCase(), params.item.toUpperCase()];
      if (!(await acceptedItems(archive, request, report, subject)).includes(id))
        throw new HttpError('HTTP_NOT_FOUND', `item ${id} is not a photograph of subject ${subject}`, { details: { item: id } });
      const item = await archive.index.getItem(id);
      if (item === undefined) throw new HttpError('HTTP_NOT_FOUND', `no item ${id}`, { details: { item: id } });
      evidenceHeaders(reply);
      return sendPreview({ archive, ctx: ctx!, request, reply }, item, 256, false, `${item.id}.256.webp`);
    },
  }),
];
