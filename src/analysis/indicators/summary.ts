import { buildCollectionIndex, softwareKey } from './collection-index.js';
import { evaluateIndicators, type IndicatorOptions, validateOptions } from './compute.js';
import { INDICATOR_DISCLAIMER } from './docs.js';
import { cameraKey, cameraLabel, exifDay, parseExifDateTime } from './facts-keys.js';
import type { ImageFacts, IndicatorCode } from './image-facts.js';

export interface CameraSummary {
  make: string | null;
  model: string | null;
  bodySerial: string | null;
  images: number;
  /** Earliest and latest literal DateTimeOriginal of the body's images. */
  first: string | null;
  last: string | null;
  /** Distinct 'WxH' as stored in the JPEG frame. */
  dimensions: string[];
  /** Distinct estimated JPEG qualities. */
  qualities: number[];
  /** Distinct Software strings: shows a routine editor that EDITING_SOFTWARE does not raise per image. */
  software: string[];
}

export interface CollectionSummary {
  disclaimer: string;
  cameras: CameraSummary[];
  /** Images per camera body per literal calendar day of DateTimeOriginal (no time-zone conversion). */
  perCameraPerDay: { camera: string; day: string; images: number }[];
  /** Images with at least one indicator, in collection order. */
  anomalies: { sha256: string; codes: IndicatorCode[] }[];
}

const UNKNOWN = '\u0000unknown';

function summariseCamera(images: readonly ImageFacts[]): CameraSummary {
  const head = images[0];
  let first: { ms: number; literal: string } | null = null;
  let last: { ms: number; literal: string } | null = null;
  for (const f of images) {
    const ms = parseExifDateTime(f.dateTimeOriginal);
    if (ms === null || f.dateTimeOriginal === null) continue;
    if (first === null || ms < first.ms) first = { ms, literal: f.dateTimeOriginal };
    if (last === null || ms > last.ms) last = { ms, literal: f.dateTimeOriginal };
  }
  const distinct = <T>(xs: (T | null)[]): T[] => [...new Set(xs.filter((x): x is T => x !== null))];
  const known = head !== undefined && cameraKey(head) !== null;
  return {
    make: known ? head.make : null,
    model: known ? head.model : null,
    bodySerial: known ? head.bodySerial : null,
    images: images.length,
    first: first?.literal ?? null,
    last: last?.literal ?? null,
    dimensions: distinct(
      images.map((f) => (f.width === null || f.height === null ? null : `${f.width}x${f.height}`)),
    ).sort(),
    qualities: distinct(images.map((f) => f.estimatedQuality)).sort((a, b) => a - b),
    software: distinct(images.map(softwareKey)).sort(),
  };
}

function countPerDay(images: readonly ImageFacts[]): CollectionSummary['perCameraPerDay'] {
  const counts = new Map<string, { camera: string; day: string; images: number }>();
  for (const f of images) {
    const day = exifDay(f.dateTimeOriginal);
    if (day === null) continue;
    const camera = cameraKey(f) === null ? 'unknown camera' : cameraLabel(f);
    const key = `${cameraKey(f) ?? UNKNOWN}\u0000${day}`;
    const row = counts.get(key) ?? { camera, day, images: 0 };
    row.images += 1;
    counts.set(key, row);
  }
  return [...counts.values()].sort(
    (a, b) => a.camera.localeCompare(b.camera) || a.day.localeCompare(b.day),
  );
}

/**
 * The collection at a glance for the expert: each camera body with its dates, sizes, JPEG qualities and
 * Software strings; how many images each body took per day; and every image with indicators.
 * Images with the same SHA-256 are counted once.
 *
 * @example
 *   summariseCollection(archivePhotos, { now: '2024-05-01T00:00:00Z' }).perCameraPerDay
 *   // [{ camera: 'NIKON CORPORATION NIKON D750 #6021345', day: '2023-03-01', images: 20 }, …]
 */
export function summariseCollection(
  collection: readonly ImageFacts[],
  opts: IndicatorOptions,
): CollectionSummary {
  const settings = validateOptions(opts);
  const index = buildCollectionIndex(collection);
  const images = [...index.bySha.values()];
  const byCamera = new Map<string, ImageFacts[]>();
  for (const f of images) {
    const key = cameraKey(f) ?? UNKNOWN;
    const list = byCamera.get(key) ?? [];
    list.push(f);
    byCamera.set(key, list);
  }
  const cameras = [...byCamera.values()]
    .map(summariseCamera)
    .sort((a, b) => cameraSortKey(a).localeCompare(cameraSortKey(b)));
  const anomalies: CollectionSummary['anomalies'] = [];
  for (const f of images) {
    const codes = evaluateIndicators(index, f, settings).map((i) => i.code);
    if (codes.length > 0) anomalies.push({ sha256: f.sha256, codes });
  }
  return {
    disclaimer: INDICATOR_DISCLAIMER,
    cameras,
    perCameraPerDay: countPerDay(images),
    anomalies,
  };
}

function cameraSortKey(c: CameraSummary): string {
  return c.model === null ? '\uffff' : `${c.make ?? ''} ${c.model} ${c.bodySerial ?? ''}`;
}
