// The examiner's routes (issue 12, "the examination form", "submission"): their queue, a case's
// form and photographs, and a submission signed on their side. Everything here names a case by its
// code and a photograph by its ordinal within the case, never a subject or item id, number,
// unit, date or file name; the photographs are served as pixels only (no EXIF). The examination
// service decides who is assigned; these routes only translate.
import { Type } from 'typebox';
import type { Archive } from '../../app.js';
import { AccountError } from '../../accounts/index.js';
import { pixelsOnly } from '../../analysis/image/image-decode.adapter.js';
import { ArchiveError } from '../../archive/index.js';
import { assertNotWithdrawn } from '../../archive/withdrawal.service.js';
import { sameActor, type JsonValue } from '../../core/index.js';
import {
  caseForm,
  caseImages,
  commitSubmission,
  prepareSubmission,
  type PreparedSubmission,
} from '../../examination/blind/examination.service.js';
import { caseOutcomes, caseRefs, ExamError, loadSample, sampleCodebook } from '../../examination/blind/index.js';
import { PlanError } from '../../examination/sampling/plan.service.js';
import { HttpError } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import { disposition, evidenceHeaders, recordViewOf, sendPreview } from './evidence.routes.js';
import { holdPrepared, takePrepared } from './prepared-acts.js';
import { defineRoute, type RouteDef } from './route.js';
import { Open, Ulid } from './schemas.js';

export const CASE_CODE_PATTERN = '^k-[0-9a-f]{12}$';
export const PlanParams = Type.Object({ plan: Ulid("the plan's id (a ULID)") }, { additionalProperties: false });
export const CaseParams = Type.Object(
  {
    plan: Ulid("the plan's id (a ULID)"),
    code: Type.String({ pattern: CASE_CODE_PATTERN, description: "the case's code (k- and 12 hex digits)" }),
  },
  { additionalProperties: false },
);
const PhotoParams = Type.Object(
  { ...CaseParams.properties, n: Type.Integer({ minimum: 1, maximum: 10_000, description: "the photograph's ordinal in the case, from 1" }) },
  { additionalProperties: false },
);
export const Signature = Type.Object(
  {
    key_id: Type.String({ pattern: '^[0-9a-f]{16}$' }),
    value: Type.String({ pattern: '^[A-Za-z0-9+/]*={0,2}$', maxLength: 100, description: 'base64 of the 64-byte Ed25519 signature' }),
  },
  { additionalProperties: false },
);
export const SignedBody = Type.Object(
  { token: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'from the prepare step' }), signature: Signature },
  { additionalProperties: false },
);
export const PreparedView = Open({
  token: Type.String(),
  expires_at: Type.String(),
  act: Type.String(),
  fields: Type.Record(Type.String(), Type.Unknown()),
  message: Type.String({ description: 'base64 of the exact bytes to sign' }),
});

/** The signature the browser made, as the service's signer: it "signs" by handing it over; the service verifies it. */
export function signerOf(signature: { key_id: string; value: string }) {
  return { keyId: signature.key_id, sign: () => Promise.resolve(new Uint8Array(Buffer.from(signature.value, 'base64'))) };
}

/** The plan by its id (a name is not accepted here: ids only in paths). */
export async function planOf(archive: Archive, plan: string) {
  const sample = await loadSample(archive, plan.toUpperCase());
  if (sample.id !== plan.toUpperCase()) throw new PlanError('SAMPLE_NOT_FOUND', `no sampling plan ${plan}`);
  return sample;
}

/**
 * The photographs of a case that `ctx` may see: an examiner of the case, an adjudicator once the
 * case is revealed (and not its examiner), anyone else who reads evidence (they are not blinded).
 */
async function photosFor(archive: Archive, ctx: RequestContext, plan: string, code: string) {
  const sample = await planOf(archive, plan);
  if (ctx.role === 'examiner') {
    await caseForm(archive, ctx, sample.id, code, ctx.actor); // refuses an examiner not assigned to it
  }
  const refs = await caseRefs(archive, sample);
  const caseId = refs.resolve(code);
  if (caseId === undefined || refs.code(caseId) !== code) throw new ExamError('EXAMINATION_CASE_NOT_FOUND', `plan ${sample.name} has no case ${code}`);
  if (ctx.role === 'adjudicator') {
    const outcome = (await caseOutcomes(archive, sample)).find((c) => c.case === caseId);
    if (outcome?.answers === null || outcome === undefined)
      throw new ExamError('EXAMINATION_SEALED', `case ${code}: the photographs are shown to an adjudicator once every answer is revealed`);
  }
  return { sample, caseId, images: await caseImages(archive, sample, caseId) };
}

