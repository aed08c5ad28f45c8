import { DEFAULT_CAMERAS, type CameraProfile } from './camera-profiles.js';
import { CameraTimeline, parseUtcOffsetMinutes } from './camera-timeline.js';
import { DemoError } from './errors.js';
import type { PlannedPhoto, PlanOptions } from './plan-types.js';
import { createSeededRandom, type SeededRandom } from './seeded-random.js';

export type { PlannedExif, PlannedGps, PlannedPhoto, PlanOptions } from './plan-types.js';

const DEFAULT_DUPLICATE_RATE = 0.03;
const DEFAULT_START_DATE = '2013-05-14';
const MAX_COUNT = 1_000_000;
const DAY_MS = 86_400_000;
/** Folder for exact copies; a camera id may not take it. */
export const COPIES_FOLDER = 'copies';

/**
 * Plans a synthetic photo collection: which files exist, which camera "took" each, what its EXIF
 * says, how big it is, and which scene it shows. Pure and deterministic: the same options give
 * the same plan on every machine (see createSeededRandom). Rendering and writing are separate
 * (renderPhoto, writeCollection).
 *
 * Files are assigned to cameras at random, weighted per seed; each camera keeps its own
 * sequential file names and forward-moving clock. A share `duplicateRate` of files are exact
 * copies of an earlier file, placed under 'copies/' + the original's path.
 *
 * Plans are prefix-stable: planCollection({ count: 300, seed }) is the first 300 entries of
 * planCollection({ count: 2000, seed }) when the other options match.
 *
 * @example
 *   const plan = planCollection({ count: 300, seed: 'readme' });
 *   plan[0].relativePath // e.g. 'camera-b/2013-05-15/IMG_0001.JPG'
 */
export function planCollection(opts: PlanOptions): PlannedPhoto[] {
  const cameras = opts.cameras ?? DEFAULT_CAMERAS;
  const duplicateRate = opts.duplicateRate ?? DEFAULT_DUPLICATE_RATE;
  const startDayMs = parseStartDate(opts.startDate ?? DEFAULT_START_DATE);
  validateOptions(opts, cameras, duplicateRate);

  const timelines = cameras.map(
    (c) => new CameraTimeline(c, opts.seed, startDayMs, opts.megapixels),
  );
  const weights = drawCameraWeights(createSeededRandom(opts.seed, 'camera-weights'), cameras);
  const chooser = createSeededRandom(opts.seed, 'camera-choice');
  const copier = createSeededRandom(opts.seed, 'duplicates');

  const photos: PlannedPhoto[] = [];
  const uncopied: number[] = []; // originals not yet copied: each is copied at most once
  for (let index = 0; index < opts.count; index++) {
    if (copier.chance(duplicateRate) && uncopied.length > 0) {
      const at = copier.int(0, uncopied.length - 1);
      const originalIndex = uncopied.splice(at, 1)[0] ?? 0;
      photos.push(planCopy(photos[originalIndex], index, copier));
      continue;
    }
    const timeline = timelines[pickWeighted(chooser.float(), weights)];
    if (timeline === undefined) throw new Error('unreachable: camera index out of range');
    photos.push({ ...timeline.next(), index });
    uncopied.push(index);
  }
  return photos;
}

/** An exact copy of `original`, copied to another folder some days later. */
function planCopy(
  original: PlannedPhoto | undefined,
  index: number,
  r: SeededRandom,
): PlannedPhoto {
  if (original === undefined) throw new Error('unreachable: copy of a missing photo');
  return {
    ...original,
    index,
    relativePath: `${COPIES_FOLDER}/${original.relativePath}`,
    duplicateOf: original.index,
    mtimeMs: original.mtimeMs + r.int(1, 30) * DAY_MS + r.int(0, 86_399_999),
  };
}

/** Uneven shares, as in real collections: weights between 0.4 and 1.6, normalised. */
function drawCameraWeights(r: SeededRandom, cameras: readonly CameraProfile[]): number[] {
  const raw = cameras.map(() => r.between(0.4, 1.6));
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / total);
}

