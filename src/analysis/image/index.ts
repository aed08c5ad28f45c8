// The public surface of analysis/image for other modules: the pure pieces only. The analysis
// service is imported by its own file, and the decoder and preview cache adapters are never
// re-exported (a command that does not decode must not load sharp).
export * from './preview-paths.js';