function photoOf<T>(images: readonly T[], n: number, code: string): T {
  const image = images[n - 1];
  if (image === undefined) throw new HttpError('HTTP_NOT_FOUND', `case ${code} has ${images.length} photograph(s)`, { details: { photos: images.length } });
  return image;
}

/** Which of the case's photographs (item ids) this account has opened unblurred (originals or plain previews), from the recorded views. */
async function openedUnblurred(archive: Archive, actor: string, images: readonly { item: string }[]): Promise<string[]> {
  const out: string[] = [];
  for (const image of images) {
    const views = await archive.index.queries.views({ actor, item: image.item, limit: 10 });
    if (views.some((v) => v.action === 'view.original' || v.action === 'view.unblurred')) out.push(image.item);
  }
  return out;
}

export const examinationRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/examination/queue',
    blind: 'none',
    access: { permission: 'examination.submit' },
    summary:
      'my plans and cases, by case code only: whether I have submitted each, and (until I have finished the plan) only whether its answers are still sealed',
    tags: ['examination'],
    schema: {
      response: {
        200: Type.Object({
          plans: Type.Array(
            Type.Object({
              plan: Type.Object({ id: Type.String(), name: Type.String(), codebook: Type.Object({ version: Type.String(), digest: Type.String() }) }),
              finished: Type.Boolean(),
              cases: Type.Array(
                Type.Object({
                  case: Type.String(),
                  mine: Type.Union([Type.Literal('to_submit'), Type.Literal('submitted')]),
                  submitted: Type.Integer(),
                  assigned: Type.Integer(),
                  status: Type.String(),
                }),
              ),
            }),
          ),
        }),
      },
    },
    async handler({ archive, ctx }) {
      const actor = ctx!.actor;
      const plans = [];
      for (const sample of await archive.examinations.listSamples()) {
        const refs = await caseRefs(archive, sample);
        const mine = (await caseOutcomes(archive, sample)).filter((c) => c.examiners.some((e) => sameActor(e, actor)));
        if (mine.length === 0) continue;
        const done = (c: (typeof mine)[number]) => c.submitted.some((e) => sameActor(e, actor));
        const finished = mine.every(done);
        plans.push({
          plan: { id: sample.id, name: sample.name, codebook: { version: sample.codebook_version, digest: sample.codebook_digest } },
          finished,
          cases: mine.map((c) => ({
            case: refs.code(c.case),
            mine: done(c) ? ('submitted' as const) : ('to_submit' as const),
            submitted: c.submitted.length,
            assigned: c.examiners.length,
            // Whether colleagues agreed (final vs awaiting adjudication) waits until the plan is finished.
            status: finished || c.status === 'awaiting_submissions' ? c.status : 'revealed',
          })),
        });
      }
      return { plans };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/plans/:plan/cases/:code/form',
    blind: 'none',
    access: { permission: 'examination.submit' },
    summary:
      "a case's blank form: the codebook (fields, their definitions and allowed values) and the case's photographs by ordinal; no number, unit, date or file name",
    tags: ['examination'],
    schema: {
      params: CaseParams,
      response: {
        200: Type.Object({
          plan: Type.Object({ id: Type.String(), name: Type.String() }),
          case: Type.String(),
          codebook: Type.Object({ version: Type.String(), digest: Type.String(), definition: Type.Unknown() }),
          form: Type.Unknown(),
          photos: Type.Array(Type.Object({ n: Type.Integer(), media_type: Type.String(), preview: Type.String(), original: Type.String() })),
        }),
      },
    },
    async handler({ params, archive, ctx }) {
      const sample = await planOf(archive, params.plan);
      const f = await caseForm(archive, ctx!, sample.id, params.code, ctx!.actor);
      const base = `/api/plans/${sample.id}/cases/${f.case}/photos`;
      return {
        plan: { id: sample.id, name: sample.name },
        case: f.case,
        codebook: { ...f.codebook, definition: sampleCodebook(sample) },
        form: f.form,
        photos: f.images.map((i, k) => ({ n: k + 1, media_type: i.media_type, preview: `${base}/${k + 1}/preview`, original: `${base}/${k + 1}/original` })),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/plans/:plan/cases/:code/photos/:n/preview',
    blind: 'none',
    access: { permission: 'evidence.read' },
    summary:
      "a case's photograph as a WebP preview: blurred greyscale (32 px on the long edge at any size, for the page to scale up) and not recorded, or (unblurred=true) plain and recorded as a view (one entry per account, item and hour)",
    tags: ['examination'],
    schema: {
      params: PhotoParams,
      querystring: Type.Object(
        {
          size: Type.Optional(Type.Union([Type.Literal(256), Type.Literal(1280)], { default: 256 })),
          unblurred: Type.Optional(Type.Boolean({ default: false })),
        },
        { additionalProperties: false },
      ),
    },
    async handler({ params, query, archive, ctx, request, reply }) {
      evidenceHeaders(reply);
      const { images } = await photosFor(archive, ctx!, params.plan, params.code);
      const image = photoOf(images, params.n, params.code);
      const size = query.size ?? 256;
      return sendPreview({ archive, ctx: ctx!, request, reply }, { id: image.item, sha256: image.sha256 }, size, query.unblurred === true, `${params.code}-${params.n}.${size}.webp`);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/plans/:plan/cases/:code/photos/:n/original',
    blind: 'none',
    access: { permission: 'evidence.read' },
    summary:
      "a case's photograph at full size, as pixels only (PNG, without the file's EXIF, XMP or comments, which can carry dates, places or the number); recorded as a view of the original (one entry per account, item and hour)",
    tags: ['examination'],
    schema: { params: PhotoParams },
    async handler({ params, archive, ctx, request, reply }) {
      evidenceHeaders(reply);
      const { images } = await photosFor(archive, ctx!, params.plan, params.code);
      const image = photoOf(images, params.n, params.code);
      await assertNotWithdrawn(archive, image.sha256, 'original');
      if (!image.media_type.startsWith('image/'))
        throw new ArchiveError('NOT_FOUND', `photograph ${params.n} of case ${params.code} is not an image`);
      const analysis = await archive.index.getAnalysis(image.sha256);
      const png = await pixelsOnly(await archive.store.readObject(image.sha256), analysis?.orientation ?? null);
      // A view of the original is evidence: recorded before a byte is sent (fail closed).
      await recordViewOf(request, archive, ctx!, { action: 'view.original', item: image.item, sha256: image.sha256 });
      void reply.header('Content-Disposition', disposition('inline', `${params.code}-${params.n}.png`));
      return reply.type('image/png').send(png);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/plans/:plan/cases/:code/submission/prepare',
    blind: 'none',
    access: { permission: 'examination.submit' },
    summary:
      'step 1 of a submission: the server checks the form, seals the answer and commits to it (nothing is appended), and returns the exact bytes to sign (`custody submit v1`), the fields they encode, and the answer and salt that open the commitment; held 5 minutes for this session',
    tags: ['examination'],
    schema: {
      params: CaseParams,
      body: Type.Object(
        {
          form: Type.Record(Type.String(), Type.Unknown(), { description: 'the filled-in form (the blank form of GET …/form, answered)' }),
          language: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,4}$', description: 'the language the form was shown in (BCP 47)' })),
        },
        { additionalProperties: false },
      ),
      response: { 200: PreparedView },
    },
    async handler({ params, body, archive, ctx, request }) {
      const sample = await planOf(archive, params.plan);
      const p = await prepareSubmission(archive, ctx!, sample.id, params.code, ctx!.actor, body.form);
      // Over HTTP every submission is signed on the examiner's side: no key, no submission.
      if (p.keyId === null || p.message === null)
        throw new AccountError('PERSON_KEY_NOT_FOUND', 'a submission over the server is signed with your own key: enrol a signing key first');
      const held = holdPrepared(request, 'submission', { p, language: body.language ?? null });
      return {
        ...held,
        act: 'submit',
        fields: { ...p.fields, key_id: p.keyId },
        message: p.message.toString('base64'),
        opening: { answer: p.answer, salt: p.salt },
        commitment: p.commitment,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/plans/:plan/cases/:code/submission',
    blind: 'none',
    access: { permission: 'examination.submit' },
    summary:
      'step 2: the signature over the prepared bytes, made with my enrolled key; verified before the sealed answer is appended (with the form language and which photographs I opened unblurred); the answers are revealed when the last examiner submits',
    tags: ['examination'],
    writes: true,
    schema: {
      params: CaseParams,
      body: SignedBody,
      response: {
        201: Type.Object({ case: Type.String(), commitment: Type.String(), submitted: Type.Integer(), assigned: Type.Integer(), revealed: Type.Boolean() }),
      },
    },
    async handler({ params, body, archive, ctx, request, reply }) {
      const sample = await planOf(archive, params.plan);
      const held = takePrepared<{ p: PreparedSubmission; language: string | null }>(
        request,
        'submission',
        body.token,
        (v) => v.p.sample === sample.id && v.p.shown === params.code,
      );
      const images = await caseImages(archive, sample, held.value.p.caseId);
      const record: { [k: string]: JsonValue } = {
        language: held.value.language,
        photos: images.length,
        opened_unblurred: await openedUnblurred(archive, ctx!.actor, images),
      };
      const r = await commitSubmission(archive, ctx!, held.value.p, signerOf(body.signature), record);
      held.done();
      void reply.status(201);
      return r;
    },
  }),
];
