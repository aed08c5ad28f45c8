// The 'analyze-image' job's intake rule. Ingest queues the job and `custody analyze` tops the
// queue up, so the rule lives with the job queue rather than inside analysis/: intake then
// never reaches into the analysis module (which loads the image libraries).

/** Media types the image analysis takes (the formats its decoder reads). */
export function isAnalysable(mediaType: string): boolean {
  return ['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif'].includes(mediaType);
}
