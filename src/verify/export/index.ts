// The offline verifier of Custody export bags (src/reports/export/LAYOUT.md).
export { checkLedgerLines, PROCESS_INCOMPLETE, type ProvenLedger } from './check-ledger.js';
export { verifyExport, type ExportReport, type VerifyExportOptions } from './verify-export.js';
export { parsePinnedKey, type VerifierKey } from './keys.js';
export { UNPINNED_WARNING, type KeySource } from './check-checkpoint.js';
export type { ExportCode, ExportFinding, FindingCode, StepReport } from './findings.js';
