// The public surface of src/archive/ for other modules, who import this file or a
// service by its own file (layering.config.js, rule 1). Services and adapters are not
// re-exported: a command loads only the services it calls, and the composition root
// (src/app.ts) builds the adapters.
export * from './errors.js';
export * from './layout.js';
export { sealSigningKey, openSigningKey, rawPublicKey, envelopePublicKey } from './key-envelope.js';
export * from './item-views.js';
export type { Kek } from './kek-file.adapter.js';
