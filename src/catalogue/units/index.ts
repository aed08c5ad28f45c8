// The public surface of src/catalogue/units/ for other modules: they import only this file
// (layering.config.js, rule 1). Adapters are not re-exported: the composition
// root (src/app.ts) builds them and hands them to the services.
export * from './attribution.service.js';
export * from './counts.service.js';
export * from './registry.js';
export * from './unit-rows.js';
export * from './units.service.js';
