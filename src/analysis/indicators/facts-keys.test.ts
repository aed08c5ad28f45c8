import { describe, expect, it } from 'vitest';
import { cleanCollection, NOW, raisedBy, shotOf } from './clean-collection.fixture.js';
import { editorNamedIn } from './editing-software.js';
import {
  aspectKey,
  dimsKey,
  exifDay,
  namePattern,
  parseExifDateTime,
  parseRfc3339,
  pdqDistance,
} from './facts-keys.js';
import type { ImageFacts } from './image-facts.js';
import { computeIndicators } from './index.js';
import { medianWithout } from './tally.js';

describe('parsers of hostile metadata', () => {
  it('reads literal EXIF date-times without a time zone and rejects impossible ones', () => {
    expect(parseExifDateTime('2023:03:01 08:00:00')).toBe(Date.UTC(2023, 2, 1, 8));
    expect(parseExifDateTime('2023:03:01 08:00:00\0')).toBe(Date.UTC(2023, 2, 1, 8));
    for (const bad of [
      '2023:02:30 10:00:00',
      '0000:00:00 00:00:00',
      '    :  :     :  :  ',
      '2023-03-01 08:00:00',
      '2023:13:01 00:00:00',
      '2023:03:01 24:00:00',
      '',
    ]) {
      expect(parseExifDateTime(bad)).toBeNull();
    }
    expect(exifDay('2023:04:07 23:59:59')).toBe('2023-04-07');
  });

  it('reads RFC 3339 times only', () => {
    expect(parseRfc3339('2024-06-01T12:00:00Z')).toBe(Date.UTC(2024, 5, 1, 12));
    expect(parseRfc3339('2024-06-01T15:00:00+03:00')).toBe(Date.UTC(2024, 5, 1, 12));
    expect(parseRfc3339('2024-06-01')).toBeNull();
    expect(parseRfc3339('yesterday')).toBeNull();
  });

  it('recognises camera counter names but not dates or free names', () => {
    expect(namePattern('DSC_0041.JPG')).toEqual({ key: 'DSC_####', number: 41, digits: 4 });
    expect(namePattern('_dsc1234.jpg')).toEqual({ key: '_DSC####', number: 1234, digits: 4 });
    expect(namePattern('IMG_20230310_101500.jpg')).toBeNull();
    expect(namePattern('IMG-20230310-WA0001.jpg')).toBeNull();
    expect(namePattern('evidence.jpg')).toBeNull();
  });

  it('treats w×h and h×w as one size and rejects nonsense sizes', () => {
    const f = (width: number | null, height: number | null) => ({
      ...shotOf(cleanCollection(), 'A', 0),
      width,
      height,
    });
    expect(dimsKey(f(4016, 6016))).toBe(dimsKey(f(6016, 4016)));
    expect(aspectKey(f(6000, 4000))).toBe('1.500');
    expect(dimsKey(f(0, 10))).toBeNull();
    expect(dimsKey(f(null, 10))).toBeNull();
  });

  it('measures PDQ distance and refuses malformed hashes', () => {
    expect(pdqDistance('0'.repeat(64), '0'.repeat(63) + '3')).toBe(2);
    expect(pdqDistance('f'.repeat(64), '0'.repeat(64))).toBe(256);
    expect(pdqDistance('zz', '0'.repeat(64))).toBeNull();
    expect(pdqDistance(null, '0'.repeat(64))).toBeNull();
  });

  it('takes the median without the image under examination', () => {
    expect(medianWithout([1, 2, 3, 100], 100)).toBe(2);
    expect(medianWithout([1, 2, 3, 100], 2)).toBe(3);
    expect(medianWithout([6, 6, 6, 6], 6)).toBe(6);
    expect(medianWithout([5], 5)).toBeNull();
    expect(medianWithout([1, 3], null)).toBe(2);
  });
});

describe('editorNamedIn', () => {
  it('names editors case-insensitively, the most specific first', () => {
    expect(editorNamedIn('Adobe Photoshop CC 2019 (Macintosh)')).toBe('Adobe Photoshop');
    expect(editorNamedIn('Adobe Photoshop Lightroom Classic 13.1 (Windows)')).toBe(
      'Adobe Lightroom',
    );
    expect(editorNamedIn('GIMP 2.10.34')).toBe('GIMP');
    expect(editorNamedIn('paint.net 5.0')).toBe('Paint.NET');
    expect(editorNamedIn('Microsoft Windows Photo Viewer 6.1.7600.16385')).toBe(
      'Windows Photo Viewer',
    );
    expect(editorNamedIn('Canva')).toBe('Canva');
  });

  it('does not see editors in camera firmware or inside other words', () => {
    for (const firmware of [
      'Ver.1.15',
      'G991BXXU5CVLL',
      'HDR+ 1.0.540104767zd',
      'ILCE-7M3 v3.01',
      'Canvas Studio',
      'Digital Photo Professional',
    ]) {
      expect(editorNamedIn(firmware)).toBeNull();
    }
  });
});

describe('robustness', () => {
  it('never throws on hostile facts, and raises nothing it cannot justify', () => {
    const c = cleanCollection();
    const hostile: ImageFacts = {
      ...shotOf(c, 'A', 5),
      sha256: '9'.repeat(64),
      items: [],
      make: '\0\0',
      model: ' ',
      dateTimeOriginal: '2023:02:30 25:61:61',
      createDate: 'garbage',
      modifyDate: null,
      subSecTimeOriginal: 'abc',
      width: -1,
      height: Number.NaN,
      pdq: 'not-a-hash',
      thumbnailPdq: '0'.repeat(64),
      quantDigest: '',
      xmpHistorySoftware: [],
    };
    expect(computeIndicators(hostile, c, { now: NOW })).toEqual([]);
    expect(raisedBy([...c, hostile])).toEqual({});
  });

  it('adds the target when the collection does not hold it', () => {
    const c = cleanCollection();
    const target = { ...shotOf(c, 'A', 10), software: 'Adobe Photoshop 25.0 (Windows)' };
    const rest = c.filter((f) => f.sha256 !== target.sha256);
    expect(computeIndicators(target, rest, { now: NOW }).map((i) => i.code)).toEqual([
      'EDITING_SOFTWARE',
    ]);
  });
});
