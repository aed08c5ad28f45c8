import { Type } from 'typebox';
import { CatalogueLabels } from '../../catalogue/labels.service.js';
import { suggestLinks } from '../../catalogue/subjects/suggestions.service.js';
import { linkItems, linkItemsInBulk } from '../../catalogue/subjects/subjects.service.js';
import { derivedOf } from '../derived.js';
import { defineRoute, type RouteDef } from './route.js';
import { IdParams, Open, Ulid } from './schemas.js';

// Linking photographs to subjects over HTTP (issue 12, "linking and suggestions"), with the CLI's
// semantics: `custody subject suggest` for the suggestions, `custody subject link|unlink` for the
// links, each change a 'subject.link' / 'subject.unlink' ledger entry with its reason and the
// account as its actor. Subjects are catalogue: a blinded examiner is refused all of them.

const Reason = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: 'why (every change to the catalogue needs a reason)',
});
const ItemIds = Type.Array(Ulid('an item id'), { minItems: 1, maxItems: 1000, uniqueItems: true });

export const linkingRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/link-suggestions',
    blind: 'refused',
    access: { permission: 'evidence.read' },
    summary:
      'photographs that a near-duplicate cluster or a decision joins to a subject, suggested for linking (as `custody subject suggest --json`)',
    tags: ['catalogue'],
    schema: {
      response: {
        200: Type.Object({
          count: Type.Integer(),
          suggestions: Type.Array(
            Open({
              id: Type.String(),
              kind: Type.Union([Type.Literal('link'), Type.Literal('review-merge')]),
              subjects: Type.Array(Type.String()),
              items: Type.Array(Type.String()),
              basis: Open({ type: Type.String() }),
              item_labels: Type.Array(Type.Unknown()),
              subject_labels: Type.Array(Type.Unknown()),
            }),
          ),
        }),
      },
    },
    async handler({ archive, request }) {
      // The clusters the server already holds (recomputed when an item is added, analysed or
      // withdrawn); which photographs show which subject is read now, at each request.
      const { similarity } = await derivedOf(request.server.custody).collectionFacts();
      const suggestions = await suggestLinks(archive, similarity);
      const labels = await CatalogueLabels.load(archive);
      return {
        count: suggestions.length,
        suggestions: suggestions.map((s) => ({
          ...s,
          item_labels: s.items.map((i) => labels.item(i)),
          subject_labels: s.subjects.map((x) => labels.subject(x)),
        })),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/links',
    blind: 'refused',
    access: { permission: 'catalogue.write' },
    writes: true,
    summary:
      'link photographs to subjects in bulk, with one reason (as `custody subject link` for each subject, in one ledger batch); all or nothing',
    tags: ['catalogue'],
    schema: {
      body: Type.Object(
        {
          links: Type.Array(
            Type.Object(
              { subject: Ulid('the subject'), items: ItemIds },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: 500 },
          ),
          reason: Reason,
        },
        { additionalProperties: false },
      ),
      response: {
        201: Type.Object({
          links: Type.Array(
            Type.Object({
              subject: Type.String(),
              items: Type.Array(Type.String()),
              seq: Type.Integer(),
            }),
          ),
        }),
      },
    },
    async handler({ body, archive, ctx, reply }) {
      const links = await linkItemsInBulk(
        archive,
        ctx!,
        body.links.map((l) => ({
          subject: l.subject.toUpperCase(),
          items: l.items.map((i) => i.toUpperCase()),
        })),
        body.reason,
      );
      void reply.status(201);
      return { links };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/subjects/:id/unlink',
    blind: 'refused',
    access: { permission: 'catalogue.write' },
    writes: true,
    summary: 'unlink photographs from a subject, with a reason (as `custody subject unlink`)',
    tags: ['catalogue'],
    schema: {
      params: IdParams('subject'),
      body: Type.Object({ items: ItemIds, reason: Reason }, { additionalProperties: false }),
      response: {
        201: Type.Object({ subject: Type.String(), items: Type.Array(Type.String()) }),
      },
    },
    async handler({ params, body, archive, ctx, reply }) {
      const subject = params.id.toUpperCase();
      const items = body.items.map((i) => i.toUpperCase());
      await linkItems(archive, ctx!, subject, items, body.reason, true);
      void reply.status(201);
      return { subject, items };
    },
  }),
];
