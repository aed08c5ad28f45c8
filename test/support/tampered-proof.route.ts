// A route for browser tests only (issue 13, "tamper the proof through a test route"): the
// inclusion proof of GET /api/proofs/:seq with one hash altered. It lives under test/, which no
// build includes (tsconfig.build.json), and reaches a server only through buildServer's `routes`
// option, which `custody serve` never passes: a production server answers it 404 (tested in
// test/e2e/ui/item-page.test.ts).
import { Type } from 'typebox';
import { inclusionProofView } from '../../src/ledger/proof.service.js';
import { HttpError } from '../../src/http/errors.js';
import { defineRoute, type RouteDef } from '../../src/http/routes/index.js';

export const TAMPERED_PROOF_URL = '/api/test/tampered-proof/:seq';

/** Flips the lowest bit of the first byte of a hex hash. */
function flip(hex: string): string {
  const b = (parseInt(hex.slice(0, 2), 16) ^ 1).toString(16).padStart(2, '0');
  return b + hex.slice(2);
}

export const tamperedProofRoute: RouteDef = defineRoute({
  method: 'GET',
  url: TAMPERED_PROOF_URL,
  blind: 'refused',
  access: { permission: 'ledger.read' },
  summary: 'TEST ONLY: an inclusion proof with one hash altered (the first sibling, else the leaf)',
  tags: ['test'],
  schema: {
    params: Type.Object({ seq: Type.String({ pattern: '^[0-9]{1,15}$' }) }, { additionalProperties: false }),
    querystring: Type.Object(
      { size: Type.Optional(Type.Integer({ minimum: 1 })) },
      { additionalProperties: false },
    ),
  },
  async handler({ params, query, archive }) {
    const seq = Number(params.seq);
    const size = archive.ledger.size;
    if (seq >= size || (query.size !== undefined && (query.size > size || seq >= query.size)))
      throw new HttpError('HTTP_NOT_FOUND', `the ledger has ${size} entries`, { details: { seq } });
    const view = await inclusionProofView(archive.ledger, seq, query.size);
    const [first, ...rest] = view.proof;
    return first === undefined
      ? { ...view, leaf_hash: flip(view.leaf_hash) }
      : { ...view, proof: [flip(first), ...rest] };
  },
});
