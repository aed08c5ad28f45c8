// 256 px thumbnails of exhibits for `custody report --include-images`, as data: URIs: blurred
// greyscale by default (the tiny blurred preview scaled up to 256 px), the plain thumbnail only
// with --unblurred-images. Made in memory from the object's stored bytes, checked against its
// SHA-256, never read from derived/previews/: a file there can be edited by anyone with the folder,
// and a report must not show a planted picture (or the unblurred one) under an exhibit's digest.
import {
  blurredAtPlainSize,
  decodeForAnalysis,
  makePreviews,
} from '../../analysis/image/image-decode.adapter.js';
import { withdrawalsNow, type WithdrawalReads } from '../../archive/withdrawal.service.js';
import type { StoreReads } from '../export/ports.js';
import { sha256 as digest, hint } from '../../core/index.js';
import { ReportError } from './errors.js';

/** Long edge of an exhibit thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 256;

/**
 * The exhibit's thumbnail, or null when its object is withdrawn (also after the report's
 * checkpoint): a report never embeds withdrawn content.
 */
export async function exhibitThumbnail(
  archive: WithdrawalReads<'getAnalysis'> & StoreReads<'readObject'>,
  sha256: string,
  opts: { unblurred: boolean } = { unblurred: false },
): Promise<string | null> {
  if ((await withdrawalsNow(archive)).has(sha256)) return null;
  const analysis = await archive.index.getAnalysis(sha256);
  if (analysis === undefined) {
    throw new ReportError(
      'REPORT_UNKNOWN_EXHIBIT',
      `object ${sha256} is not an analysed image`,
      { details: hint({ field: 'includeImages', remedy: ['analyze'] }) },
    );
  }
  const bytes = await archive.store.readObject(sha256);
  if (digest(bytes).toString('hex') !== sha256) {
    throw new ReportError(
      'REPORT_EXHIBIT_DAMAGED',
      `the stored bytes of object ${sha256} do not match its SHA-256; no thumbnail is made of them`,
      { details: { sha256, ...hint({ field: 'includeImages', remedy: ['verify'] }) } },
    );
  }
  const decoded = await decodeForAnalysis(bytes);
  const previews = await makePreviews(decoded.raster, analysis.orientation, THUMBNAIL_SIZE);
  // The blurred preview is tiny (the UI scales it up); a report page shows it at the plain size.
  const webp = opts.unblurred ? previews.plain : await blurredAtPlainSize(previews);
  return `data:image/webp;base64,${webp.toString('base64')}`;
}
