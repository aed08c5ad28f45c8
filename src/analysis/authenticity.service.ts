import type { ArchiveIndexRepository } from '../db/archive-index.repository.js';
import type { AnalysesTable, ItemsTable } from '../db/index.js';
import { archiveSimilarity, type SimilarityPorts } from './similarity/archive-similarity.service.js';
import {
  computeIndicators,
  summariseCollection,
  type CollectionSummary,
  type ImageFacts,
  type Indicator,
} from './indicators/index.js';

/** What the indicators read: the index (items, objects, analyses, withdrawals) and the near-duplicates' ports. */
export interface AuthenticityPorts extends SimilarityPorts {
  readonly index: SimilarityPorts['index'] & Pick<ArchiveIndexRepository, 'listObjects'>;
  readonly treeSize: number;
}

/**
 * The analysed collection as the indicators see it: one ImageFacts per object with every item
 * that received it. Withdrawn objects take no part.
 */
export async function loadImageFacts(archive: AuthenticityPorts): Promise<ImageFacts[]> {
  const withdrawn = new Set((await archive.index.withdrawnObjects()).map((o) => o.sha256));
  const items = new Map<string, ItemsTable[]>();
  for (const i of await archive.index.listItems()) {
    const list = items.get(i.sha256);
    if (list === undefined) items.set(i.sha256, [i]);
    else list.push(i);
  }
  const objects = new Map((await archive.index.listObjects()).map((o) => [o.sha256, o]));
  const analyses = await archive.index.listAnalyses();
  const cropOf = await cropOriginals(archive, analyses);
  return analyses
    .filter((a) => !withdrawn.has(a.sha256))
    .map((a) => {
      const facts = toFacts(
        a,
        items.get(a.sha256) ?? [],
        objects.get(a.sha256)?.media_type ?? 'application/octet-stream',
      );
      const crop = cropOf.get(a.sha256);
      return crop === undefined ? facts : { ...facts, cropOf: crop };
    });
}

/**
 * For each object verified as a crop of another (near-duplicate pairs, cached in the index),
 * the likely original and the box: DIMENSIONS_UNLIKE_CAMERA names it.
 */
async function cropOriginals(
  archive: AuthenticityPorts,
  analyses: readonly AnalysesTable[],
): Promise<Map<string, { sha256: string; box: string }>> {
  const out = new Map<string, { sha256: string; box: string }>();
  const { pairs } = await archiveSimilarity(archive, { analyses });
  for (const p of pairs) {
    if (p.crop === undefined) continue;
    const cropped = p.crop.original === p.a ? p.b : p.a;
    const b = p.crop.box;
    if (!out.has(cropped))
      out.set(cropped, { sha256: p.crop.original, box: [b.left, b.top, b.right, b.bottom].join(',') });
  }
  return out;
}

function toFacts(a: AnalysesTable, items: ItemsTable[], mediaType: string): ImageFacts {
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

/** Indicators for one object, judged against the rest of the collection. */
export async function indicatorsFor(
  archive: AuthenticityPorts,
  sha256: string,
  now: string,
  facts?: ImageFacts[],
): Promise<Indicator[] | null> {
  const all = facts ?? (await loadImageFacts(archive));
  const target = all.find((f) => f.sha256 === sha256);
  return target === undefined ? null : computeIndicators(target, all, { now });
}

export async function collectionSummary(archive: AuthenticityPorts, now: string): Promise<CollectionSummary> {
  return summariseCollection(await loadImageFacts(archive), { now });
}
