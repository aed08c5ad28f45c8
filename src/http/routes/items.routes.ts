import { Type } from 'typebox';
import { INDICATOR_CODES } from '../../analysis/indicators/index.js';
import { objectDetail } from '../../archive/object-detail.service.js';
import {
  greyStepOf,
  type ArchiveSimilarity,
} from '../../analysis/similarity/archive-similarity.service.js';
import { overlapSeenFrom } from '../../analysis/similarity/similarity.service.js';
import { ITEM_SORTS, type ItemFilter, type ItemListRow } from '../../db/item-query.repository.js';
import { derivedOf } from '../derived.js';
import { HttpError } from '../errors.js';
import { defineRoute, type RouteDef } from './route.js';
import { IdParams, Limit, Nullable, Offset, Open, Ulid } from './schemas.js';

const DATE = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}(:\\d{2}(:\\d{2})?)?)?$';
const MAX_PAGE = 500;

const ItemsQuery = Type.Object(
  {
    delivery: Type.Optional(Ulid('only items of this delivery')),
    camera: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'make, model, or "make model"' }),
    ),
    taken_from: Type.Optional(Type.String({ pattern: DATE, description: 'DateTimeOriginal on or after' })),
    taken_to: Type.Optional(Type.String({ pattern: DATE, description: 'DateTimeOriginal on or before' })),
    received_from: Type.Optional(Type.String({ pattern: DATE })),
    received_to: Type.Optional(Type.String({ pattern: DATE })),
    unit: Type.Optional(Ulid("only items whose subject is of this unit")),
    indicator: Type.Optional(Type.Union(INDICATOR_CODES.map((c) => Type.Literal(c)))),
    cluster: Type.Optional(
      Type.String({ pattern: '^[0-9a-f]{64}$|^[A-Za-z0-9_-]{1,80}$', description: 'a near-duplicate cluster id' }),
    ),
    sampled: Type.Optional(Type.Boolean()),
    examined: Type.Optional(Type.Boolean()),
    sort: Type.Optional(Type.Union(ITEM_SORTS.map((s) => Type.Literal(s)))),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    limit: Type.Optional(Limit(MAX_PAGE, 50)),
    offset: Type.Optional(Offset),
    cursor: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9_-]{1,600}$', description: 'next_cursor of the previous page' }),
    ),
  },
  { additionalProperties: false },
);

const ItemRow = Type.Object({
  id: Type.String(),
  seq: Type.Integer(),
  delivery: Type.String(),
  name: Type.String(),
  path: Type.String(),
  sha256: Type.String(),
  size: Type.Integer(),
  media_type: Type.String(),
  received_at: Type.String(),
  withdrawn: Type.Boolean(),
  analysed: Type.Boolean(),
  make: Nullable(Type.String()),
  model: Nullable(Type.String()),
  date_time_original: Nullable(Type.String()),
  subject: Nullable(Type.String()),
  unit: Nullable(Type.String()),
});

const TrailEntry = Type.Object({
  seq: Type.Integer(),
  time: Type.String(),
  actor: Type.String(),
  type: Type.String(),
  action: Nullable(Type.String()),
});

/** 'YYYY-MM-DD[THH[:MM[:SS]]]' as the EXIF text it bounds: 'YYYY:MM:DD[ HH[:MM[:SS]]]'. */
function exifDate(d: string): string {
  return d.replace(/^(\d{4})-(\d{2})-(\d{2})T?/, '$1:$2:$3 ').trimEnd();
}

function decodeCursor(c: string): { key: string; id: string } {
  try {
    const v = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string')
      return { key: v[0], id: v[1] };
  } catch {
    // fall through: not a cursor this server issued
  }
  throw new HttpError('HTTP_BAD_REQUEST', 'the cursor is not one this server issued', {
    details: { where: 'querystring', field: 'cursor' },
  });
}

function row(r: ItemListRow) {
  const withdrawn = r.withdrawn_seq !== null;
  return {
    id: r.id,
    seq: r.seq,
    delivery: r.delivery_id,
    name: r.name,
    path: r.relative_path,
    sha256: r.sha256,
    size: r.size,
    media_type: r.media_type,
    received_at: r.received_at,
    withdrawn,
    analysed: r.analysed === 1,
    // What was extracted from a withdrawn object is not shown (as `custody show`).
    make: withdrawn ? null : r.make,
    model: withdrawn ? null : r.model,
    date_time_original: withdrawn ? null : r.date_time_original,
    subject: r.subject_id,
    unit: r.unit_id,
  };
}

/**
 * The near-duplicate pairs this object is in, each with the other object (and its items), the
 * distance, the kind (pdq, pdq-dihedral, crop, overlap) and, for a verified crop, the box of the
 * larger view the other shows; for an overlap, the overlap's box in each. Withdrawn objects take no part (archiveSimilarity leaves them out).
 */
