import { describe, expect, it } from 'vitest';
import {
  alter,
  cleanCollection,
  expectOnly,
  flipBits,
  NOW,
  prng,
  indicatorOf,
  raisedBy,
  raisedIndicator,
  shotOf,
} from './clean-collection.fixture.js';
import { pdqDistance } from './facts-keys.js';

describe('CAMERA_UNLIKE_DELIVERY', () => {
  it("is raised for a Canon picture slipped into the Nikon photographer's delivery", () => {
    const c = cleanCollection();
    const target = shotOf(c, 'B', 15);
    const name = target.items[0]?.name ?? '';
    const moved = alter(c, target, {
      items: [{ id: 'b-15', name, relativePath: `DCIM/100ND750/${name}`, delivery: 'ROWAN-01' }],
    });
    expectOnly(moved, target, ['CAMERA_UNLIKE_DELIVERY']);
    expect(raisedIndicator(moved, target, 'CAMERA_UNLIKE_DELIVERY').evidence.findings).toEqual([
      'delivery ROWAN-01: no other of its 40 images comes from a Canon Canon EOS 5D Mark III; they come from NIKON CORPORATION NIKON D750',
    ]);
  });

  it('is raised for a second D750 body among images that all carry one serial', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const altered = alter(c, target, { bodySerial: '6029999' });
    expectOnly(altered, target, ['CAMERA_UNLIKE_DELIVERY']);
    expect(raisedIndicator(altered, target, 'CAMERA_UNLIKE_DELIVERY').evidence).toMatchObject({
      findings: [
        'delivery ROWAN-01: serial 6029999 differs from serial 6021345, which all 39 other serial-bearing images of the NIKON CORPORATION NIKON D750 in that delivery carry',
      ],
      bodySerial: '6029999',
      sameBodyElsewhereInCollection: 0,
    });
  });

  it('is not raised in a small delivery (fewer than 5 other images)', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'B', 15);
    const name = target.items[0]?.name ?? '';
    const fourNikons = c.slice(0, 4);
    const moved = alter([...fourNikons, ...c.slice(40)], target, {
      items: [{ id: 'b-15', name, relativePath: name, delivery: 'ROWAN-01' }],
    });
    expect(indicatorOf(moved, target, 'CAMERA_UNLIKE_DELIVERY')).toBeUndefined();
  });
});

describe('THUMBNAIL_MISMATCH', () => {
  it("is raised when the EXIF thumbnail was swapped for another picture's", () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const altered = alter(c, target, { thumbnailPdq: shotOf(c, 'C', 30).pdq });
    expectOnly(altered, target, ['THUMBNAIL_MISMATCH']);
    const ev = raisedIndicator(altered, target, 'THUMBNAIL_MISMATCH').evidence;
    expect(ev.distance).toBeGreaterThan(90);
    expect(ev).toMatchObject({ bar: 40, configuredThreshold: 40, modelMedianDistance: 6 });
  });

  it('is raised on the letterboxing Canon only above its own median plus half the threshold', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'B', 10);
    const swapped = alter(c, target, { thumbnailPdq: shotOf(c, 'A', 3).pdq });
    expectOnly(swapped, target, ['THUMBNAIL_MISMATCH']);
    expect(raisedIndicator(swapped, target, 'THUMBNAIL_MISMATCH').evidence).toMatchObject({
      bar: 68,
      modelMedianDistance: 48,
    });
  });

  it('raises 48 bits on the Nikon (median 6) but not 60 bits on the Canon (median 48)', () => {
    const c = cleanCollection();
    const nikon = shotOf(c, 'A', 10);
    const canon = shotOf(c, 'B', 10);
    const nikonThumb = flipBits(nikon.pdq ?? '', 48, prng(1));
    expect(raisedBy(alter(c, nikon, { thumbnailPdq: nikonThumb }))).toEqual({
      [nikon.sha256]: ['THUMBNAIL_MISMATCH'],
    });
    const canonThumb = flipBits(canon.pdq ?? '', 60, prng(2));
    expect(pdqDistance(canonThumb, canon.pdq)).toBe(60);
    expect(raisedBy(alter(c, canon, { thumbnailPdq: canonThumb }))).toEqual({});
  });

  it('honours opts.thumbnailDistance', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const altered = alter(c, target, { thumbnailPdq: shotOf(c, 'C', 30).pdq });
    expect(raisedBy(altered, { now: NOW, thumbnailDistance: 100 })).toEqual({
      [target.sha256]: ['THUMBNAIL_MISMATCH'],
    });
    expect(raisedBy(altered, { now: NOW, thumbnailDistance: 200 })).toEqual({});
  });
});

