import { describe, expect, it } from 'vitest';
import { cleanCollection, exifDate, raisedBy, shotOf } from './clean-collection.fixture.js';
import { parseExifDateTime } from './facts-keys.js';
import type { ImageFacts } from './image-facts.js';
import { INDICATOR_CODES, INDICATOR_DISCLAIMER, INDICATOR_DOCS } from './index.js';

describe('a clean, consistent collection', () => {
  it('raises nothing for any of its 120 images', () => {
    const collection = cleanCollection();
    expect(collection).toHaveLength(120);
    expect(raisedBy(collection)).toEqual({});
  });

  it('has the habits the baselines must absorb (so the silence above means something)', () => {
    const c = cleanCollection();
    // Canon thumbnails sit 48 bits from their images (letterboxing), above the default 40.
    expect(shotOf(c, 'B', 0).thumbnailPdq).not.toBe(shotOf(c, 'B', 0).pdq);
    // The Canon counter wraps from 9998 to 0001.
    expect(shotOf(c, 'B', 19).items[0]?.name).toBe('IMG_9998.JPG');
    expect(shotOf(c, 'B', 20).items[0]?.name).toBe('IMG_0001.JPG');
    // The phone writes ModifyDate a second after DateTimeOriginal and new tables for every image.
    const p = shotOf(c, 'C', 0);
    expect(parseExifDateTime(p.modifyDate)).toBe(
      (parseExifDateTime(p.dateTimeOriginal) ?? 0) + 1000,
    );
    expect(new Set(c.slice(80).map((f) => f.quantDigest)).size).toBe(40);
    // The Nikon shoots portrait frames (4016×6016) as well as landscape ones.
    expect(shotOf(c, 'A', 4).width).toBe(4016);
  });

  it('raises nothing when a whole model routinely carries an editor in Software (a workflow, not an image)', () => {
    const c = cleanCollection().map((f) =>
      f.model === 'NIKON D750'
        ? { ...f, software: 'Adobe Photoshop Lightroom Classic 13.1 (Windows)' }
        : f,
    );
    expect(raisedBy(c)).toEqual({});
  });

  it('raises nothing for a folder of messaging-app images, none of which has EXIF', () => {
    const extra: ImageFacts[] = Array.from({ length: 6 }, (_, i) => ({
      ...shotOf(cleanCollection(), 'C', i),
      sha256: `${'e'.repeat(62)}${String(i).padStart(2, '0')}`,
      items: [
        {
          id: `w-${i}`,
          name: `IMG-20230310-WA000${i}.jpg`,
          relativePath: `WhatsApp/Media/IMG-20230310-WA000${i}.jpg`,
          delivery: 'ROWAN-02',
        },
      ],
      exifPresent: false,
      make: null,
      model: null,
      software: null,
      dateTimeOriginal: null,
      createDate: null,
      modifyDate: null,
      thumbnailPdq: null,
    }));
    expect(raisedBy([...cleanCollection(), ...extra])).toEqual({});
  });

  it('raises nothing for a crowd-sourced delivery of one image from each of eight phones', () => {
    const crowd: ImageFacts[] = Array.from({ length: 8 }, (_, i) => ({
      ...shotOf(cleanCollection(), 'C', i),
      sha256: `${'c'.repeat(62)}${String(i).padStart(2, '0')}`,
      items: [
        {
          id: `x-${i}`,
          name: `photo${i}.jpg`,
          relativePath: `upload/photo${i}.jpg`,
          delivery: 'CROWD-01',
        },
      ],
      make: 'Various',
      model: `Phone ${i}`,
      dateTimeOriginal: exifDate(Date.UTC(2023, 2, 12, 10, i)),
      createDate: exifDate(Date.UTC(2023, 2, 12, 10, i)),
      modifyDate: exifDate(Date.UTC(2023, 2, 12, 10, i)),
    }));
    expect(raisedBy([...cleanCollection(), ...crowd])).toEqual({});
  });

  it('raises nothing for a second body of the same model delivered on its own', () => {
    const c = cleanCollection();
    const second = c.slice(0, 6).map((f, i) => ({
      ...f,
      sha256: `${'d'.repeat(62)}${String(i).padStart(2, '0')}`,
      bodySerial: '6099999',
      items: [
        {
          id: `s-${i}`,
          name: `DSC_${String(500 + i)}.JPG`,
          relativePath: `card/DSC_0${500 + i}.JPG`,
          delivery: 'ROWAN-04',
        },
      ],
    }));
    expect(raisedBy([...c, ...second])).toEqual({});
  });
});

describe('documentation and disclaimer', () => {
  it('documents every code in UPPER_SNAKE with one paragraph', () => {
    expect(Object.keys(INDICATOR_DOCS).sort()).toEqual([...INDICATOR_CODES].sort());
    for (const code of INDICATOR_CODES) {
      expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(INDICATOR_DOCS[code].length).toBeGreaterThan(200);
      expect(INDICATOR_DOCS[code]).toMatch(/Innocent explanations/);
    }
  });

  it('says that indicators are not verdicts', () => {
    expect(INDICATOR_DISCLAIMER).toMatch(/none of them is a verdict/);
  });
});
