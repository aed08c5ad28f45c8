// verify/: offline verification that an outsider can audit. Pure; imports only core/. The bag
// adapters (bagit/bag-dir.adapter.ts, bagit/bag-zip.adapter.ts) are imported directly by callers.
export * from './bagit/index.js';
export * from './export/index.js';
