import { Type } from 'typebox';
import { ledgerRows } from '../../catalogue/ledger-entries.service.js';
import type { TrailTarget } from '../../catalogue/index.js';
import { toHex } from '../../core/index.js';
import { latestSignedCheckpoint } from '../../ledger/index.js';
import { inclusionProofView } from '../../ledger/proof.service.js';
import { HttpError } from '../errors.js';
import { defineRoute, type RouteDef } from './route.js';
import { Limit, Nullable, Open, SHA256_PATTERN, Ulid } from './schemas.js';

const Seq = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const ledgerRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/ledger',
    blind: 'refused',
    access: { permission: 'ledger.read' },
    summary:
      'ledger entries from `from`, a page at a time, each with its leaf hash and canonical bytes (as `custody log --json`); optionally one thing\'s trail',
    tags: ['ledger'],
    schema: {
      querystring: Type.Object(
        {
          from: Type.Optional(Seq),
          limit: Type.Optional(Limit(1000, 100)),
          item: Type.Optional(Ulid('only entries naming this item (or its object)')),
          subject: Type.Optional(Ulid('only entries naming this subject')),
          object: Type.Optional(Type.String({ pattern: SHA256_PATTERN })),
        },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          size: Type.Integer(),
          entries: Type.Array(
            Type.Object({
              index: Type.Integer(),
              entry: Open({}),
              leaf_hash: Type.String(),
              canonical: Type.String(),
            }),
          ),
          next_from: Nullable(Type.Integer()),
        }),
      },
    },
    async handler({ query, archive }) {
      const targets: TrailTarget[] = [];
      if (query.item !== undefined) targets.push({ item: query.item.toUpperCase() });
      if (query.subject !== undefined) targets.push({ subject: query.subject.toUpperCase() });
      if (query.object !== undefined) targets.push({ object: query.object.toLowerCase() });
      if (targets.length > 1)
        throw new HttpError('HTTP_BAD_REQUEST', 'name one of item, subject or object', {
          details: { where: 'querystring' },
        });
      const limit = query.limit ?? 100;
      const entries = [];
      let nextFrom: number | null = null;
      const target = targets[0];
      for await (const row of ledgerRows(archive, {
        from: query.from ?? 0,
        ...(target === undefined ? {} : { target }),
      })) {
        if (entries.length === limit) {
          nextFrom = row.index;
          break;
        }
        entries.push(row);
      }
      return { size: archive.ledger.size, entries, next_from: nextFrom };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/checkpoints',
    blind: 'none',
    access: { permission: 'ledger.read' },
    summary:
      'the latest signed checkpoint (its signature and root verified): tree size, root in hex and base64, the signed note',
    tags: ['ledger'],
    schema: {
      response: {
        200: Type.Object({
          ledger_size: Type.Integer(),
          verifier_key: Type.String(),
          latest: Nullable(
            Type.Object({
              tree_size: Type.Integer(),
              root_hex: Type.String(),
              root_base64: Type.String(),
              note: Type.String(),
            }),
          ),
        }),
      },
    },
    async handler({ archive }) {
      const size = await latestSignedCheckpoint({
        ledger: archive.ledger,
        verifierKey: archive.verifierKey,
        origin: archive.manifest.origin,
      });
      const latest =
        size === null
          ? null
          : (() => {
              const root = archive.ledger.root(size);
              return { tree_size: size, root_hex: toHex(root), root_base64: root.toString('base64') };
            })();
      return {
        ledger_size: archive.ledger.size,
        verifier_key: archive.verifierKey,
        latest:
          latest === null || size === null
            ? null
            : { ...latest, note: (await archive.ledger.checkpointAt(size)) ?? '' },
      };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/proofs/:seq',
    blind: 'refused',
    access: { permission: 'ledger.read' },
    summary:
      'an RFC 9162 inclusion proof of entry `seq` in the tree of `size` entries (default: the latest signed checkpoint that covers it), as `custody prove inclusion --json`',
    tags: ['ledger'],
    schema: {
      params: Type.Object({ seq: Type.String({ pattern: '^[0-9]{1,15}$' }) }, { additionalProperties: false }),
      querystring: Type.Object(
        { size: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })) },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          type: Type.Literal('inclusion'),
          index: Type.Integer(),
          tree_size: Type.Integer(),
          leaf_hash: Type.String(),
          root: Type.String(),
          proof: Type.Array(Type.String()),
          canonical: Type.String(),
          checkpoint: Nullable(Type.String()),
        }),
      },
    },
    async handler({ params, query, archive }) {
      const seq = Number(params.seq);
      const size = archive.ledger.size;
      if (seq >= size || (query.size !== undefined && (query.size > size || seq >= query.size)))
        throw new HttpError(
          'HTTP_NOT_FOUND',
          `the ledger has ${size} entries; give an entry below the tree size, and a tree size up to ${size}`,
          { details: { seq, size: query.size ?? null, ledger_size: size } },
        );
      return inclusionProofView(archive.ledger, seq, query.size);
    },
  }),
];