function pickWeighted(u: number, weights: readonly number[]): number {
  let acc = 0;
  for (let i = 0; i < weights.length; i++) {
    acc += weights[i] ?? 0;
    if (u < acc) return i;
  }
  return weights.length - 1;
}

function parseStartDate(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const ms = m === null ? Number.NaN : Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) {
    throw badOption(`startDate must be a real date as YYYY-MM-DD, got ${JSON.stringify(date)}`);
  }
  return ms;
}

function validateOptions(
  opts: PlanOptions,
  cameras: readonly CameraProfile[],
  duplicateRate: number,
): void {
  if (!Number.isInteger(opts.count) || opts.count < 0 || opts.count > MAX_COUNT) {
    throw badOption(`count must be an integer in 0..${MAX_COUNT}, got ${opts.count}`);
  }
  if (typeof opts.seed !== 'string' || opts.seed.length === 0) {
    throw badOption('seed must be a non-empty string');
  }
  if (!(duplicateRate >= 0 && duplicateRate <= 0.5)) {
    throw badOption(`duplicateRate must be in 0..0.5, got ${duplicateRate}`);
  }
  const mp = opts.megapixels;
  if (mp !== undefined && !(mp[0] > 0 && mp[0] <= mp[1] && mp[1] <= 100)) {
    throw badOption(
      `megapixels must be [min, max] with 0 < min <= max <= 100, got [${mp.join(', ')}]`,
    );
  }
  if (cameras.length === 0) throw badOption('at least one camera is needed');
  const ids = new Set<string>();
  for (const c of cameras) {
    validateCamera(c);
    if (ids.has(c.id)) throw badOption(`camera id ${c.id} is used twice`);
    ids.add(c.id);
  }
}

function validateCamera(c: CameraProfile): void {
  const digitsOk =
    Number.isInteger(c.fileNameDigits) && c.fileNameDigits >= 1 && c.fileNameDigits <= 9;
  const checks: [ok: boolean, problem: string][] = [
    [
      /^[a-z0-9][a-z0-9-]*$/.test(c.id) && c.id !== COPIES_FOLDER,
      'id must match [a-z0-9-]+ and not be "copies"',
    ],
    [/^[A-Za-z0-9_-]*$/.test(c.fileNamePrefix), 'fileNamePrefix may hold only [A-Za-z0-9_-]'],
    [/^\.[A-Za-z0-9]+$/.test(c.fileNameExtension), 'fileNameExtension must look like .JPG'],
    [digitsOk, 'fileNameDigits must be an integer 1..9'],
    [
      Number.isInteger(c.firstFileNumber) &&
        c.firstFileNumber >= 1 &&
        c.firstFileNumber < 10 ** c.fileNameDigits,
      'firstFileNumber must be at least 1 and fit in fileNameDigits',
    ],
    [c.nativeWidth > 0 && c.nativeHeight > 0, 'nativeWidth and nativeHeight must be positive'],
    [c.resolutionDpi > 0, 'resolutionDpi must be positive'],
    [
      Number.isInteger(c.quality) && c.quality >= 1 && c.quality <= 100,
      'quality must be an integer 1..100',
    ],
    [!Number.isNaN(parseUtcOffsetMinutes(c.utcOffset)), 'utcOffset must look like +03:00'],
    [Number.isFinite(c.clockSkewSeconds), 'clockSkewSeconds must be a finite number'],
    [c.gpsShare >= 0 && c.gpsShare <= 1, 'gpsShare must be in 0..1'],
    [
      c.focalLengthMm[0] > 0 && c.focalLengthMm[0] <= c.focalLengthMm[1],
      'focalLengthMm must be [min, max] > 0',
    ],
  ];
  const failed = checks.find(([ok]) => !ok);
  if (failed !== undefined) throw badOption(`camera ${JSON.stringify(c.id)}: ${failed[1]}`);
}

function badOption(message: string): DemoError {
  return new DemoError('DEMO_BAD_OPTION', message);
}
