// Unblurred 256 px thumbnails of exhibits for `custody report --include-images`, as data: URIs.
// The same derived previews `custody preview --unblurred` serves, made on first request.
import { readFile } from 'node:fs/promises';
import type { Archive } from '../../app.js';
import { ensurePreviews } from '../../analysis/image/preview-cache.adapter.js';
import { withdrawalsNow } from '../../archive/withdrawal.service.js';
import { ReportError } from './errors.js';

/**
 * The exhibit's thumbnail, or null when its object is withdrawn (also after the report's
 * checkpoint): a report never embeds withdrawn content.
 */
export async function exhibitThumbnail(archive: Archive, sha256: string): Promise<string | null> {
  if ((await withdrawalsNow(archive)).has(sha256)) return null;
  const analysis = await archive.index.getAnalysis(sha256);
  if (analysis === undefined) {
    throw new ReportError(
      'REPORT_UNKNOWN_EXHIBIT',
      `--include-images: object ${sha256} is not an analysed image (run \`custody analyze\`)`,
    );
  }
  const paths = await ensurePreviews(
    archive.config.archiveDir,
    () => archive.store.readObject(sha256),
    sha256,
    256,
    analysis.orientation,
  );
  return `data:image/webp;base64,${(await readFile(paths.plain)).toString('base64')}`;
}
