import type { AnalysisFactsRow, ArchiveIndexRepository } from '../db/archive-index.repository.js';
import {
  archiveSimilarity,
  cropOrigins,
  readCropOriginOf,
  type SimilarityPorts,
} from './similarity/archive-similarity.service.js';
import type { SimilarPair } from './similarity/similarity.service.js';
import type { CropOrigin } from './similarity/similarity-cache.js';
import {
  computeIndicators,
  summariseCollection,
  type CollectionSummary,
  type ImageFacts,
  type Indicator,
} from './indicators/index.js';

/** What the indicators read: the index (items, objects, analyses, withdrawals) and the near-duplicates' ports. */
type ItemReceiptRow = Awaited<ReturnType<ArchiveIndexRepository['listItemReceipts']>>[number];

export interface AuthenticityPorts extends SimilarityPorts {
  readonly index: SimilarityPorts['index'] &
    Pick<ArchiveIndexRepository, 'listObjects' | 'listAnalysisFacts' | 'listItemReceipts'>;
  readonly treeSize: number;
}

/**
 * The analysed collection as the indicators see it: one ImageFacts per object with every item
 * that received it. Withdrawn objects take no part. The likely originals of crops come from
 * `pairs` when the caller has the archive's near-duplicate pairs, else from archiveSimilarity;
 * `crops: false` leaves them out (the indicators of one object read only its own: indicatorsFor).
 */
export async function loadImageFacts(
  archive: AuthenticityPorts,
  opts: { pairs?: readonly SimilarPair[]; crops?: boolean } = {},
): Promise<ImageFacts[]> {
  const withdrawn = new Set((await archive.index.withdrawnObjects()).map((o) => o.sha256));
  const items = new Map<string, ItemReceiptRow[]>();
  for (const i of await archive.index.listItemReceipts()) {
    const list = items.get(i.sha256);
    if (list === undefined) items.set(i.sha256, [i]);
    else list.push(i);
  }
  const objects = new Map((await archive.index.listObjects()).map((o) => [o.sha256, o]));
  // The search reads every column; the facts alone need fewer (listAnalysisFacts).
  let analyses: readonly AnalysisFactsRow[];
  let cropOf: Map<string, CropOrigin>;
  if (opts.crops !== false && opts.pairs === undefined) {
    const all = await archive.index.listAnalyses();
    analyses = all;
    cropOf = cropOrigins((await archiveSimilarity(archive, { analyses: all })).pairs);
  } else {
    analyses = await archive.index.listAnalysisFacts();
    cropOf = cropOrigins(opts.pairs ?? []);
  }
  return analyses
    .filter((a) => !withdrawn.has(a.sha256))
    .map((a) => {
      const facts = toFacts(
        a,
        items.get(a.sha256) ?? [],
        objects.get(a.sha256)?.media_type ?? 'application/octet-stream',
      );
      const crop = cropOf.get(a.sha256);
      return crop === undefined ? facts : { ...facts, cropOf: cropOfFact(crop) };
    });
}

/** DIMENSIONS_UNLIKE_CAMERA names the likely original and the box: 'left,top,right,bottom'. */
function cropOfFact(o: CropOrigin): { sha256: string; box: string } {
  const b = o.box;
  return { sha256: o.original, box: [b.left, b.top, b.right, b.bottom].join(',') };
}

function toFacts(a: AnalysisFactsRow, items: ItemReceiptRow[], mediaType: string): ImageFacts {
  return {
    sha256: a.sha256,
    items: items.map((i) => ({
      id: i.id,
      name: i.name,
      relativePath: i.relative_path,
      delivery: i.delivery_id,
    })),
    mediaType,
    make: a.make,
    model: a.model,
    bodySerial: a.body_serial,
    software: a.software,
    xmpCreatorTool: a.xmp_creator_tool,
    xmpHistorySoftware: JSON.parse(a.xmp_history_json) as string[],
    dateTimeOriginal: a.date_time_original,
    createDate: a.create_date,
    modifyDate: a.modify_date,
    offsetTimeOriginal: a.offset_time_original,
    subSecTimeOriginal: a.sub_sec_time_original,
    exifPresent: a.exif_present === 1,
    width: a.width,
    height: a.height,
    orientation: a.orientation,
    quantDigest: a.quant_digest,
    estimatedQuality: a.jpeg_quality,
    pdq: a.pdq,
    thumbnailPdq: a.thumbnail_pdq,
  };
}

/**
 * The time indicators are judged at ("more than a day after the analysis time"). Normally now; for
 * an archive viewed `--at` a tree size, the time of that snapshot's last ledger entry, so that the
 * same query at the same checkpoint gives the same answer next year (reports cite `--at`).
 */
export async function indicatorTime(archive: AuthenticityPorts, at: number | undefined): Promise<string> {
  if (at === undefined) return new Date().toISOString();
  const [last] = await archive.ledger.read(archive.treeSize - 1, archive.treeSize);
  if (last === undefined) throw new Error(`ledger entry ${archive.treeSize - 1} could not be read`);
  return last.entry.time;
}

/**
 * Indicators for one object, judged against the rest of the collection. Without `facts`, only
 * this object's likely original is read (readCropOriginOf: a checked cached line), not every pair:
 * no other object's is looked at.
 */
export async function indicatorsFor(
  archive: AuthenticityPorts,
  sha256: string,
  now: string,
  facts?: ImageFacts[],
): Promise<Indicator[] | null> {
  const all = facts ?? (await loadImageFacts(archive, { crops: false }));
  const found = all.find((f) => f.sha256 === sha256);
  if (found === undefined) return null;
  const crop = facts === undefined && found.pdq !== null ? await readCropOriginOf(archive, sha256) : undefined;
  const target = crop == null ? found : { ...found, cropOf: cropOfFact(crop) };
  return computeIndicators(target, all, { now });
}

export async function collectionSummary(archive: AuthenticityPorts, now: string): Promise<CollectionSummary> {
  return summariseCollection(await loadImageFacts(archive), { now });
}
