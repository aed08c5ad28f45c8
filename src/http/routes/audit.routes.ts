import { Type } from 'typebox';
import { can } from '../../accounts/index.js';
import { listViews } from '../../archive/views.service.js';
import { defineRoute, type RouteDef } from './route.js';
import { Limit, Nullable, Ulid } from './schemas.js';

export const auditRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/audit/views',
    blind: 'refused',
    access: { permission: 'ledger.read' },
    summary:
      'who saw what, and when: downloads of originals and unblurred renditions, newest first (names only for those who may open staff names)',
    tags: ['audit'],
    schema: {
      querystring: Type.Object(
        {
          item: Type.Optional(Ulid('only views of this item')),
          account: Type.Optional(Ulid("only this account's views")),
          since: Type.Optional(
            Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}(T[0-9:.]{2,12}Z?)?$', description: 'RFC 3339 UTC' }),
          ),
          limit: Type.Optional(Limit(1000, 100)),
        },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          views: Type.Array(
            Type.Object({
              seq: Type.Integer(),
              time: Type.String(),
              hour: Type.String(),
              account: Type.String(),
              name: Nullable(Type.String()),
              role: Nullable(Type.String()),
              action: Type.String(),
              item: Nullable(Type.String()),
              sha256: Nullable(Type.String()),
            }),
          ),
          names_shown: Type.Boolean(),
        }),
      },
    },
    async handler({ query, archive, ctx, request }) {
      const rows = await listViews(archive.index.queries, {
        limit: query.limit ?? 100,
        ...(query.item === undefined ? {} : { item: query.item.toUpperCase() }),
        ...(query.account === undefined ? {} : { account: query.account.toUpperCase() }),
        ...(query.since === undefined ? {} : { since: query.since }),
      });
      // Staff names are sealed: shown to those who manage accounts, ids and roles to the rest.
      const namesShown = ctx !== null && can(ctx.role, 'accounts.manage');
      const accounts = request.server.custody.accounts;
      const views = [];
      for (const r of rows) {
        const a = await accounts.get(r.account);
        views.push({ ...r, name: namesShown ? (a?.name ?? null) : null, role: a?.role ?? null });
      }
      return { views, names_shown: namesShown };
    },
  }),
];
