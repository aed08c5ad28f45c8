import { type CheckContext, listInWords, modelStatsOf } from './check-context.js';
import { qualityKey, thumbnailDistance } from './collection-index.js';
import { aspectKey, cameraKey, dimsKey, modelKey, modelLabel, textKey } from './facts-keys.js';
import type { Indicator } from './image-facts.js';
import { medianWithout, othersDistinct, othersTotal, othersValues, othersWith } from './tally.js';
import {
  DELIVERY_MAX_MODELS,
  DELIVERY_MIN_OTHERS,
  MIN_MODEL_OTHERS,
  QUANT_IMAGES_PER_TABLE,
  SERIAL_MIN_OTHERS,
  THUMBNAIL_BASELINE_MARGIN,
} from './thresholds.js';

/** The serial as the file spells it (tallies hold it case-folded); for evidence only. */
function rawSerial(ctx: CheckContext, model: string, folded: string): string {
  for (const f of ctx.index.bySha.values()) {
    if (modelKey(f) === model && textKey(f.bodySerial) === folded) return f.bodySerial ?? folded;
  }
  return folded;
}

/** One finding per delivery: a model no other image of the delivery has, or an odd serial. */
function deliveryFinding(ctx: CheckContext, delivery: string, model: string): string | null {
  const d = ctx.index.deliveries.get(delivery);
  const others = othersTotal(d?.models, model);
  const sameModel = othersWith(d?.models, model, model);
  const label = modelLabel(ctx.target);
  if (sameModel === 0) {
    if (others < DELIVERY_MIN_OTHERS || othersDistinct(d?.models, model) > DELIVERY_MAX_MODELS)
      return null;
    const names = othersValues(d?.models, model).map((k) => ctx.index.modelLabels.get(k) ?? k);
    return `delivery ${delivery}: no other of its ${others} images comes from a ${label}; they come from ${listInWords(names)}`;
  }
  const serial = textKey(ctx.target.bodySerial);
  const serials = d?.serials.get(model);
  if (serial === null || othersTotal(serials, serial) < SERIAL_MIN_OTHERS) return null;
  if (othersDistinct(serials, serial) !== 1 || othersWith(serials, serial, serial) > 0) return null;
  const usual = rawSerial(ctx, model, othersValues(serials, serial)[0] ?? '');
  return (
    `delivery ${delivery}: serial ${ctx.target.bodySerial ?? ''} differs from serial ${usual}, which all ` +
    `${othersTotal(serials, serial)} other serial-bearing images of the ${label} in that delivery carry`
  );
}

/** CAMERA_UNLIKE_DELIVERY: a camera model, or a body serial, unlike the rest of the delivery. */
export function checkCameraUnlikeDelivery(ctx: CheckContext): Indicator | null {
  const model = modelKey(ctx.target);
  if (model === null) return null;
  const deliveries = [...new Set(ctx.target.items.map((i) => i.delivery))].sort();
  const findings = deliveries
    .map((d) => deliveryFinding(ctx, d, model))
    .filter((s): s is string => s !== null);
  if (findings.length === 0) return null;
  const body = cameraKey(ctx.target);
  let sameBodyElsewhere = 0;
  for (const f of ctx.index.bySha.values())
    if (f.sha256 !== ctx.target.sha256 && cameraKey(f) === body) sameBodyElsewhere++;
  return {
    code: 'CAMERA_UNLIKE_DELIVERY',
    explanation:
      `The camera recorded in this image was compared with the cameras of the other images in the same ` +
      `delivery: ${findings.join('; ')}. A source may hold several cameras, or forward others' pictures.`,
    evidence: {
      camera: modelLabel(ctx.target),
      bodySerial: ctx.target.bodySerial,
      findings,
      sameBodyElsewhereInCollection: sameBodyElsewhere,
    },
  };
}

