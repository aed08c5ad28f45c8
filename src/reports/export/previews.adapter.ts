import { ensurePreviews } from '../../analysis/image/preview-cache.adapter.js';
import type { Config } from '../../config/index.js';
import type { ItemsTable } from '../../db/index.js';
import { ExportError } from './errors.js';
import { hint } from '../../core/index.js';
import type { IndexReads, StoreReads } from './ports.js';

/** What a blurred stand-in reads: the object's analysis (orientation), its bytes, the previews folder. */
export type PreviewReads = IndexReads<'getAnalysis'> & StoreReads<'readObject'> & { readonly config: Pick<Config, 'archiveDir'> };

/** The small previews only: 256 px on the long edge, greyscale, Gaussian blur sigma 16. */
const PREVIEW_SIZE = 256;

/** Images get a blurred stand-in under --blur-images; other files travel as they are. */
export function isImage(item: ItemsTable): boolean {
  return item.media_type.startsWith('image/');
}

/**
 * The path of the object's strongly blurred greyscale preview (the one `custody preview` shows),
 * made now if it is not there yet. Derived, never evidence; its digest is recorded in
 * withheld.json and in the export's ledger entry, so what was handed over stays fixed.
 * Returns null when the image cannot be decoded (the item is then withheld outright).
 */
export async function blurredPreview(archive: PreviewReads, item: ItemsTable): Promise<string | null> {
  const analysis = await archive.index.getAnalysis(item.sha256);
  if (analysis === undefined) {
    throw new ExportError(
      'EXPORT_NOT_ANALYSED',
      `image ${item.id} has not been analysed yet, and a blurred stand-in needs its preview`,
      { details: hint({ field: 'blurImages', remedy: ['analyze'] }) },
    );
  }
  try {
    const paths = await ensurePreviews(
      archive.config.archiveDir,
      () => archive.store.readObject(item.sha256),
      item.sha256,
      PREVIEW_SIZE,
      analysis.orientation,
    );
    return paths.blurred;
  } catch {
    return null; // undecodable bytes (the analysis warned about them): nothing safe to show
  }
}
