import {
  aspectKey,
  cameraKey,
  dimsKey,
  folderKey,
  missingCameraFields,
  modelKey,
  modelLabel,
  namePattern,
  parseExifDateTime,
  pdqDistance,
  textKey,
} from './facts-keys.js';
import type { ImageFacts } from './image-facts.js';
import { buildSequences, type SequenceIndex } from './name-sequence.js';
import { addToTally, newTally, type Share, type Tally } from './tally.js';

/** What one camera model (make + model, any body) shows across the collection. */
export interface ModelStats {
  images: number;
  /** Exact Software strings (trimmed), to recognise firmware strings. */
  software: Tally;
  quant: Tally;
  quality: Tally;
  dims: Tally;
  aspects: Tally;
  /** Images with both DateTimeOriginal and ModifyDate; yes = the two are equal. */
  datesEqual: Share;
  /** Sorted PDQ distances between embedded thumbnail and main image. */
  thumbDistances: number[];
}

/** One camera body's DateTimeOriginal values, sorted. */
export interface CameraStats {
  times: { ms: number; sha256: string; literal: string }[];
}

export interface DeliveryStats {
  /** Model of each image in the delivery (images without a model are not counted). */
  models: Tally;
  /** Per model, the body serials of its images in this delivery. */
  serials: Map<string, Tally>;
}

/** The whole collection, grouped once; every check reads "the others" from here. */
export interface CollectionIndex {
  bySha: Map<string, ImageFacts>;
  models: Map<string, ModelStats>;
  /** Person-readable label of each model key (the first spelling seen). */
  modelLabels: Map<string, string>;
  cameras: Map<string, CameraStats>;
  deliveries: Map<string, DeliveryStats>;
  /** Per file-name pattern and per folder: images, and how many carry camera EXIF. */
  patterns: Map<string, Share>;
  folders: Map<string, Share>;
  sequences: SequenceIndex;
}

export function softwareKey(f: ImageFacts): string | null {
  const s = (f.software ?? '').replace(/\0/g, '').trim();
  return s === '' ? null : s;
}

export function qualityKey(f: ImageFacts): string | null {
  return f.estimatedQuality === null ? null : String(f.estimatedQuality);
}

/** Distance between thumbnail and main image PDQ; null when either is absent or malformed. */
export function thumbnailDistance(f: ImageFacts): number | null {
  return pdqDistance(f.thumbnailPdq, f.pdq);
}

/** DateTimeOriginal equals ModifyDate; null when either is absent or unreadable. */
export function datesEqual(f: ImageFacts): boolean | null {
  const original = parseExifDateTime(f.dateTimeOriginal);
  const modify = parseExifDateTime(f.modifyDate);
  return original === null || modify === null ? null : original === modify;
}

/** One entry per SHA-256 (the first wins); the collection may list the same bytes once only. */
export function buildCollectionIndex(collection: readonly ImageFacts[]): CollectionIndex {
  const index: CollectionIndex = {
    bySha: new Map(),
    models: new Map(),
    modelLabels: new Map(),
    cameras: new Map(),
    deliveries: new Map(),
    patterns: new Map(),
    folders: new Map(),
    sequences: { sequences: new Map(), positions: new Map() },
  };
  for (const f of collection) {
    if (index.bySha.has(f.sha256)) continue;
    index.bySha.set(f.sha256, f);
    addToModel(index, f);
    addToCamera(index, f);
    addToDeliveries(index, f);
    addToNameGroups(index, f);
  }
  for (const c of index.cameras.values()) c.times.sort((a, b) => a.ms - b.ms);
  for (const m of index.models.values()) m.thumbDistances.sort((a, b) => a - b);
  index.sequences = buildSequences([...index.bySha.values()]);
  return index;
}

function addToModel(index: CollectionIndex, f: ImageFacts): void {
  const key = modelKey(f);
  if (key === null) return;
  let m = index.models.get(key);
  if (m === undefined) {
    m = {
      images: 0,
      software: newTally(),
      quant: newTally(),
      quality: newTally(),
      dims: newTally(),
      aspects: newTally(),
      datesEqual: { images: 0, yes: 0 },
      thumbDistances: [],
    };
    index.models.set(key, m);
    index.modelLabels.set(key, modelLabel(f));
  }
  m.images += 1;
  addToTally(m.software, softwareKey(f));
  addToTally(m.quant, textKey(f.quantDigest));
  addToTally(m.quality, qualityKey(f));
  addToTally(m.dims, dimsKey(f));
  addToTally(m.aspects, aspectKey(f));
  const equal = datesEqual(f);
  if (equal !== null) {
    m.datesEqual.images += 1;
    m.datesEqual.yes += equal ? 1 : 0;
  }
  const d = thumbnailDistance(f);
  if (d !== null) m.thumbDistances.push(d);
}

function addToCamera(index: CollectionIndex, f: ImageFacts): void {
  const key = cameraKey(f);
  const ms = parseExifDateTime(f.dateTimeOriginal);
  if (key === null || ms === null || f.dateTimeOriginal === null) return;
  const c = index.cameras.get(key) ?? { times: [] };
  c.times.push({ ms, sha256: f.sha256, literal: f.dateTimeOriginal });
  index.cameras.set(key, c);
}

function addToDeliveries(index: CollectionIndex, f: ImageFacts): void {
  const model = modelKey(f);
  if (model === null) return;
  for (const delivery of new Set(f.items.map((i) => i.delivery))) {
    const d = index.deliveries.get(delivery) ?? {
      models: newTally(),
      serials: new Map<string, Tally>(),
    };
    addToTally(d.models, model);
    const serials = d.serials.get(model) ?? newTally();
    addToTally(serials, textKey(f.bodySerial));
    d.serials.set(model, serials);
    index.deliveries.set(delivery, d);
  }
}

function addToNameGroups(index: CollectionIndex, f: ImageFacts): void {
  const hasExif = missingCameraFields(f).length === 0;
  const bump = (groups: Map<string, Share>, key: string): void => {
    const s = groups.get(key) ?? { images: 0, yes: 0 };
    s.images += 1;
    s.yes += hasExif ? 1 : 0;
    groups.set(key, s);
  };
  for (const key of patternKeys(f)) bump(index.patterns, key);
  for (const key of folderKeys(f)) bump(index.folders, key);
}

/** The distinct counter-name patterns an image was received under. */
export function patternKeys(f: ImageFacts): string[] {
  const keys = f.items
    .map((i) => namePattern(i.name)?.key ?? null)
    .filter((k): k is string => k !== null);
  return [...new Set(keys)].sort();
}

/** The distinct folders (per delivery) an image was received in. */
export function folderKeys(f: ImageFacts): string[] {
  return [...new Set(f.items.map(folderKey))].sort();
}
