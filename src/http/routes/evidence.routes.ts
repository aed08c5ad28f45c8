import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Archive } from '../../app.js';
import { ArchiveError } from '../../archive/index.js';
import { recordView, type ViewAction } from '../../archive/views.service.js';
import { assertNotWithdrawn } from '../../archive/withdrawal.service.js';
import { losslessRendition } from '../../analysis/image/image-decode.adapter.js';
import { ensurePreviews, readPreview } from '../../analysis/image/preview-cache.adapter.js';
import { fullExifDump } from '../../analysis/metadata/index.js';
import { StoreError } from '../../store/index.js';
import { HttpError } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import { defineRoute, type RouteDef } from './route.js';
import { IdParams } from './schemas.js';

/**
 * Types a browser may render inline: raster images only. SVG is an image that runs script, and
 * HTML is a page: both, and everything else, go as an opaque download.
 */
const INLINE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/tiff',
  'image/heic',
  'image/heif',
]);

/** Set on every evidence response, before anything can fail: bytes are never a page. */
export function evidenceHeaders(reply: FastifyReply): void {
  void reply.header('X-Content-Type-Options', 'nosniff');
  void reply.header('Content-Security-Policy', "default-src 'none'; sandbox");
  void reply.header('Cross-Origin-Resource-Policy', 'same-origin');
  void reply.header('Cache-Control', 'private, no-cache');
}

