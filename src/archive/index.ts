// The public surface of src/archive/ for other modules: they import only this file
// (layering.config.js, rule 1). Adapters are not re-exported: the composition
// root (src/app.ts) builds them and hands them to the services.
export * from './errors.js';
export * from './key-rewrap.service.js';
export * from './layout.js';
export * from './purge.service.js';
export * from './withdrawal.service.js';
