import { describe, expect, it } from 'vitest';
import { hasCode } from '../core/index.js';
import { DEFAULT_CAMERAS, type CameraProfile } from './camera-profiles.js';
import { MAX_PHOTOS_PER_DAY } from './camera-timeline.js';
import { COPIES_FOLDER, planCollection } from './collection-plan.js';
import type { PlannedPhoto } from './plan-types.js';

const plan = planCollection({ count: 2000, seed: 'plan-test' });
const originals = plan.filter((p) => p.duplicateOf === undefined);

function byCamera(photos: readonly PlannedPhoto[]): Map<string, PlannedPhoto[]> {
  const groups = new Map<string, PlannedPhoto[]>();
  for (const p of photos) groups.set(p.camera.id, [...(groups.get(p.camera.id) ?? []), p]);
  return groups;
}

/** Camera-clock instant as a sortable string: 'YYYY:MM:DD HH:MM:SS.cc'. */
const shotTime = (p: PlannedPhoto) => `${p.exif.dateTimeOriginal}.${p.exif.subSecTimeOriginal}`;

function offsetMs(offset: string): number {
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000;
}

function naiveMs(exifDateTime: string): number {
  const [date = '', time = ''] = exifDateTime.split(' ');
  return Date.parse(`${date.replaceAll(':', '-')}T${time}Z`);
}

function expectCode(fn: () => unknown, code: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(hasCode(caught, code)).toBe(true);
}

