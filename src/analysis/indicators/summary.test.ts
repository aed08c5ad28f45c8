import { describe, expect, it } from 'vitest';
import { hasCode } from '../../core/index.js';
import { alter, cleanCollection, exifDate, NOW, shotOf } from './clean-collection.fixture.js';
import type { ImageFacts } from './image-facts.js';
import { computeIndicators, INDICATOR_DISCLAIMER, summariseCollection } from './index.js';

/** A day of the photographer's work: `count` pictures from 00:00 to 23:59 local, EXIF offset +03:00. */
function busyDay(count: number): ImageFacts[] {
  const base = shotOf(cleanCollection(), 'A', 0);
  return Array.from({ length: count }, (_, i) => {
    const literal = exifDate(Date.UTC(2023, 3, 7) + Math.floor((i * 86_399_000) / (count - 1)));
    const name = `DSC_${String(2000 + i)}.JPG`;
    return {
      ...base,
      sha256: `${'f'.repeat(60)}${String(i).padStart(4, '0')}`,
      items: [
        { id: `busy-${i}`, name, relativePath: `DCIM/101ND750/${name}`, delivery: 'ROWAN-05' },
      ],
      dateTimeOriginal: literal,
      createDate: literal,
      modifyDate: literal,
      offsetTimeOriginal: '+03:00',
    };
  });
}

describe('summariseCollection', () => {
  it('summarises each camera of the clean collection, with no anomalies', () => {
    const s = summariseCollection(cleanCollection(), { now: NOW });
    expect(s.disclaimer).toBe(INDICATOR_DISCLAIMER);
    expect(s.anomalies).toEqual([]);
    expect(s.cameras).toEqual([
      {
        make: 'Canon',
        model: 'Canon EOS 5D Mark III',
        bodySerial: '032021001234',
        images: 40,
        first: '2023:03:05 09:00:00',
        last: '2023:03:08 13:30:00',
        dimensions: ['5760x3840'],
        qualities: [96],
        software: [],
      },
      {
        make: 'NIKON CORPORATION',
        model: 'NIKON D750',
        bodySerial: '6021345',
        images: 40,
        first: '2023:03:01 08:00:00',
        last: '2023:03:02 11:48:00',
        dimensions: ['4016x6016', '6016x4016'],
        qualities: [90, 97],
        software: ['Ver.1.15'],
      },
      expect.objectContaining({
        make: 'samsung',
        model: 'SM-G991B',
        bodySerial: null,
        images: 40,
        qualities: [90, 91, 92, 93, 94, 95],
      }),
    ]);
  });

  it('counts images per camera per literal calendar day', () => {
    const s = summariseCollection(cleanCollection(), { now: NOW });
    const rows = (camera: string) =>
      s.perCameraPerDay.filter((r) => r.camera === camera).map((r) => [r.day, r.images]);
    expect(rows('NIKON CORPORATION NIKON D750 #6021345')).toEqual([
      ['2023-03-01', 20],
      ['2023-03-02', 20],
    ]);
    expect(rows('Canon Canon EOS 5D Mark III #032021001234')).toEqual(
      ['2023-03-05', '2023-03-06', '2023-03-07', '2023-03-08'].map((d) => [d, 10]),
    );
    expect(rows('samsung SM-G991B')).toEqual(
      ['2023-03-10', '2023-03-11', '2023-03-12', '2023-03-13', '2023-03-14'].map((d) => [d, 8]),
    );
    expect(s.perCameraPerDay.reduce((n, r) => n + r.images, 0)).toBe(120);
  });

  it('counts a 50-picture day from midnight to 23:59 as one day, whatever the offset, and duplicates once', () => {
    const day = busyDay(50);
    const withDuplicate = [...cleanCollection(), ...day, { ...(day[7] as ImageFacts) }];
    const s = summariseCollection(withDuplicate, { now: NOW });
    expect(day[0]?.dateTimeOriginal).toBe('2023:04:07 00:00:00');
    expect(day[49]?.dateTimeOriginal).toBe('2023:04:07 23:59:59');
    const nikonDays = s.perCameraPerDay.filter((r) => r.camera.startsWith('NIKON'));
    expect(nikonDays.map((r) => [r.day, r.images])).toEqual([
      ['2023-03-01', 20],
      ['2023-03-02', 20],
      ['2023-04-07', 50],
    ]);
    expect(s.cameras.find((c) => c.model === 'NIKON D750')?.images).toBe(90);
  });

  it('lists the images with indicators, and the same codes as computeIndicators', () => {
    const c = cleanCollection();
    const edited = shotOf(c, 'A', 10);
    const cropped = shotOf(c, 'B', 3);
    const altered = alter(alter(c, edited, { software: 'GIMP 2.10' }), cropped, {
      width: 4000,
      height: 3000,
    });
    const s = summariseCollection(altered, { now: NOW });
    expect(s.anomalies).toEqual([
      { sha256: edited.sha256, codes: ['EDITING_SOFTWARE'] },
      { sha256: cropped.sha256, codes: ['DIMENSIONS_UNLIKE_CAMERA'] },
    ]);
    for (const f of altered) {
      const codes = computeIndicators(f, altered, { now: NOW }).map((i) => i.code);
      expect(s.anomalies.find((a) => a.sha256 === f.sha256)?.codes ?? []).toEqual(codes);
    }
  });

  it('shows a routine editor in the camera table, where the per-image indicator stays silent', () => {
    const c = cleanCollection().map((f) =>
      f.model === 'NIKON D750' ? { ...f, software: 'Adobe Photoshop Lightroom 6.0' } : f,
    );
    const s = summariseCollection(c, { now: NOW });
    expect(s.anomalies).toEqual([]);
    expect(s.cameras.find((cam) => cam.model === 'NIKON D750')?.software).toEqual([
      'Adobe Photoshop Lightroom 6.0',
    ]);
  });

  it('groups images without a camera model as one unknown camera, listed last', () => {
    const c = cleanCollection();
    const stripped = alter(c, shotOf(c, 'C', 2), {
      make: null,
      model: null,
      exifPresent: false,
      dateTimeOriginal: null,
    });
    const s = summariseCollection(stripped, { now: NOW });
    expect(s.cameras[s.cameras.length - 1]).toMatchObject({
      make: null,
      model: null,
      images: 1,
      first: null,
    });
  });

  it('refuses a malformed clock or threshold with a code', () => {
    const c = cleanCollection();
    expect(() => summariseCollection(c, { now: '2024-06-01' })).toThrow(
      expect.objectContaining({ code: 'INDICATORS_BAD_NOW' }),
    );
    let caught: unknown;
    try {
      computeIndicators(shotOf(c, 'A', 0), c, { now: NOW, thumbnailDistance: 257 });
    } catch (e) {
      caught = e;
    }
    expect(hasCode(caught, 'INDICATORS_BAD_THRESHOLD')).toBe(true);
  });
});
