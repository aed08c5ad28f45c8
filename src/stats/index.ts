// The public surface of stats/: estimates, intervals and agreement over plain arrays. Pure: no
// I/O, so an outsider can audit every formula against the source its doc comment cites.
export * from './errors.js';
export * from './special.js';
export * from './proportion.js';
export * from './hypergeometric.js';
export * from './stratified.js';
export * from './prng.js';
export * from './bootstrap.js';
export * from './ratings.js';
export * from './kappa.js';
export * from './krippendorff.js';
export * from './agreement.js';
