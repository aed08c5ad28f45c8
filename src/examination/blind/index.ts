// The public surface of src/examination/blind/ for other modules: they import only this file
// (layering.config.js, rule 1). Adapters are not re-exported: the composition
// root (src/app.ts) builds them and hands them to the services.
export * from './batch.service.js';
export * from './case-outcomes.js';
export * from './examination-errors.js';
export * from './examination.service.js';
export * from './form-sheet.js';
export * from './outcomes.js';
export * from './reveal-catch-up.js';
