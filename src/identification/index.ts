// The public surface of src/identification/ (issue 15) for other modules and the CLI
// (layering.config.js, rule 1). Services (reports.service.ts, pm.service.ts,
// candidates.service.ts) are imported by their own files; the key-file adapter by src/cli/.
export * from './errors.js';
export * from './codebook/identification-codebook.js';
export * from './codebook/record.js';
export * from './reports/ports.js';
export * from './reports/report-content.js';
export * from './reports/report-rows.js';
export * from './candidates/rank.js';
export * from './reports/subject-link-state.js';
export type { ReportKeys } from './reports/report-seal.js';
