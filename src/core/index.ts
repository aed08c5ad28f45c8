// The public surface of core/: pure primitives with no I/O. Other modules import only this file.
export * from './errors.js';
export * from './sha256.js';
export * from './ids.js';
export * from './canonical-json.js';
export * from './merkle.js';
export * from './checkpoint.js';
export * from './actor-name.js';
export * from './calendar-date.js';
export * from './csv.js';
export * from './person-signature.js';
export * from './operation-context.js';
export * from './aead.js';
export * from './zeros.js';
