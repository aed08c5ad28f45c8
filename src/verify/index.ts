// verify/: offline verification that an outsider can audit. Pure: core/, and for check 7 the pure ledger projection, sampling draw, commitment check and statistics core. The bag
// adapters (bagit/bag-dir.adapter.ts, bagit/bag-zip.adapter.ts) are imported directly by callers.
export * from './bagit/index.js';
export * from './export/index.js';
