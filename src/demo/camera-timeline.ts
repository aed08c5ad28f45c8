import type { CameraProfile } from './camera-profiles.js';
import type { PlannedExif, PlannedGps, PlannedPhoto } from './plan-types.js';
import { createSeededRandom, type SeededRandom } from './seeded-random.js';

const SECOND_MS = 1000;
const HOUR_MS = 3600 * SECOND_MS;
const DAY_MS = 24 * HOUR_MS;
/** Working hours on the camera's clock. */
const DAY_START_MS = 8 * HOUR_MS;
const DAY_END_MS = 18 * HOUR_MS;
export const MAX_PHOTOS_PER_DAY = 50;
const DEMO_LONG_EDGE = 1024;
/** Share of scenes shot as a short burst (near-duplicates for the analysis code to find). */
const BURST_SHARE = 0.08;
/** Arbitrary point the GPS tracks wander around; it stands for no real event. */
const GPS_CENTRE = { latitude: 41.0153, longitude: 28.9497 };

/** One camera's next photo, before the plan gives it an index. */
export type Shot = Omit<PlannedPhoto, 'index' | 'duplicateOf'>;

interface DayState {
  /** Camera-clock midnight, as if the local time were UTC (a "naive" timestamp). */
  dayStart: number;
  quota: number;
  taken: number;
  site: { latitude: number; longitude: number };
}

/**
 * An endless, deterministic sequence of shots for one camera: sequential file names, a clock
 * that only moves forward (08:00–18:00, at most MAX_PHOTOS_PER_DAY a day, days skipped now and
 * then), short bursts of the same scene, GPS for some photos. Each camera draws from its own
 * SHA-256 stream, so the cameras' sequences do not depend on one another.
 */
export class CameraTimeline {
  private readonly r: SeededRandom;
  private readonly size: { width: number; height: number };
  private readonly offsetMs: number;
  private fileNumber: number;
  // a placeholder for 'the day before'; the first real day is 0–3 days after startDayMs
  private day: DayState;
  /** The camera's clock: local time plus skew, as a naive timestamp. */
  private clock = 0;
  private burstLeft = 0;
  private sceneSeed = '';
  private sceneVariant = 0;

  constructor(
    private readonly camera: CameraProfile,
    seed: string,
    startDayMs: number,
    megapixels: [number, number] | undefined,
  ) {
    this.r = createSeededRandom(seed, `camera:${camera.id}`);
    // its own stream, so the size setting changes sizes only, never names, times or scenes
    this.size = photoSize(camera, megapixels, createSeededRandom(seed, `size:${camera.id}`));
    this.offsetMs = parseUtcOffsetMinutes(camera.utcOffset) * 60 * SECOND_MS;
    this.fileNumber = camera.firstFileNumber;
    this.day = { dayStart: startDayMs - DAY_MS, quota: 0, taken: 0, site: GPS_CENTRE };
    this.startDay();
  }

  next(): Shot {
    const inBurst = this.burstLeft > 0;
    if (this.day.taken > 0) this.advanceClock(inBurst);
    if (inBurst) {
      this.burstLeft -= 1;
      this.sceneVariant += 1;
    } else {
      this.startScene();
    }
    this.day.taken += 1;
    const { camera, clock, offsetMs } = this;
    const trueUtcMs = clock - offsetMs - camera.clockSkewSeconds * SECOND_MS;
    return {
      relativePath: `${camera.id}/${isoDate(this.day.dayStart)}/${this.takeFileName()}`,
      camera,
      exif: planExif(camera, clock, trueUtcMs, this.day, this.r),
      ...this.size,
      quality: camera.quality,
      sceneSeed: this.sceneSeed,
      sceneVariant: this.sceneVariant,
      // the camera writes the file a moment after exposure, by its own (skewed) clock
      mtimeMs: clock - offsetMs + this.r.int(300, 2500),
    };
  }

  private startDay(): void {
    this.day = newDay(this.r, this.day.dayStart);
    this.clock =
      this.day.dayStart + DAY_START_MS + this.r.int(0, 7200) * SECOND_MS + this.r.int(0, 99) * 10;
  }

  private advanceClock(inBurst: boolean): void {
    if (inBurst) {
      this.clock += this.r.int(15, 45) * 10; // 2–6 frames a second
      return;
    }
    this.clock += this.r.int(20, 900) * SECOND_MS + this.r.int(0, 99) * 10;
    const { day } = this;
    if (day.taken >= day.quota || this.clock >= day.dayStart + DAY_END_MS) this.startDay();
  }

