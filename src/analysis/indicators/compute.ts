import type { Check, CheckContext } from './check-context.js';
import {
  checkCameraUnlikeDelivery,
  checkDimensions,
  checkQuantisation,
  checkThumbnail,
} from './checks-camera.js';
import { checkEditingSoftware, checkExifMissing, checkModifyDate } from './checks-metadata.js';
import { checkNameSequence, checkTimestampRange } from './checks-time.js';
import { buildCollectionIndex, type CollectionIndex } from './collection-index.js';
import { INDICATOR_DISCLAIMER } from './docs.js';
import { IndicatorError } from './errors.js';
import { parseRfc3339 } from './facts-keys.js';
import type { ImageFacts, Indicator } from './image-facts.js';
import { DEFAULT_THUMBNAIL_DISTANCE } from './thresholds.js';

export interface IndicatorOptions {
  /** The analysis time, RFC 3339 (injected, so results are reproducible). */
  now: string;
  /** PDQ bits for THUMBNAIL_MISMATCH, 0–256; default DEFAULT_THUMBNAIL_DISTANCE (40). */
  thumbnailDistance?: number;
}

export interface IndicatorSettings {
  now: string;
  nowMs: number;
  thumbnailDistance: number;
}

/** In the order of INDICATOR_CODES. */
const CHECKS: readonly Check[] = [
  checkEditingSoftware,
  checkModifyDate,
  checkExifMissing,
  checkCameraUnlikeDelivery,
  checkThumbnail,
  checkQuantisation,
  checkNameSequence,
  checkTimestampRange,
  checkDimensions,
];

export function validateOptions(opts: IndicatorOptions): IndicatorSettings {
  const nowMs = parseRfc3339(opts.now);
  if (nowMs === null) {
    throw new IndicatorError('INDICATORS_BAD_NOW', 'now must be an RFC 3339 date-time', {
      details: { now: opts.now },
    });
  }
  const t = opts.thumbnailDistance ?? DEFAULT_THUMBNAIL_DISTANCE;
  if (!Number.isInteger(t) || t < 0 || t > 256) {
    throw new IndicatorError(
      'INDICATORS_BAD_THRESHOLD',
      'thumbnailDistance must be an integer from 0 to 256',
      {
        details: { thumbnailDistance: t },
      },
    );
  }
  return { now: opts.now, nowMs, thumbnailDistance: t };
}

/** The indicators of one image against an already-built index (which must contain it). */
export function evaluateIndicators(
  index: CollectionIndex,
  target: ImageFacts,
  s: IndicatorSettings,
): Indicator[] {
  const ctx: CheckContext = {
    index,
    target,
    now: s.now,
    nowMs: s.nowMs,
    thumbnailDistance: s.thumbnailDistance,
  };
  const out: Indicator[] = [];
  for (const check of CHECKS) {
    const found = check(ctx);
    if (found !== null)
      out.push({ ...found, explanation: `${found.explanation} ${INDICATOR_DISCLAIMER}` });
  }
  return out;
}

/**
 * What in `target` an expert should examine, judged against the rest of `collection` (which should
 * include the target; it is added when absent, and the target's own facts win for its SHA-256).
 * Each explanation ends with INDICATOR_DISCLAIMER: these are pointers, never verdicts.
 *
 * @example
 *   computeIndicators(photo, archivePhotos, { now: '2024-05-01T00:00:00Z' })
 *   // [] for a photo consistent with its camera's other photos, else e.g.
 *   // [{ code: 'EDITING_SOFTWARE', explanation: '…', evidence: { editors: ['Adobe Photoshop'], … } }]
 */
export function computeIndicators(
  target: ImageFacts,
  collection: readonly ImageFacts[],
  opts: IndicatorOptions,
): Indicator[] {
  const settings = validateOptions(opts);
  const others = collection.filter((f) => f.sha256 !== target.sha256);
  return evaluateIndicators(buildCollectionIndex([target, ...others]), target, settings);
}

/**
 * The indicators of any image of `collection`, judged against the rest, with the collection's
 * index built once (a long-lived reader asks for many images of one collection).
 */
export function indicatorEvaluator(
  collection: readonly ImageFacts[],
): (sha256: string, opts: IndicatorOptions) => Indicator[] | null {
  const index = buildCollectionIndex(collection);
  const bySha = new Map(collection.map((f) => [f.sha256, f]));
  return (sha256, opts) => {
    const target = bySha.get(sha256);
    return target === undefined ? null : evaluateIndicators(index, target, validateOptions(opts));
  };
}
