// The public surface of src/accounts/ for other modules (layering.config.js, rule 1). The
// service (accounts.service.ts) is imported by its own file.
export * from './errors.js';
export * from './permissions.js';
export * from './password.js';
export * from './ports.js';
export * from './require-permission.js';
