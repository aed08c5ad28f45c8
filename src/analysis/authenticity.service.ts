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
  decodeRaisedOf,
  encodeRaised,
  INDICATORS_CACHE_KEY,
  indicatorsKeyOf,
} from './indicator-cache.js';
import {
  computeIndicators,
  indicatorEvaluator,
  modelKey,
  MODEL_SCOPED_CODES,
  summariseCollection,
  type CollectionSummary,
  type ImageFacts,
  type Indicator,
  type IndicatorCode,
} from './indicators/index.js';

/** What the indicators read: the index (items, objects, analyses, withdrawals) and the near-duplicates' ports. */
type ItemReceiptRow = Awaited<ReturnType<ArchiveIndexRepository['listItemReceipts']>>[number];

export interface AuthenticityPorts extends SimilarityPorts {
  readonly index: SimilarityPorts['index'] &
    Pick<
      ArchiveIndexRepository,
      | 'listObjects'
      | 'listAnalysisFacts'
      | 'listItemReceipts'
      | 'listAnalysisModels'
      | 'indicatorFactsOf'
    >;
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
  const items = receiptsBySha(await archive.index.listItemReceipts());
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

function receiptsBySha(rows: readonly ItemReceiptRow[]): Map<string, ItemReceiptRow[]> {
  const items = new Map<string, ItemReceiptRow[]>();
  for (const i of rows) {
    const list = items.get(i.sha256);
    if (list === undefined) items.set(i.sha256, [i]);
    else list.push(i);
  }
  return items;
}

/** Judged from the target's camera model's images alone (indicators/model-scope.ts). */
const MODEL_SCOPED: ReadonlySet<IndicatorCode> = new Set(MODEL_SCOPED_CODES);

/**
 * The target and every other current (not withdrawn) analysed object of its camera model (none
 * when it names no model), as loadImageFacts would make them, in the same order: what the
 * MODEL_SCOPED checks read. Undefined when the target is not analysed or is withdrawn.
 */
async function modelPeerFacts(
  archive: AuthenticityPorts,
  sha256: string,
): Promise<{ target: ImageFacts; collection: ImageFacts[] } | undefined> {
  const own = await archive.index.indicatorFactsOf([sha256]);
  const ownRow = own.analyses[0];
  if (ownRow === undefined) return undefined;
  const key = modelKey({ make: ownRow.make, model: ownRow.model });
  const peers =
    key === null
      ? []
      : (await archive.index.listAnalysisModels())
          .filter((a) => modelKey(a) === key)
          .map((a) => a.sha256);
  const read = key === null ? own : await archive.index.indicatorFactsOf([sha256, ...peers]);
  // Withdrawn as withdrawnObjects says (withdrawn_seq set), read from the rows already here: that
  // query scans every object.
  const objects = new Map(read.objects.map((o) => [o.sha256, o]));
  const withdrawn = (sha: string): boolean => (objects.get(sha)?.withdrawn_seq ?? null) !== null;
  if (withdrawn(sha256)) return undefined;
  const items = receiptsBySha(read.items);
  const collection = read.analyses
    .filter((a) => !withdrawn(a.sha256))
    .map((a) =>
      toFacts(a, items.get(a.sha256) ?? [], objects.get(a.sha256)?.media_type ?? 'application/octet-stream'),
    );
  const target = collection.find((f) => f.sha256 === sha256);
  return target === undefined ? undefined : { target, collection };
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
 * no other object's is looked at; and whether it raises any indicator is read from the cached
 * raised set when that is current (indicator-cache.ts): one that it names is judged again, from its
 * camera model's images when the line names only MODEL_SCOPED codes and that raises exactly them,
 * else (and any object when the cache is stale) from the whole collection's facts (and the cache
 * is written again).
 */
export async function indicatorsFor(
  archive: AuthenticityPorts,
  sha256: string,
  now: string,
  facts?: ImageFacts[],
): Promise<Indicator[] | null> {
  if (facts === undefined) return indicatorsOfOne(archive, sha256, now);
  const found = facts.find((f) => f.sha256 === sha256);
  if (found === undefined) return null;
  return computeIndicators(found, facts, { now });
}

async function indicatorsOfOne(
  archive: AuthenticityPorts,
  sha256: string,
  now: string,
): Promise<Indicator[] | null> {
  const key = indicatorsKeyOf(await archive.index.analysisInputsSize()); // before the facts: see indicator-cache.ts
  const text = await archive.index.getDerived(INDICATORS_CACHE_KEY);
  const cached = decodeRaisedOf(text, key, now, sha256);
  if (cached === null) {
    // Current, and this object is not named: it raises none, if it is judged at all (analysed, not
    // withdrawn). Its likely original is still read, as for any object with a PDQ hash, so that a
    // planted line is refused there as before, though no indicator shown here would name it.
    const analysis = await archive.index.getAnalysis(sha256);
    if (analysis === undefined || (await archive.index.getObject(sha256))?.withdrawn_seq != null)
      return null;
    if (analysis.pdq !== null) await readCropOriginOf(archive, sha256);
    return [];
  }
  if (cached !== undefined && cached.every((c) => MODEL_SCOPED.has(c))) {
    const scoped = await modelScopedIndicators(archive, sha256, now, cached);
    if (scoped !== undefined) return scoped;
  }
  const all = await loadImageFacts(archive, { crops: false });
  const found = all.find((f) => f.sha256 === sha256);
  const crop = found?.pdq != null ? await readCropOriginOf(archive, sha256) : null;
  const target =
    crop === null || found === undefined ? found : { ...found, cropOf: cropOfFact(crop) };
  const out = target === undefined ? null : computeIndicators(target, all, { now });
  if (cached === undefined || cached.join(',') !== (out ?? []).map((i) => i.code).join(',')) {
    const evaluate = indicatorEvaluator(all);
    const codesOf = (f: ImageFacts) => (evaluate(f.sha256, { now }) ?? []).map((i) => i.code);
    const raised = new Map(all.map((f) => [f.sha256, codesOf(f)]));
    await archive.index
      .putDerived(INDICATORS_CACHE_KEY, encodeRaised(key, now, raised))
      .catch(() => undefined);
  }
  return out;
}

/**
 * The indicators of an object the current cache names, when it names only MODEL_SCOPED codes:
 * judged from the object's camera model's images alone, which gives each of those codes exactly
 * what the whole collection gives it. Shown only when the judgment raises exactly the codes the
 * line names (a line claiming one it does not raise is refused: undefined, and the caller judges
 * from the whole collection and writes the cache again); the line is trusted only as far as a
 * current cache's silence is, to name every code the object raises.
 */
async function modelScopedIndicators(
  archive: AuthenticityPorts,
  sha256: string,
  now: string,
  claimed: readonly IndicatorCode[],
): Promise<Indicator[] | undefined> {
  const read = await modelPeerFacts(archive, sha256);
  if (read === undefined) return undefined;
  const crop = read.target.pdq !== null ? await readCropOriginOf(archive, sha256) : null;
  const target = crop === null ? read.target : { ...read.target, cropOf: cropOfFact(crop) };
  const out = computeIndicators(target, read.collection, { now }).filter((i) =>
    MODEL_SCOPED.has(i.code),
  );
  return out.map((i) => i.code).join(',') === claimed.join(',') ? out : undefined;
}

export async function collectionSummary(archive: AuthenticityPorts, now: string): Promise<CollectionSummary> {
  return summariseCollection(await loadImageFacts(archive), { now });
}