describe('planCollection', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    expect(planCollection({ count: 300, seed: 'plan-test' })).toEqual(plan.slice(0, 300));
    const other = planCollection({ count: 300, seed: 'another' });
    expect(other.map((p) => p.relativePath)).not.toEqual(
      plan.slice(0, 300).map((p) => p.relativePath),
    );
  });

  it('gives every file a unique, well-formed path', () => {
    expect(new Set(plan.map((p) => p.relativePath)).size).toBe(plan.length);
    for (const p of originals) {
      expect(p.relativePath).toMatch(
        /^camera-[a-d]\/\d{4}-\d{2}-\d{2}\/(DSC_\d{4}|IMG_\d{4}|P100\d{4}|DSC\d{5})\.JPG$/,
      );
      // the day folder is the camera-clock date of the shot
      expect(p.relativePath.split('/')[1]).toBe(
        p.exif.dateTimeOriginal.slice(0, 10).replaceAll(':', '-'),
      );
    }
    expect(plan.map((p) => p.index)).toEqual(plan.map((_, i) => i));
  });

  it("numbers each camera's files sequentially", () => {
    for (const photos of byCamera(originals).values()) {
      const c = photos[0]!.camera;
      const numbers = photos.map((p) => {
        const name = p.relativePath.split('/')[2]!;
        return Number(
          name.slice(c.fileNamePrefix.length, c.fileNamePrefix.length + c.fileNameDigits),
        );
      });
      expect(numbers).toEqual(numbers.map((_, i) => c.firstFileNumber + i));
    }
  });

  it('moves each camera clock forward, within working hours, at most 50 a day', () => {
    expect(MAX_PHOTOS_PER_DAY).toBe(50);
    for (const photos of byCamera(originals).values()) {
      const times = photos.map(shotTime);
      for (let i = 1; i < times.length; i++) expect(times[i]! > times[i - 1]!).toBe(true);
      const perDay = new Map<string, number>();
      for (const p of photos) {
        const day = p.exif.dateTimeOriginal.slice(0, 10);
        perDay.set(day, (perDay.get(day) ?? 0) + 1);
        const hour = Number(p.exif.dateTimeOriginal.slice(11, 13));
        expect(hour).toBeGreaterThanOrEqual(8);
        expect(hour).toBeLessThan(18);
      }
      expect(Math.max(...perDay.values())).toBeLessThanOrEqual(MAX_PHOTOS_PER_DAY);
      expect(perDay.size).toBeGreaterThan(3); // spans several days
    }
  });

  it('writes EXIF strings in EXIF format, consistent with one another', () => {
    for (const p of originals) {
      const e = p.exif;
      expect(e.dateTimeOriginal).toMatch(/^\d{4}:\d{2}:\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(e.subSecTimeOriginal).toMatch(/^\d{2}$/);
      expect(e.offsetTimeOriginal).toMatch(/^[+-]\d{2}:\d{2}$/);
      expect([e.dateTime, e.dateTimeDigitized]).toEqual([e.dateTimeOriginal, e.dateTimeOriginal]);
      expect(e.make).toBe(p.camera.make);
      expect(e.bodySerialNumber).toBe(p.camera.bodySerialNumber);
      // the file is written 0.3–2.5 s after the exposure, by the camera's clock
      const shot = naiveMs(e.dateTimeOriginal) + Number(e.subSecTimeOriginal) * 10;
      const written = p.mtimeMs - (shot - offsetMs(e.offsetTimeOriginal));
      expect(written).toBeGreaterThanOrEqual(300);
      expect(written).toBeLessThanOrEqual(2500);
    }
  });

  it('puts GPS only on GPS cameras, in true UTC that reveals clock skew', () => {
    const withGps = originals.filter((p) => p.exif.gps !== undefined);
    expect(withGps.length).toBeGreaterThan(100);
    for (const p of withGps) {
      expect(p.camera.gpsShare).toBeGreaterThan(0);
      const gps = p.exif.gps!;
      expect(Math.abs(gps.latitude - 41)).toBeLessThan(0.2);
      const gpsUtc = naiveMs(`${gps.dateStamp} ${gps.timeStamp}`);
      const cameraUtc = naiveMs(p.exif.dateTimeOriginal) - offsetMs(p.exif.offsetTimeOriginal);
      expect(Math.round((cameraUtc - gpsUtc) / 1000)).toBe(p.camera.clockSkewSeconds);
    }
    expect(originals.filter((p) => p.camera.gpsShare === 0 && p.exif.gps)).toEqual([]);
  });

  it('makes a few % exact copies, each of an earlier original, under copies/', () => {
    const copies = plan.filter((p) => p.duplicateOf !== undefined);
    expect(copies.length / plan.length).toBeGreaterThan(0.015);
    expect(copies.length / plan.length).toBeLessThan(0.05);
    const copied = new Set<number>();
    for (const c of copies) {
      const original = plan[c.duplicateOf!]!;
      expect(c.duplicateOf!).toBeLessThan(c.index);
      expect(original.duplicateOf).toBeUndefined();
      expect(c.relativePath).toBe(`${COPIES_FOLDER}/${original.relativePath}`);
      // everything but place, index and mtime is the original's
      const sameAsOriginal = {
        ...c,
        index: original.index,
        relativePath: original.relativePath,
        duplicateOf: undefined,
        mtimeMs: original.mtimeMs,
      };
      expect(sameAsOriginal).toEqual(original);
      expect(c.mtimeMs).toBeGreaterThan(original.mtimeMs);
      expect(copied.has(original.index)).toBe(false); // each original is copied at most once
      copied.add(original.index);
    }
  });

  it('shoots short bursts: the same scene, later frames numbered', () => {
    const bursts = originals.filter((p) => p.sceneVariant > 0);
    expect(bursts.length).toBeGreaterThan(20);
    for (const p of bursts) {
      const earlier = plan.slice(0, p.index).filter((q) => q.duplicateOf === undefined);
      const previous = earlier.filter((q) => q.camera.id === p.camera.id).at(-1)!;
      expect(previous.sceneSeed).toBe(p.sceneSeed);
      expect(previous.sceneVariant).toBe(p.sceneVariant - 1);
    }
  });

  it('sizes photos at 1024 px wide by default and in the megapixel range when asked', () => {
    for (const p of plan.slice(0, 200)) {
      expect(p.width).toBe(1024);
      expect(p.width / p.height).toBeCloseTo(p.camera.nativeWidth / p.camera.nativeHeight, 1);
    }
    const big = planCollection({ count: 200, seed: 'plan-test', megapixels: [6, 12] });
    for (const p of big) {
      expect(p.width * p.height).toBeGreaterThan(5.8e6);
      expect(p.width * p.height).toBeLessThan(12.2e6);
      expect(p.width % 8).toBe(0);
      expect(p.height % 8).toBe(0);
    }
    // the size setting changes only the sizes, not the files or their dates
    expect(big.map((p) => p.relativePath)).toEqual(plan.slice(0, 200).map((p) => p.relativePath));
  });

  it('honours startDate and custom cameras', () => {
    const camera: CameraProfile = { ...DEFAULT_CAMERAS[0]!, id: 'field-cam', gpsShare: 1 };
    const custom = planCollection({
      count: 30,
      seed: 'c',
      cameras: [camera],
      startDate: '2022-03-01',
      duplicateRate: 0,
    });
    expect(custom.every((p) => p.relativePath.startsWith('field-cam/2022-03-0'))).toBe(true);
    expect(custom.every((p) => p.exif.gps !== undefined && p.duplicateOf === undefined)).toBe(true);
  });

  it('refuses bad options with DEMO_BAD_OPTION', () => {
    const seed = 's';
    expectCode(() => planCollection({ count: -1, seed }), 'DEMO_BAD_OPTION');
    expectCode(() => planCollection({ count: 1.5, seed }), 'DEMO_BAD_OPTION');
    expectCode(() => planCollection({ count: 1, seed: '' }), 'DEMO_BAD_OPTION');
    expectCode(() => planCollection({ count: 1, seed, duplicateRate: 0.9 }), 'DEMO_BAD_OPTION');
    expectCode(
      () => planCollection({ count: 1, seed, startDate: '2013-02-30' }),
      'DEMO_BAD_OPTION',
    );
    expectCode(() => planCollection({ count: 1, seed, megapixels: [12, 6] }), 'DEMO_BAD_OPTION');
    expectCode(() => planCollection({ count: 1, seed, cameras: [] }), 'DEMO_BAD_OPTION');
    const a = DEFAULT_CAMERAS[0]!;
    expectCode(() => planCollection({ count: 1, seed, cameras: [a, a] }), 'DEMO_BAD_OPTION');
    expectCode(
      () => planCollection({ count: 1, seed, cameras: [{ ...a, id: '../x' }] }),
      'DEMO_BAD_OPTION',
    );
    expectCode(
      () => planCollection({ count: 1, seed, cameras: [{ ...a, id: 'copies' }] }),
      'DEMO_BAD_OPTION',
    );
    expectCode(
      () => planCollection({ count: 1, seed, cameras: [{ ...a, utcOffset: '3' }] }),
      'DEMO_BAD_OPTION',
    );
    expect(planCollection({ count: 0, seed })).toEqual([]);
  });
});
