import { Type } from 'typebox';
import { defineRoute, type RouteDef } from './route.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Union([t, Type.Null()]);

const Run = Type.Object({
  id: Type.String(),
  state: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  started_by: Type.String(),
  started: Type.String(),
  finished: Nullable(Type.String()),
  stage: Nullable(Type.String({ description: 'what the run is doing now (null once ended)' })),
  done: Type.Integer(),
  total: Nullable(Type.Integer()),
  ok: Nullable(Type.Boolean()),
  tree_size: Nullable(Type.Integer({ description: 'the ledger size checked (signed before the check)' })),
  root: Nullable(Type.String()),
  objects_hashed: Nullable(Type.Integer()),
  findings: Type.Array(
    Type.Object({
      code: Type.String(),
      severity: Type.String(),
      subject: Nullable(Type.String()),
      message: Type.String(),
    }),
  ),
  findings_total: Type.Integer(),
  recorded_seq: Nullable(Type.Integer({ description: 'the fixity check entry recording the result' })),
  error: Nullable(Type.String()),
});

const Recorded = Type.Object({
  seq: Type.Integer(),
  time: Type.String(),
  actor: Type.String(),
  result: Type.String(),
  tree_size: Nullable(Type.Integer()),
  root: Nullable(Type.String()),
  objects_hashed: Nullable(Type.Integer()),
  findings: Type.Integer(),
});

export const verificationRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: '/api/verifications',
    blind: 'none',
    access: { permission: 'verify.run' },
    summary:
      'start a verification of the whole archive (as `custody verify --record`), while the server keeps serving; one at a time; poll GET /api/verifications for its progress',
    tags: ['archive'],
    schema: {
      response: { 202: Run },
    },
    handler({ ctx, request, reply }) {
      const run = request.server.custody.verifications.start(ctx!.actor);
      void reply.status(202);
      return Promise.resolve(run);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/verifications',
    blind: 'none',
    access: 'signed-in',
    summary:
      'the verification in progress or the last one this server ran, and the latest verifications recorded in the ledger (fixity check entries), newest first',
    tags: ['archive'],
    schema: {
      response: {
        200: Type.Object({ current: Nullable(Run), recorded: Type.Array(Recorded) }),
      },
    },
    async handler({ request }) {
      const v = request.server.custody.verifications;
      return { current: v.latest(), recorded: await v.history() };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/jobs',
    blind: 'none',
    access: 'signed-in',
    summary: 'analysis jobs by state (pending, running, done, skipped, failed)',
    tags: ['archive'],
    schema: {
      response: {
        200: Type.Object({
          analyze_image: Type.Object({
            pending: Type.Integer(),
            running: Type.Integer(),
            done: Type.Integer(),
            skipped: Type.Integer(),
            failed: Type.Integer(),
          }),
        }),
      },
    },
    async handler({ archive }) {
      return { analyze_image: await archive.jobs.counts() };
    },
  }),
];
