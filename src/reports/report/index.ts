// The public surface of reports/report: gather (at a checkpoint) → model (pure) → HTML (pure, with
// charts drawn by reports/charts) → PDF (system Chromium).
export { bagCheckpointSize, checkBagCitations, type ReportBag } from './bag.js';
export { readReportBag } from './bag.adapter.js';
export { buildReportModel, type BuildOptions } from './build-model.js';
export { ReportError, type ReportErrorCode } from './errors.js';
export { bagQueries, formatQuery, resolvePointer, type Footnote } from './footnotes.js';
export { gatherReportInput, signedCheckpoint, type GatherPorts } from './gather.service.js';
export type { ReportInput } from './input.js';
export { REPORT_TEMPLATES, type ReportModel, type ReportTemplate } from './model.js';
export { DEFAULT_CHROMIUM, findChromium, printPdf } from './pdf.adapter.js';
export { GENERATED_MARKER, renderReportHtml } from './render-html.js';
export { reportHtml } from './report.service.js';
export { exhibitThumbnail } from './thumbnail.adapter.js';
export * from './prevalence-rows.js';
