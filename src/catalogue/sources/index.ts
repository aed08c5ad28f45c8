// The public surface of src/catalogue/sources/ for other modules: they import only this file
// (layering.config.js, rule 1). Adapters are not re-exported: the composition
// root (src/app.ts) builds them and hands them to the services.
export * from './sources.service.js';