  /** A new scene; sometimes the first frame of a burst that stays within the day's quota. */
  private startScene(): void {
    this.sceneSeed = this.r.hex(8);
    this.sceneVariant = 0;
    const room = Math.min(this.day.quota - this.day.taken - 1, 4);
    const early = this.clock < this.day.dayStart + DAY_END_MS - 10 * SECOND_MS;
    this.burstLeft = room > 0 && early && this.r.chance(BURST_SHARE) ? this.r.int(1, room) : 0;
  }

  /** Prefix + zero-padded counter + extension; the counter wraps to 1, as cameras do. */
  private takeFileName(): string {
    const { camera } = this;
    const name =
      camera.fileNamePrefix + String(this.fileNumber).padStart(camera.fileNameDigits, '0');
    this.fileNumber = this.fileNumber >= 10 ** camera.fileNameDigits - 1 ? 1 : this.fileNumber + 1;
    return name + camera.fileNameExtension;
  }
}

/** EXIF for one shot. `clock` is the camera's naive local time; `trueUtcMs` feeds GPS. */
function planExif(
  camera: CameraProfile,
  clock: number,
  trueUtcMs: number,
  day: DayState,
  r: SeededRandom,
): PlannedExif {
  const stamp = exifDateTime(clock);
  const subSec = String(Math.floor((clock % SECOND_MS) / 10)).padStart(2, '0');
  const [minFocal, maxFocal] = camera.focalLengthMm;
  const exif: PlannedExif = {
    make: camera.make,
    model: camera.model,
    software: camera.software,
    bodySerialNumber: camera.bodySerialNumber,
    dateTime: stamp,
    dateTimeOriginal: stamp,
    dateTimeDigitized: stamp,
    offsetTime: camera.utcOffset,
    offsetTimeOriginal: camera.utcOffset,
    offsetTimeDigitized: camera.utcOffset,
    subSecTimeOriginal: subSec,
    subSecTimeDigitized: subSec,
    orientation: r.chance(0.15) ? r.pick([6, 8] as const) : r.chance(0.01) ? 3 : 1,
    exposureTime: r.pick(['1/60', '1/125', '1/250', '1/500', '1/1000']),
    fNumber: r.pick(['28/10', '4/1', '56/10', '8/1', '11/1']),
    iso: r.pick(['100', '200', '400', '800', '1600']),
    focalLength: `${Math.round(r.between(minFocal, maxFocal) * 10)}/10`,
  };
  if (r.chance(camera.gpsShare)) exif.gps = planGps(day, trueUtcMs, r);
  return exif;
}

function planGps(day: DayState, trueUtcMs: number, r: SeededRandom): PlannedGps {
  const stamp = exifDateTime(trueUtcMs);
  return {
    latitude: round(day.site.latitude + r.between(-0.0008, 0.0008), 6),
    longitude: round(day.site.longitude + r.between(-0.0008, 0.0008), 6),
    altitudeM: round(r.between(40, 180), 1),
    dateStamp: stamp.slice(0, 10),
    timeStamp: stamp.slice(11),
  };
}

function newDay(r: SeededRandom, previousDayStart: number): DayState {
  return {
    dayStart: previousDayStart + DAY_MS * r.int(1, 4),
    quota: r.int(8, MAX_PHOTOS_PER_DAY),
    taken: 0,
    site: {
      latitude: GPS_CENTRE.latitude + r.between(-0.05, 0.05),
      longitude: GPS_CENTRE.longitude + r.between(-0.05, 0.05),
    },
  };
}

/** Each camera shoots at one size: its native aspect ratio, scaled into the megapixel range. */
function photoSize(
  camera: CameraProfile,
  megapixels: [number, number] | undefined,
  r: SeededRandom,
): { width: number; height: number } {
  const aspect = camera.nativeWidth / camera.nativeHeight;
  const width =
    megapixels === undefined
      ? DEMO_LONG_EDGE
      : roundTo(Math.sqrt(r.between(megapixels[0], megapixels[1]) * 1e6 * aspect), 8);
  return { width, height: roundTo(width / aspect, 8) };
}

function roundTo(value: number, step: number): number {
  return Math.max(step, Math.round(value / step) * step);
}

export function parseUtcOffsetMinutes(offset: string): number {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  if (m === null) return Number.NaN;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

function isoDate(naiveMs: number): string {
  return new Date(naiveMs).toISOString().slice(0, 10);
}

/** 'YYYY:MM:DD HH:MM:SS', the EXIF 2.32 date format (tag 0x9003), from a naive timestamp. */
export function exifDateTime(naiveMs: number): string {
  const iso = new Date(naiveMs).toISOString(); // 2013-05-14T09:12:33.420Z
  return `${iso.slice(0, 10).replaceAll('-', ':')} ${iso.slice(11, 19)}`;
}

function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
