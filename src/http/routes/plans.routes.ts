// Sampling plans over HTTP, for who manages them (investigators: `sample.manage`): draw a plan as
// `custody sample draw` does, see it, assign its examiners (an administrator, or an account
// without the examiner role, is refused: ASSIGNMENT_ROLE_REFUSED, in the service), and close it
// (its case-code key is published). These routes show subject and item ids: only roles that are
// never blinded reach them.
import { Type } from 'typebox';
import { resolveAccountId } from '../../accounts/accounts.service.js';
import { defineCodebook } from '../../examination/codebook/index.js';
import { assignExaminers, closePlan } from '../../examination/blind/examination.service.js';
import { caseOutcomes, caseRefs, describeSample } from '../../examination/blind/index.js';
import { drawPlan, type PlanInput } from '../../examination/sampling/plan.service.js';
import { defineRoute, type RouteDef } from './route.js';
import { planOf, PlanParams } from './examination.routes.js';
import { Open } from './schemas.js';

const PlanSummary = Open({ id: Type.String(), name: Type.String() });

export const planRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: '/api/plans',
    blind: 'refused',
    access: { permission: 'sample.manage' },
    summary:
      'draw a sampling plan in one step, as `custody sample draw` does: the frame, then the seed, then the members, each a ledger entry',
    tags: ['sampling'],
    writes: true,
    schema: {
      body: Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 200 }),
          over: Type.Union([Type.Literal('subjects'), Type.Literal('items')]),
          method: Type.Union([Type.Literal('simple'), Type.Literal('systematic'), Type.Literal('stratified')]),
          by: Type.Optional(Type.Union([Type.Literal('unit'), Type.Literal('month')])),
          size: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
          census: Type.Optional(Type.Boolean()),
          population: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
          seed: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'a seed given (e.g. a public beacon value); 32 random bytes otherwise' })),
          codebook: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'a codebook (the default one otherwise)' })),
        },
        { additionalProperties: false },
      ),
      response: { 201: PlanSummary },
    },
    async handler({ body, archive, ctx, reply }) {
      const input: PlanInput = {
        name: body.name,
        unit: body.over,
        method: body.method,
        stratify: body.by ?? null,
        size: body.census === true ? 0 : (body.size ?? 0),
        census: body.census === true,
        population: body.population ?? null,
        ...(body.seed === undefined ? {} : { seed: body.seed }),
        ...(body.codebook === undefined ? {} : { codebook: defineCodebook(body.codebook) }),
      };
      const plan = await drawPlan(archive, ctx!, input);
      void reply.status(201);
      return {
        id: plan.id,
        name: plan.name,
        method: plan.draw.method,
        frame_size: plan.draw.frameSize,
        frame_digest: plan.draw.frameDigest,
        seed: plan.draw.seed,
        size: plan.draw.n,
        manifest_digest: plan.draw.manifestDigest,
        entries: plan.entries,
        members: plan.draw.members,
      };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/plans',
    blind: 'refused',
    access: { permission: 'sample.manage' },
    summary: 'the sampling plans',
    tags: ['sampling'],
    schema: { response: { 200: Type.Object({ plans: Type.Array(PlanSummary) }) } },
    async handler({ archive }) {
      const plans = await archive.examinations.listSamples();
      return { plans: plans.map((s) => ({ ...describeSample(s), closed_seq: s.closed_seq })) };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/plans/:plan',
    blind: 'refused',
    access: { permission: 'sample.manage' },
    summary: 'a plan and its cases (case id and code, examiners, how many submitted, status), as `custody sample show` and `examine status`',
    tags: ['sampling'],
    schema: { params: PlanParams, response: { 200: PlanSummary } },
    async handler({ params, archive }) {
      const sample = await planOf(archive, params.plan);
      const refs = await caseRefs(archive, sample);
      return {
        ...describeSample(sample),
        closed_seq: sample.closed_seq,
        cases: (await caseOutcomes(archive, sample)).map((c) => ({
          case: c.case,
          code: refs.code(c.case),
          position: c.position,
          stratum: c.stratum,
          examiners: c.examiners,
          submitted: c.submitted.length,
          status: c.status,
        })),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/plans/:plan/assignment',
    blind: 'refused',
    access: { permission: 'sample.manage' },
    summary:
      "assign the plan's cases to examiner accounts (by id or name), `per_case` of them each (all by default); an administrator or an account without the examiner role is refused (ASSIGNMENT_ROLE_REFUSED)",
    tags: ['sampling'],
    writes: true,
    schema: {
      params: PlanParams,
      body: Type.Object(
        {
          examiners: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 }),
          per_case: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        },
        { additionalProperties: false },
      ),
      response: { 200: Type.Object({ plan: Type.String(), cases: Type.Integer(), per_case: Type.Integer() }) },
    },
    async handler({ params, body, archive, ctx }) {
      const sample = await planOf(archive, params.plan);
      const ids = await Promise.all(
        body.examiners.map((e) => resolveAccountId({ listAccounts: () => archive.index.listAccounts(), sealingKey: archive.sealingKey }, e)),
      );
      const r = await assignExaminers(archive, ctx!, sample.id, ids, body.per_case);
      return { plan: sample.id, cases: r.cases, per_case: r.perCase };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/plans/:plan/close',
    blind: 'refused',
    access: { permission: 'sample.manage' },
    summary: "close a plan whose every case is final: its case-code key is published, so anyone can link each code to its case",
    tags: ['sampling'],
    writes: true,
    schema: {
      params: PlanParams,
      response: { 200: Type.Object({ plan: Type.String(), cases: Type.Integer(), seq: Type.Integer() }) },
    },
    async handler({ params, archive, ctx }) {
      const sample = await planOf(archive, params.plan);
      return closePlan(archive, ctx!, sample.id);
    },
  }),
];
