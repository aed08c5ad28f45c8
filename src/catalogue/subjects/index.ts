// The public surface of src/catalogue/subjects/ for other modules: they import only this file
// (layering.config.js, rule 1). Adapters are not re-exported: the composition
// root (src/app.ts) builds them and hands them to the services.
export * from './demographics.js';
export * from './subject-rows.js';
export * from './subjects.service.js';
export * from './suggestions.service.js';
