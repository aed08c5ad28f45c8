// What `custody show` prints and the server's item detail returns: an object with every item that
// received it, its analysis (withheld when withdrawn), near-duplicate cluster, indicators and
// decisions. One assembly for the CLI and the HTTP layer.
import { indicatorsFor } from '../analysis/authenticity.service.js';
import type { Indicator } from '../analysis/indicators/index.js';
import { INDICATOR_DISCLAIMER } from '../analysis/indicators/index.js';
import {
  clusterViewOf,
  readClusterOf,
  type ArchiveSimilarity,
} from '../analysis/similarity/archive-similarity.service.js';
import { isSha256Hex } from '../core/index.js';
import { ArchiveError } from './errors.js';
import { analysisView, itemView, objectView, withdrawnAnalysisView } from './item-views.js';
import { resolveObject, withdrawalsNow, type WithdrawalReads } from './withdrawal.service.js';

/** The open archive, as the services this one calls take it. */
type ArchiveHandle = WithdrawalReads<'getObject' | 'getItem' | 'listDeliveries' | 'itemsBySha256' | 'getAnalysis' | 'decisionsFor'> &
  Parameters<typeof readClusterOf>[0] &
  Parameters<typeof indicatorsFor>[0];

/**
 * The collection-wide facts a detail is judged against. Callers that serve many details (the
 * server) compute them once per index state and pass them in; otherwise each call reads them.
 */
export interface CollectionDerived {
  similarity?: ArchiveSimilarity;
  /** The indicators of one object of the collection (indicatorEvaluator). */
  indicators?: (sha256: string, opts: { now: string }) => Indicator[] | null;
}

export async function objectDetail(
  archive: ArchiveHandle,
  target: string,
  opts: { indicatorTime: string; derived?: CollectionDerived },
) {
  const sha256 = await resolveObject(archive, target);
  const object = await archive.index.getObject(sha256);
  if (object === undefined) throw new ArchiveError('NOT_FOUND', `no object ${sha256} in this archive`);
  const deliveries = new Map((await archive.index.listDeliveries()).map((d) => [d.id, d.source]));
  const items = (await archive.index.itemsBySha256(sha256)).map((i) =>
    itemView(i, deliveries.get(i.delivery_id)),
  );
  const asked = isSha256Hex(target.toLowerCase())
    ? null
    : (items.find((i) => i.id === target.toUpperCase()) ?? null);
  // A withdrawal (also one after --at) hides what was extracted from the object.
  const hidden = (await withdrawalsNow(archive)).has(sha256);
  const analysis = hidden ? undefined : await archive.index.getAnalysis(sha256);
  const shownAnalysis = hidden
    ? withdrawnAnalysisView(await archive.index.getAnalysis(sha256))
    : analysisView(analysis);
  // One object's cluster, from the cached clusters when they are current (readClusterOf).
  // With it, whether the grey-descriptor step ran and whether this image needed it (null: no
  // analysed image, so no part in the near-duplicate search).
  const similarity = opts.derived?.similarity;
  const { cluster, grey_step } =
    analysis?.pdq == null
      ? { cluster: null, grey_step: null }
      : similarity !== undefined
        ? clusterViewOf(similarity, sha256)
        : await readClusterOf(archive, sha256, analysis);
  const decisions = await archive.index.decisionsFor(sha256);
  const indicators =
    analysis === undefined
      ? null
      : opts.derived?.indicators !== undefined
        ? opts.derived.indicators(sha256, { now: opts.indicatorTime })
        : await indicatorsFor(archive, sha256, opts.indicatorTime);
  return {
    ...objectView(object),
    withdrawn: object.withdrawn_seq !== null,
    item: asked,
    items,
    sources: [...new Set(items.map((i) => i.source))].sort(),
    ...shownAnalysis,
    cluster:
      cluster === null
        ? null
        : {
            id: cluster.id,
            objects: cluster.objects,
            items: cluster.items,
            max_distance: cluster.max_distance,
          },
    grey_step,
    indicators,
    indicators_disclaimer: INDICATOR_DISCLAIMER,
    decisions: decisions.map((d) => ({
      seq: d.seq,
      decision: d.decision,
      objects: JSON.parse(d.objects_json) as string[],
      note: d.note,
      actor: d.actor,
      time: d.time,
    })),
  };
}

export type ObjectDetail = Awaited<ReturnType<typeof objectDetail>>;
