// The public surface of src/ledger/ for other modules, who import this file or a
// service by its own file (layering.config.js, rule 1). Services and adapters are not
// re-exported: a command loads only the services it calls, and the composition root
// (src/app.ts) builds the adapters.
export * from './batch-intent.js';
export * from './entry.js';
export * from './entry-details.js';
export * from './entry-parse.js';
export * from './errors.js';
export * from './projection.js';
export * from './signed-checkpoint.js';
export * from './ledger-writer.js';
