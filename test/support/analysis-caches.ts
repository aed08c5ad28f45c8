// Shared by the tests of the caches behind `show` (indicator-cache, analysis-cache-key).
import sharp from 'sharp';
import { scene } from './crop-scenes.js';

/** The index reads of every row of a table: what `show` must not do when its caches are current. */
export const COLLECTION_READS = [
  'listAnalysisFacts',
  'listAnalyses',
  'listItemReceipts',
  'listItems',
  'listObjects',
] as const;

/** The painted scene `seed`, saved by an editor: it raises EDITING_SOFTWARE. */
export async function editedScene(seed: string): Promise<Buffer> {
  return sharp(await scene(seed))
    .withExif({ IFD0: { Make: 'Nikon', Model: 'D-Test', Software: 'Adobe Photoshop 25.0' } })
    .jpeg({ quality: 90 })
    .toBuffer();
}