async function nearDuplicatesOf(
  sha256: string,
  similarity: ArchiveSimilarity,
  itemsOf: (sha256: string) => Promise<readonly { id: string; media_type: string }[]>,
) {
  const out = [];
  for (const p of similarity.pairs) {
    if (p.a !== sha256 && p.b !== sha256) continue;
    const other = p.a === sha256 ? p.b : p.a;
    const items = await itemsOf(other);
    out.push({
      sha256: other,
      items: items.map((i) => i.id).sort(),
      media_type: items[0]?.media_type ?? null,
      distance: p.distance,
      kind: p.kind,
      crop: p.crop === undefined ? null : { original: p.crop.original, box: p.crop.box, transform: p.crop.transform },
      // Two views that overlap (kind 'overlap'): the overlap's box in this object and in the other.
      overlap: p.overlap === undefined ? null : overlapSeenFrom(p.overlap, p.a === sha256),
    });
  }
  return out.sort((x, y) => x.distance - y.distance || x.sha256.localeCompare(y.sha256));
}

export const itemRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/items',
    blind: 'refused',
    access: { permission: 'evidence.read' },
    summary:
      'items, filtered (delivery, camera, dates, unit, indicator, cluster, sampled, examined) and paged (offset or cursor)',
    tags: ['items'],
    schema: {
      querystring: ItemsQuery,
      response: {
        200: Type.Object({
          items: Type.Array(ItemRow),
          total: Type.Integer(),
          limit: Type.Integer(),
          offset: Type.Integer(),
          next_cursor: Nullable(Type.String()),
        }),
      },
    },
    async handler({ query, archive, request }) {
      const filter: ItemFilter = {};
      if (query.delivery !== undefined) filter.delivery = query.delivery.toUpperCase();
      if (query.camera !== undefined) filter.camera = query.camera;
      if (query.taken_from !== undefined) filter.takenFrom = exifDate(query.taken_from);
      if (query.taken_to !== undefined) filter.takenTo = exifDate(query.taken_to);
      if (query.received_from !== undefined) filter.receivedFrom = query.received_from;
      if (query.received_to !== undefined) filter.receivedTo = query.received_to;
      if (query.unit !== undefined) filter.unit = query.unit.toUpperCase();
      if (query.sampled !== undefined) filter.sampled = query.sampled;
      if (query.examined !== undefined) filter.examined = query.examined;
      const derived = derivedOf(request.server.custody);
      let objects: string[] | undefined;
      if (query.indicator !== undefined) objects = await derived.objectsRaising(query.indicator);
      if (query.cluster !== undefined) {
        const { similarity } = await derived.collectionFacts();
        const c = similarity.clusters.find((x) => x.id === query.cluster);
        const inCluster = c?.objects ?? [];
        objects =
          objects === undefined ? inCluster : objects.filter((o) => inCluster.includes(o));
      }
      if (objects !== undefined) filter.objects = objects;
      const limit = query.limit ?? 50;
      const offset = query.offset ?? 0;
      const page = await archive.index.queries.page({
        filter,
        sort: query.sort ?? 'received',
        order: query.order ?? 'asc',
        limit,
        ...(query.cursor === undefined ? { offset } : { after: decodeCursor(query.cursor) }),
      });
      const last = page.rows.at(-1);
      return {
        items: page.rows.map(row),
        total: page.total,
        limit,
        offset: query.cursor === undefined ? offset : 0,
        next_cursor:
          last === undefined || page.rows.length < limit
            ? null
            : Buffer.from(JSON.stringify([last.sort_key, last.id])).toString('base64url'),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/items/:id',
    blind: 'refused',
    access: { permission: 'evidence.read' },
    summary:
      'one item: its object, metadata, indicators, near-duplicate cluster, decisions, subject and custody trail',
    tags: ['items'],
    schema: {
      params: IdParams('item'),
      response: {
        200: Open({
          id: Type.String(),
          sha256: Type.String(),
          item: Open({}),
          items: Type.Array(Open({})),
          near_duplicates: Type.Array(Open({})),
          /** As `custody similar --json` gives it: whether the grey-descriptor step ran. */
          grey_step: Type.Object({
            ran: Type.Boolean(),
            objects_needing_it: Type.Integer({ minimum: 0 }),
            limit: Type.Integer({ minimum: 0 }),
            needed_by_this_object: Type.Boolean(),
          }),
          subject: Nullable(Type.String()),
          trail: Type.Array(TrailEntry),
        }),
      },
    },
    async handler({ params, archive, request }) {
      const id = params.id.toUpperCase();
      const item = await archive.index.getItem(id);
      if (item === undefined)
        throw new HttpError('HTTP_NOT_FOUND', `no item ${id}`, { details: { item: id } });
      const derived = derivedOf(request.server.custody);
      const c = await derived.collectionFacts();
      const detail = await objectDetail(archive, id, {
        indicatorTime: new Date().toISOString(),
        derived: { similarity: c.similarity, indicators: c.indicators },
      });
      const subject = await archive.index.subjectOfItem(id);
      const seqs = await derived.trailSeqs(new Set([id, item.sha256]));
      const trail = [];
      for (const seq of seqs) {
        const [s] = await archive.ledger.read(seq, seq + 1);
        if (s === undefined) continue;
        const action = s.entry.details.action;
        trail.push({
          seq,
          time: s.entry.time,
          actor: s.entry.actor,
          type: s.entry.type,
          action: typeof action === 'string' ? action : null,
        });
      }
      return {
        id,
        ...detail,
        near_duplicates: await nearDuplicatesOf(detail.sha256, c.similarity, (s) => archive.index.itemsBySha256(s)),
        grey_step: greyStepOf(c.similarity.grey, detail.sha256),
        subject: subject?.subject_id ?? null,
        trail,
      };
    },
  }),
];
