// Unblurred 256 px thumbnails of exhibits for `custody report --include-images`, as data: URIs.
// The same derived previews `custody preview --unblurred` serves, made on first request.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Archive } from '../../app.js';
import { decodeForAnalysis, writePreviews } from '../../analysis/image/image-decode.adapter.js';
import { previewPaths } from '../../jobs/analysis-worker.service.js';
import { ReportError } from './errors.js';

export async function exhibitThumbnail(archive: Archive, sha256: string): Promise<string> {
  const analysis = await archive.index.getAnalysis(sha256);
  if (analysis === undefined) {
    throw new ReportError(
      'REPORT_UNKNOWN_EXHIBIT',
      `--include-images: object ${sha256} is not an analysed image (run \`custody analyze\`)`,
    );
  }
  const paths = previewPaths(archive, sha256, 256);
  if (!existsSync(paths.plain) || !existsSync(paths.blurred)) {
    const decoded = await decodeForAnalysis(await readFile(archive.store.pathOf(sha256)));
    await writePreviews(decoded.raster, analysis.orientation, 256, paths);
  }
  return `data:image/webp;base64,${(await readFile(paths.plain)).toString('base64')}`;
}