/** A file name for Content-Disposition: ASCII fallback plus RFC 5987/6266 filename*. */
export function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\;]/g, '_').slice(0, 150) || 'evidence';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name.slice(0, 150))}`;
}

/**
 * One `Range: bytes=…` (RFC 9110 §14.1.2) against `size`: the inclusive [start, end], null for no
 * range (or another unit), 'unsatisfiable' for a malformed, multiple or out-of-bounds range.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (header === undefined) return null;
  const m = /^bytes=(.*)$/i.exec(header.trim());
  if (m === null) return null;
  const spec = (m[1] ?? '').trim();
  const one = /^(\d{0,15})-(\d{0,15})$/.exec(spec);
  if (one === null) return 'unsatisfiable';
  const [, a = '', b = ''] = one;
  if (a === '' && b === '') return 'unsatisfiable';
  if (a === '') {
    const n = Number(b);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Records the view in the writer's queue (one entry per account, item, hour and action). */
export async function recordViewOf(
  request: FastifyRequest,
  archive: Archive,
  ctx: RequestContext,
  view: { action: ViewAction; item: string; sha256: string; size?: number },
): Promise<void> {
  const state = request.server.custody;
  await state.serialWrite(() =>
    recordView(
      {
        viewRecorded: (k) => archive.index.queries.viewRecorded(k),
        views: (f) => archive.index.queries.views(f),
        commit: (d) => archive.commit(d),
      },
      { actor: ctx.actor, clock: state.clock },
      view,
    ),
  );
}

/**
 * A WebP preview of `item` (blurred greyscale, or plain and recorded as a view), named `fileName`:
 * the item routes' and the examination's (a case's photographs, by case-scoped ordinal).
 */
export async function sendPreview(
  { archive, ctx, request, reply }: { archive: Archive; ctx: RequestContext; request: FastifyRequest; reply: FastifyReply },
  item: { id: string; sha256: string },
  size: 256 | 1280,
  unblurred: boolean,
  fileName: string,
): Promise<FastifyReply> {
  // A preview of withdrawn content is that content: refused, blurred or not (ITEM_WITHDRAWN).
  await assertNotWithdrawn(archive, item.sha256, 'preview');
  const analysis = await archive.index.getAnalysis(item.sha256);
  if (analysis === undefined)
    throw new ArchiveError('NOT_FOUND', `object ${item.sha256} has not been analysed yet`, {
      details: { sha256: item.sha256 },
    });
  const paths = await ensurePreviews(
    archive.config.archiveDir,
    () => archive.store.readObject(item.sha256),
    item.sha256,
    size,
    analysis.orientation,
  );
  if (unblurred)
    await recordViewOf(request, archive, ctx, {
      action: 'view.unblurred',
      item: item.id,
      sha256: item.sha256,
    });
  const bytes = await readPreview(unblurred ? paths.plain : paths.blurred);
  void reply.header('Content-Disposition', disposition('inline', fileName));
  return reply.type('image/webp').send(bytes);
}

async function itemOf(archive: Archive, id: string) {
  const item = await archive.index.getItem(id.toUpperCase());
  if (item === undefined)
    throw new HttpError('HTTP_NOT_FOUND', `no item ${id}`, { details: { item: id } });
  return item;
}

export const evidenceRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/items/:id/original',
    blind: 'per-item',
    access: { permission: 'evidence.read' },
    summary:
      "the item's original bytes, streamed, with range requests; ETag is the SHA-256; each download is a ledger entry (one per account, item and hour)",
    tags: ['evidence'],
    schema: { params: IdParams('item') },
    async handler({ params, archive, ctx, request, reply }) {
      evidenceHeaders(reply);
      const item = await itemOf(archive, params.id);
      await assertNotWithdrawn(archive, item.sha256, 'original');
      const object = await archive.index.getObject(item.sha256);
      if (object === undefined)
        throw new ArchiveError('NOT_FOUND', `no object ${item.sha256} in this archive`);
      const etag = `"${item.sha256}"`;
      void reply.header('ETag', etag);
      void reply.header('Accept-Ranges', 'bytes');
      const inline = INLINE_TYPES.has(object.media_type);
      void reply.header('Content-Disposition', disposition(inline ? 'inline' : 'attachment', item.name));
      void reply.type(inline ? object.media_type : 'application/octet-stream');
      const fh = await archive.store.openObject(item.sha256);
      let handed = false;
      try {
        const size = (await fh.stat()).size;
        // The index says how long the object is; a file of another length is not the evidence.
        if (size !== object.size)
          throw new StoreError(
            'STORE_DIGEST_MISMATCH',
            `object ${item.sha256} in the store is ${size} bytes, not the ${object.size} recorded`,
            { details: { sha256: item.sha256 } },
          );
        const range = parseRange(request.headers.range, size);
        if (range === 'unsatisfiable') {
          void reply.header('Content-Range', `bytes */${size}`);
          throw new HttpError('HTTP_RANGE_NOT_SATISFIABLE', `this object has ${size} bytes`, {
            details: { size },
          });
        }
        // A view of the original is evidence: recorded before a byte is sent (fail closed).
        await recordViewOf(request, archive, ctx!, {
          action: 'view.original',
          item: item.id,
          sha256: item.sha256,
          size,
        });
        const inm = request.headers['if-none-match'];
        if (inm !== undefined && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*'))
          return reply.status(304).send();
        if (range === null) {
          void reply.header('Content-Length', size);
          handed = true;
          return reply.send(fh.createReadStream({ highWaterMark: 1 << 20 }));
        }
        void reply.status(206);
        void reply.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
        void reply.header('Content-Length', range.end - range.start + 1);
        handed = true;
        return reply.send(fh.createReadStream({ start: range.start, end: range.end }));
      } finally {
        if (!handed) await fh.close();
      }
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/items/:id/preview',
    blind: 'per-item',
    access: { permission: 'evidence.read' },
    summary:
      'a WebP preview (blurred greyscale, 32 px on the long edge at any size for the page to scale up, unless unblurred=true; an unblurred one is a ledger entry, one per account, item and hour)',
    tags: ['evidence'],
    schema: {
      params: IdParams('item'),
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
      const item = await itemOf(archive, params.id);
      const size = query.size ?? 256;
      return sendPreview({ archive, ctx: ctx!, request, reply }, item, size, query.unblurred === true, `${item.id}.${size}.webp`);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/items/:id/rendition',
    blind: 'per-item',
    access: { permission: 'evidence.read' },
    summary:
      "a lossless full-size PNG of an image a browser cannot render (TIFF, HEIC…), labelled derived (X-Custody-Derived); each view is a ledger entry (one per account, item and hour)",
    tags: ['evidence'],
    schema: { params: IdParams('item') },
    async handler({ params, archive, ctx, request, reply }) {
      evidenceHeaders(reply);
      const item = await itemOf(archive, params.id);
      await assertNotWithdrawn(archive, item.sha256, 'original');
      const object = await archive.index.getObject(item.sha256);
      if (object === undefined || !object.media_type.startsWith('image/'))
        throw new HttpError('HTTP_NOT_FOUND', `item ${item.id} is not an image`, {
          details: { item: item.id },
        });
      const bytes = await archive.store.readObject(item.sha256);
      const { png, width, height } = await losslessRendition(bytes);
      // The full-size pixels of the original are a view of it: recorded before a byte is sent.
      await recordViewOf(request, archive, ctx!, {
        action: 'view.rendition',
        item: item.id,
        sha256: item.sha256,
        size: bytes.length,
      });
      void reply.header('X-Custody-Derived', `png; from=${item.sha256}; width=${width}; height=${height}`);
      void reply.header('Content-Disposition', disposition('inline', `${item.id}.derived.png`));
      return reply.type('image/png').send(png);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/items/:id/exif',
    blind: 'refused',
    access: { permission: 'evidence.read' },
    summary: "the full ExifTool dump of the item's object (exiftool -json -n -G), as `custody exif`",
    tags: ['evidence'],
    schema: {
      params: IdParams('item'),
      response: { 200: Type.Object({ sha256: Type.String(), dump: Type.Record(Type.String(), Type.Unknown()) }) },
    },
    async handler({ params, archive }) {
      const item = await itemOf(archive, params.id);
      // A withdrawal hides what was extracted from the object too (GPS, EXIF): ITEM_WITHDRAWN.
      await assertNotWithdrawn(archive, item.sha256, 'metadata');
      // ExifTool reads by path: check first that the store holds a regular file there.
      await (await archive.store.openObject(item.sha256)).close();
      return { sha256: item.sha256, dump: await fullExifDump(archive.store.pathOf(item.sha256)) };
    },
  }),
];
