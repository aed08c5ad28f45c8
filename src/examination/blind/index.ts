// The public surface of src/examination/blind/ for other modules, who import this file or a
// service by its own file (layering.config.js, rule 1). Services and adapters are not
// re-exported: a command loads only the services it calls, and the composition root
// (src/app.ts) builds the adapters.
export * from './case-outcomes.js';
export * from './examination-errors.js';
export * from './form-sheet.js';
export * from './outcomes.js';
export * from './reveal-catch-up.js';
export * from './reveal-rule.js';
export * from './seal.js';
export * from './blind-access.js';
export * from './plan-key.js';
export * from './plan-access.js';
export * from './examiners.js';
export * from './person-signing.js';
export * from './signed-acts.js';
