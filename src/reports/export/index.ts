// The public surface of reports/export: `custody export` (LAYOUT.md is the bag's contract).
export {
  exportBag,
  type ExportDeps,
  type ExportOptions,
  type ExportResult,
} from './export.service.js';
export type { Withheld } from './payload.js';
export { ExportError, type ExportErrorCode } from './errors.js';
export { parseSelection, type SelectionTerm } from './selection.js';
export { packageRoot } from './reference-files.adapter.js';
export { receiptPath, type ExportReceipt } from './receipt.js';
