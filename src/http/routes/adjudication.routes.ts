// The adjudicator's routes (issue 12, "adjudication"): the cases waiting for them, the revealed
// answers side by side once the reveal rule allows (the service refuses sealed answers, and an
// examiner's look at colleagues' answers before finishing their own cases), and an adjudication
// signed on their side in the same two steps as a submission. Cases by code only.
import { Type } from 'typebox';
import { sameActor } from '../../core/index.js';
import {
  caseImages,
  commitAdjudication,
  prepareAdjudication,
  revealedCase,
  type PreparedAdjudication,
} from '../../examination/blind/examination.service.js';
import { caseOutcomes, caseRefs, sampleCodebook } from '../../examination/blind/index.js';
import { AccountError } from '../../accounts/index.js';
import { holdPrepared, takePrepared } from './prepared-acts.js';
import { CaseParams, planOf, PreparedView, SignedBody, signerOf } from './examination.routes.js';
import { defineRoute, type RouteDef } from './route.js';
import { Open } from './schemas.js';

export const adjudicationRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/adjudication/queue',
    blind: 'none',
    access: { permission: 'examination.adjudicate' },
    summary: 'revealed cases whose examiners disagree and that I did not examine, by plan and case code',
    tags: ['adjudication'],
    schema: {
      response: {
        200: Type.Object({
          cases: Type.Array(
            Type.Object({ plan: Type.String(), plan_name: Type.String(), case: Type.String(), disagreements: Type.Integer(), status: Type.String() }),
          ),
        }),
      },
    },
    async handler({ archive, ctx }) {
      const cases = [];
      for (const sample of await archive.examinations.listSamples()) {
        const refs = await caseRefs(archive, sample);
        for (const c of await caseOutcomes(archive, sample)) {
          if (c.answers === null || (c.disagreements ?? []).length === 0) continue;
          if (c.examiners.some((e) => sameActor(e, ctx!.actor))) continue;
          cases.push({ plan: sample.id, plan_name: sample.name, case: refs.code(c.case), disagreements: c.disagreements?.length ?? 0, status: c.status });
        }
      }
      return { cases };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/plans/:plan/cases/:code/answers',
    // An examiner with unfinished cases anywhere sees no answers: a colleague's on a subject that
    // is also in their own plan would tell them its sex and age.
    blind: 'refused',
    access: { permission: 'evidence.read' },
    summary:
      "a revealed case's answers side by side, with the fields they disagree on and the final answer; refused while sealed (EXAMINATION_SEALED) and, for an examiner of the plan, until all of their own cases are in (EXAMINATION_REVEAL_WITHHELD)",
    tags: ['adjudication'],
    schema: { params: CaseParams, response: { 200: Open({ case: Type.String() }) } },
    async handler({ params, archive, ctx }) {
      const sample = await planOf(archive, params.plan);
      const c = await revealedCase(archive, ctx!, sample.id, params.code, ctx!.actor);
      // By code only: the outcome's case id and stratum (a unit) stay out.
      return {
        plan: sample.id,
        case: params.code,
        status: c.status,
        examiners: c.examiners,
        answers: c.answers,
        disagreements: c.disagreements,
        final: c.final,
        adjudicated: c.adjudicated,
        // How many photographs the case has (served by ordinal under …/photos/:n), so that a
        // page need not probe for them.
        photos: (await caseImages(archive, sample, c.case)).length,
        // The plan's codebook (checked against its digest), so that the page names each field and
        // value by its label rather than its code.
        codebook: sampleCodebook(sample),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/plans/:plan/cases/:code/adjudication/prepare',
    blind: 'none',
    access: { permission: 'examination.adjudicate' },
    summary:
      'step 1 of an adjudication: a decision and a reason for each disputed field; the server checks them and computes the final answer (nothing is appended) and returns the exact bytes to sign (`custody adjudicate v1`); held 5 minutes for this session',
    tags: ['adjudication'],
    schema: {
      params: CaseParams,
      body: Type.Object(
        {
          decisions: Type.Array(
            Type.Object(
              {
                field: Type.String({ minLength: 1, maxLength: 200 }),
                value: Type.String({ maxLength: 200 }),
                reason: Type.String({ minLength: 1, maxLength: 2000 }),
              },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: 200 },
          ),
        },
        { additionalProperties: false },
      ),
      response: { 200: PreparedView },
    },
    async handler({ params, body, archive, ctx, request }) {
      const sample = await planOf(archive, params.plan);
      const p = await prepareAdjudication(archive, ctx!, sample.id, params.code, body.decisions, ctx!.actor);
      if (p.keyId === null || p.message === null)
        throw new AccountError('PERSON_KEY_NOT_FOUND', 'an adjudication over the server is signed with your own key: enrol a signing key first');
      const held = holdPrepared(request, 'adjudication', p);
      return {
        ...held,
        act: 'adjudicate',
        fields: { ...p.fields, key_id: p.keyId },
        message: p.message.toString('base64'),
        decisions: p.decisions,
        final: p.final,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/plans/:plan/cases/:code/adjudication',
    blind: 'none',
    access: { permission: 'examination.adjudicate' },
    summary: 'step 2: the signature over the prepared bytes, made with my enrolled key; verified before the adjudication is appended',
    tags: ['adjudication'],
    writes: true,
    schema: {
      params: CaseParams,
      body: SignedBody,
      response: { 201: Open({ case: Type.String(), status: Type.String() }) },
    },
    async handler({ params, body, archive, ctx, request, reply }) {
      const sample = await planOf(archive, params.plan);
      const held = takePrepared<PreparedAdjudication>(request, 'adjudication', body.token, (p) => p.sample === sample.id && p.shown === params.code);
      const c = await commitAdjudication(archive, ctx!, held.value, signerOf(body.signature));
      held.done();
      void reply.status(201);
      return { plan: sample.id, case: params.code, status: c.status, final: c.final, adjudicated: c.adjudicated };
    },
  }),
];
