// The public surface of src/ledger/ for other modules: they import only this file
// (layering.config.js, rule 1). Adapters are not re-exported: the composition
// root (src/app.ts) builds them and hands them to the services.
export * from './batch-intent.js';
export * from './entry.js';
export * from './errors.js';
export * from './ledger.service.js';
export * from './projection.js';
export * from './publish.service.js';
export * from './signed-checkpoint.js';
export * from './tail.service.js';