/** QUANTISATION_UNLIKE_CAMERA: JPEG tables that the model uses nowhere else in the collection. */
export function checkQuantisation(ctx: CheckContext): Indicator | null {
  const f = ctx.target;
  const m = modelStatsOf(ctx);
  const digest = textKey(f.quantDigest);
  if (m === undefined || digest === null) return null;
  const others = othersTotal(m.quant, digest);
  if (others < MIN_MODEL_OTHERS || othersWith(m.quant, digest, digest) > 0) return null;
  const tables = othersDistinct(m.quant, digest);
  if (tables * QUANT_IMAGES_PER_TABLE > others) return null; // tables chosen per image: no baseline
  const qualities = othersValues(m.quality, qualityKey(f)).sort((a, b) => Number(a) - Number(b));
  return {
    code: 'QUANTISATION_UNLIKE_CAMERA',
    explanation:
      `The JPEG quantisation tables (estimated quality ${f.estimatedQuality ?? 'unknown'}) match none of the ` +
      `${tables} table set(s) that the ${others} other images from the ${modelLabel(f)} in the collection use ` +
      `(their estimated qualities: ${qualities.join(', ') || 'unknown'}). Re-saving a JPEG usually writes new ` +
      `tables; so does a quality setting the photographer used only once.`,
    evidence: {
      quantDigest: f.quantDigest,
      estimatedQuality: f.estimatedQuality,
      modelQualities: qualities,
      modelTableSets: tables,
      otherImagesCompared: others,
    },
  };
}

/** DIMENSIONS_UNLIKE_CAMERA: a size (either orientation) the model produces nowhere else in the collection. */
export function checkDimensions(ctx: CheckContext): Indicator | null {
  const f = ctx.target;
  const m = modelStatsOf(ctx);
  const dims = dimsKey(f);
  if (m === undefined || dims === null) return null;
  const others = othersTotal(m.dims, dims);
  if (others < MIN_MODEL_OTHERS || othersWith(m.dims, dims, dims) > 0) return null;
  const aspect = aspectKey(f);
  const aspectSeen = aspect !== null && othersWith(m.aspects, aspect, aspect) > 0;
  const usual = othersValues(m.dims, dims);
  return {
    code: 'DIMENSIONS_UNLIKE_CAMERA',
    explanation:
      `The image is ${f.width ?? '?'}×${f.height ?? '?'} pixels (aspect ${aspect ?? '?'}${aspectSeen ? ', seen' : ', never seen'} ` +
      `for this model), while the ${others} other images from the ${modelLabel(f)} in the collection are ` +
      `${listInWords(usual)}. Cropping or resizing changes the size; so do in-camera size or aspect settings.` +
      (f.cropOf === undefined
        ? ''
        : ` It matches a part of object ${f.cropOf.sha256} (box ${f.cropOf.box} of that image), its likely original.`),
    evidence: {
      dimensions: `${f.width ?? '?'}x${f.height ?? '?'}`,
      aspectRatio: aspect,
      aspectRatioSeenForModel: aspectSeen ? 'yes' : 'no',
      modelDimensions: usual,
      otherImagesCompared: others,
      ...(f.cropOf === undefined
        ? {}
        : { likelyOriginal: f.cropOf.sha256, likelyOriginalBox: f.cropOf.box }),
    },
  };
}

/** THUMBNAIL_MISMATCH: the embedded EXIF thumbnail does not look like the main image. */
export function checkThumbnail(ctx: CheckContext): Indicator | null {
  const f = ctx.target;
  const d = thumbnailDistance(f);
  if (d === null) return null;
  const m = modelStatsOf(ctx);
  const enough = m !== undefined && m.thumbDistances.length - 1 >= MIN_MODEL_OTHERS;
  const baseline = enough ? medianWithout(m.thumbDistances, d) : null;
  const T = ctx.thumbnailDistance;
  const bar = Math.max(T, baseline === null ? 0 : baseline + T * THUMBNAIL_BASELINE_MARGIN);
  if (d <= bar) return null;
  return {
    code: 'THUMBNAIL_MISMATCH',
    explanation:
      `The PDQ hash of the embedded EXIF thumbnail is ${d} of 256 bits from the main image's PDQ hash, above ` +
      `the bar of ${bar}` +
      (baseline === null
        ? ''
        : ` (set from the ${modelLabel(f)}'s usual distance in the collection, median ${baseline})`) +
      `. The thumbnail may be from another picture, or the main image changed without regenerating it.`,
    evidence: {
      distance: d,
      bar,
      configuredThreshold: T,
      modelMedianDistance: baseline,
      pdq: f.pdq,
      thumbnailPdq: f.thumbnailPdq,
    },
  };
}
