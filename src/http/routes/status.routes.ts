import { Type } from 'typebox';
import { latestSignedCheckpoint } from '../../ledger/index.js';
import { defineRoute, type RouteDef } from './route.js';

export const statusRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/status',
    blind: 'none',
    access: 'signed-in',
    summary: 'the archive: ledger size, latest signed checkpoint, verifier key, counts',
    tags: ['archive'],
    schema: {
      response: {
        200: Type.Object({
          archive: Type.String(),
          origin: Type.String(),
          database: Type.String(),
          ledger_size: Type.Integer(),
          signed_checkpoint: Type.Union([Type.Integer(), Type.Null()]),
          checkpoint_note: Type.Union([Type.String(), Type.Null()], {
            description:
              'the signed checkpoint note (C2SP signed-note) at signed_checkpoint: a page can check it with verifier_key',
          }),
          verifier_key: Type.String(),
          items: Type.Integer(),
          objects: Type.Integer(),
          deliveries: Type.Integer(),
        }),
      },
    },
    async handler({ archive }) {
      const [items, objects, deliveries, signed] = await Promise.all([
        archive.index.countItems(),
        archive.index.countObjects(),
        archive.index.listDeliveries(),
        latestSignedCheckpoint({
          ledger: archive.ledger,
          verifierKey: archive.verifierKey,
          origin: archive.manifest.origin,
        }),
      ]);
      const note = signed === null ? null : await archive.ledger.checkpointAt(signed);
      return {
        archive: archive.manifest.id,
        origin: archive.manifest.origin,
        database: archive.manifest.database,
        ledger_size: archive.ledger.size,
        signed_checkpoint: signed,
        checkpoint_note: note,
        verifier_key: archive.verifierKey,
        items,
        objects,
        deliveries: deliveries.length,
      };
    },
  }),
];
