// Issue 15 over HTTP: missing-person reports for the family liaison, within their organisation's
// consent scope, and the reporting contact for the source custodian, every read of it recorded in
// the ledger first. Consent is enforced in the services (reports.service.ts, withinConsent) with
// the organisation of the signed-in account; an account without an organisation sees no report,
// because on the server "no organisation" must never mean "every organisation" (it means that only
// at the CLI, for the holder of the archive key).
import { Type } from 'typebox';
import { missingPorts, type Archive } from '../../app.js';
import { candidatesFor } from '../../identification/candidates/candidates.service.js';
import { listReports, showReport } from '../../identification/reports/reports.service.js';
import type { FastifyRequest } from 'fastify';
import { IdentificationError } from '../../identification/index.js';
import { defineRoute, type RouteDef } from './route.js';
import { IdParams, Limit, Nullable, Open } from './schemas.js';

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
  return missingPorts(archive, org);
}

const Summary = Type.Object({
  id: Type.String(),
  org: Type.String(),
  recorded_at: Type.String(),
  recorded_seq: Type.Integer(),
  erased_seq: Nullable(Type.Integer()),
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
      "the report with its reporting contact, for the source custodian: the read (account, report, reason) is a ledger entry written before the contact is sent",
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
];