describe('QUANTISATION_UNLIKE_CAMERA', () => {
  it('is raised for a Nikon image re-compressed at quality 85 (new tables)', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const altered = alter(c, target, { quantDigest: 'c3'.repeat(32), estimatedQuality: 85 });
    expectOnly(altered, target, ['QUANTISATION_UNLIKE_CAMERA']);
    expect(raisedIndicator(altered, target, 'QUANTISATION_UNLIKE_CAMERA').evidence).toMatchObject({
      estimatedQuality: 85,
      modelQualities: ['90', '97'],
      modelTableSets: 2,
      otherImagesCompared: 39,
    });
  });

  it("is raised even when the editor's tables estimate the camera's own quality", () => {
    const c = cleanCollection();
    const target = shotOf(c, 'B', 30);
    expectOnly(alter(c, target, { quantDigest: 'd4'.repeat(32) }), target, [
      'QUANTISATION_UNLIKE_CAMERA',
    ]);
  });

  it('is not raised for a phone that chooses tables per image', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'C', 30);
    expect(
      raisedBy(alter(c, target, { quantDigest: 'c3'.repeat(32), estimatedQuality: 70 })),
    ).toEqual({});
  });
});

describe('DIMENSIONS_UNLIKE_CAMERA', () => {
  it('is raised for a cropped Nikon image, noting an aspect ratio the model never produced', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const altered = alter(c, target, { width: 5000, height: 3500 });
    expectOnly(altered, target, ['DIMENSIONS_UNLIKE_CAMERA']);
    expect(raisedIndicator(altered, target, 'DIMENSIONS_UNLIKE_CAMERA').evidence).toMatchObject({
      dimensions: '5000x3500',
      aspectRatio: '1.429',
      aspectRatioSeenForModel: 'no',
      modelDimensions: ['6016x4016'],
    });
  });

  it('names the likely original when the image was verified as a crop of another object', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const original = 'a'.repeat(64);
    const altered = alter(c, target, {
      width: 5000,
      height: 3500,
      cropOf: { sha256: original, box: '0.03,0.01,0.88,0.96' },
    });
    const found = raisedIndicator(altered, target, 'DIMENSIONS_UNLIKE_CAMERA');
    expect(found.evidence).toMatchObject({
      likelyOriginal: original,
      likelyOriginalBox: '0.03,0.01,0.88,0.96',
    });
    expect(found.explanation).toContain(original);
    // Without a verified crop, no original is named.
    const plain = raisedIndicator(alter(c, target, { width: 5000, height: 3500 }), target, 'DIMENSIONS_UNLIKE_CAMERA');
    expect(plain.evidence.likelyOriginal).toBeUndefined();
  });

  it("is raised for a resized image, noting that the aspect ratio is the camera's", () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const altered = alter(c, target, { width: 3008, height: 2008 });
    expectOnly(altered, target, ['DIMENSIONS_UNLIKE_CAMERA']);
    expect(
      raisedIndicator(altered, target, 'DIMENSIONS_UNLIKE_CAMERA').evidence.aspectRatioSeenForModel,
    ).toBe('yes');
  });

  it('is not raised for a frame rotated in pixels (h×w of a known size)', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'B', 10);
    expect(raisedBy(alter(c, target, { width: 3840, height: 5760 }))).toEqual({});
  });
});
