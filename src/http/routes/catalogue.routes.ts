import { Type } from 'typebox';
import {
  subjectDetail,
  subjectView,
} from '../../catalogue/subjects/subject-view.service.js';
import { unitsForExport } from '../../catalogue/units/units.service.js';
import { defineRoute, type RouteDef } from './route.js';
import { IdParams, Limit, Offset, Open, Ulid } from './schemas.js';

const Subject = Open({
  id: Type.String(),
  number_raw: Type.Union([Type.String(), Type.Null()]),
  number_normalised: Type.Union([Type.String(), Type.Null()]),
  unit_id: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  fields: Type.Unknown(),
});

export const catalogueRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/subjects',
    blind: 'refused',
    access: { permission: 'evidence.read' },
    summary: 'subjects, a page at a time, optionally of one unit (as `custody subject list --json`)',
    tags: ['catalogue'],
    schema: {
      querystring: Type.Object(
        {
          unit: Type.Optional(Ulid('only subjects of this unit')),
          limit: Type.Optional(Limit(500, 100)),
          offset: Type.Optional(Offset),
        },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          subjects: Type.Array(Subject),
          total: Type.Integer(),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
      },
    },
    async handler({ query, archive }) {
      const limit = query.limit ?? 100;
      const offset = query.offset ?? 0;
      const page = await archive.index.queries.subjects({
        limit,
        offset,
        ...(query.unit === undefined ? {} : { unit: query.unit.toUpperCase() }),
      });
      return { subjects: page.rows.map(subjectView), total: page.total, limit, offset };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/subjects/:id',
    blind: 'refused',
    access: { permission: 'evidence.read' },
    summary: 'one subject with its items and history (as `custody subject show --json`)',
    tags: ['catalogue'],
    schema: {
      params: IdParams('subject'),
      response: {
        200: Open({
          id: Type.String(),
          items: Type.Array(Type.String()),
          history: Type.Array(Open({})),
          fields: Type.Unknown(),
        }),
      },
    },
    async handler({ params, archive }) {
      return subjectDetail(archive.index, params.id.toUpperCase());
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/units',
    blind: 'refused',
    access: { permission: 'evidence.read' },
    summary: 'the units, with codes, names, aliases and parents (as `custody unit list --json`)',
    tags: ['catalogue'],
    schema: {
      response: {
        200: Type.Object({
          units: Type.Array(
            Type.Object({
              id: Type.String(),
              code: Type.Union([Type.Integer(), Type.String(), Type.Null()]),
              name_en: Type.String(),
              name_ar: Type.Union([Type.String(), Type.Null()]),
              aliases: Type.Array(Type.String()),
              parent_code: Type.Union([Type.Integer(), Type.String(), Type.Null()]),
              retired_seq: Type.Union([Type.Integer(), Type.Null()]),
            }),
          ),
        }),
      },
    },
    async handler({ archive }) {
      return { units: unitsForExport(await archive.index.listUnits()) };
    },
  }),
];
