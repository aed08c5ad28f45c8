import { Type } from 'typebox';
import { HttpError } from '../errors.js';
import { defineRoute, type RouteDef } from './route.js';

const SHA256 = Type.String({ pattern: '^[0-9a-f]{64}$' });

export const decisionRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: '/api/decisions',
    blind: 'refused',
    access: { permission: 'catalogue.write' },
    summary:
      "record a decision on two or more objects (same image, same subject, or different), as `custody decide` does; answered once the entry is durable",
    tags: ['catalogue'],
    schema: {
      body: Type.Object(
        {
          objects: Type.Array(SHA256, { minItems: 2, maxItems: 100, uniqueItems: true }),
          decision: Type.Union([
            Type.Literal('same-image'),
            Type.Literal('same-subject'),
            Type.Literal('different'),
          ]),
          note: Type.Optional(Type.String({ maxLength: 2000 })),
        },
        { additionalProperties: false },
      ),
      response: {
        201: Type.Object({
          seq: Type.Integer(),
          decision: Type.String(),
          objects: Type.Array(Type.String()),
        }),
      },
    },
    // Group commit, not the one-at-a-time queue: what is checked (the objects exist) stays true
    // whatever else is committed meanwhile, so concurrent decisions share one append.
    async handler({ body, archive, ctx, request, reply }) {
      const objects = [...body.objects].sort();
      const known = await archive.index.existingObjects(objects);
      for (const o of objects)
        if (!known.has(o))
          throw new HttpError('HTTP_NOT_FOUND', `no object ${o}`, { details: { object: o } });
      const [e] = await request.server.custody.groupCommit([
        {
          actor: ctx!.actor,
          type: 'decision',
          items: [],
          objects,
          details: { subject: 'objects', decision: body.decision, note: body.note ?? null },
        },
      ]);
      void reply.status(201);
      return { seq: e?.entry.seq ?? -1, decision: body.decision, objects };
    },
  }),
];
