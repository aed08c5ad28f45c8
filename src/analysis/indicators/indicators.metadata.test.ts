import { describe, expect, it } from 'vitest';
import {
  alter,
  cleanCollection,
  expectOnly,
  exifDate,
  raisedBy,
  raisedIndicator,
  shotOf,
} from './clean-collection.fixture.js';
import { parseExifDateTime } from './facts-keys.js';
import type { ImageFacts } from './image-facts.js';

const later = (literal: string | null, ms: number): string =>
  exifDate((parseExifDateTime(literal) ?? 0) + ms);

describe('EDITING_SOFTWARE', () => {
  it('is raised for a Nikon image re-saved by Photoshop (Software rewritten)', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const altered = alter(c, target, { software: 'Adobe Photoshop 25.0 (Windows)' });
    expectOnly(altered, target, ['EDITING_SOFTWARE']);
    const { evidence, explanation } = raisedIndicator(altered, target, 'EDITING_SOFTWARE');
    expect(evidence.editors).toEqual(['Adobe Photoshop']);
    expect(evidence.fields).toEqual(['Software: Adobe Photoshop 25.0 (Windows)']);
    expect(explanation).toMatch(/known image editors/);
  });

  it('is raised when only the XMP History names an editor (the phone rewrote Software afterwards)', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'C', 5);
    const altered = alter(c, target, { xmpHistorySoftware: ['Snapseed 2.0', 'Snapseed 2.0'] });
    expectOnly(altered, target, ['EDITING_SOFTWARE']);
    expect(raisedIndicator(altered, target, 'EDITING_SOFTWARE').evidence.fields).toEqual([
      'XMP History softwareAgent: Snapseed 2.0',
    ]);
  });

  it('is raised for XMP CreatorTool on a camera that writes no Software at all', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'B', 7);
    expectOnly(alter(c, target, { xmpCreatorTool: 'GIMP 2.10.34' }), target, ['EDITING_SOFTWARE']);
  });

  it('still sees an editor other than the one the model routinely carries', () => {
    const routine = cleanCollection().map((f) =>
      f.model === 'NIKON D750'
        ? { ...f, software: 'Adobe Photoshop Lightroom Classic 13.1 (Windows)' }
        : f,
    );
    const target = shotOf(routine, 'A', 10);
    const altered = alter(routine, target, { software: 'Adobe Photoshop 25.0 (Windows)' });
    expectOnly(altered, target, ['EDITING_SOFTWARE']);
  });

  it('counts a routine Software string that is an editor only when the rest of the model carries it', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    // The same string on this one image alone is not routine.
    const altered = alter(c, target, {
      software: 'Adobe Photoshop Lightroom Classic 13.1 (Windows)',
    });
    expect(raisedIndicator(altered, target, 'EDITING_SOFTWARE').evidence.editors).toEqual([
      'Adobe Lightroom',
    ]);
  });
});

describe('MODIFY_DATE_DIFFERS', () => {
  it('is raised when ModifyDate is three days after DateTimeOriginal on a Nikon that writes them equal', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const altered = alter(c, target, {
      modifyDate: later(target.dateTimeOriginal, 3 * 86_400_000),
    });
    expectOnly(altered, target, ['MODIFY_DATE_DIFFERS']);
    const { evidence } = raisedIndicator(altered, target, 'MODIFY_DATE_DIFFERS');
    expect(evidence).toMatchObject({
      differenceSeconds: 259_200,
      otherImagesCompared: 39,
      otherImagesEqual: 39,
    });
  });

  it('is not raised for a phone whose ModifyDate routinely differs', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'C', 10);
    const altered = alter(c, target, {
      modifyDate: later(target.dateTimeOriginal, 3 * 86_400_000),
    });
    expect(raisedBy(altered)).toEqual({});
  });

  it('is not raised when the model has too few other images to know its habit', () => {
    const c = cleanCollection().slice(0, 3);
    const target = shotOf(c, 'A', 0);
    expect(raisedBy(alter(c, target, { modifyDate: '2023:04:01 10:00:00' }))).toEqual({});
  });
});

describe('EXIF_MISSING', () => {
  const stripped: Partial<ImageFacts> = {
    exifPresent: false,
    make: null,
    model: null,
    bodySerial: null,
    software: null,
    dateTimeOriginal: null,
    createDate: null,
    modifyDate: null,
    subSecTimeOriginal: null,
    orientation: null,
    thumbnailPdq: null, // the thumbnail lives in EXIF IFD1
  };

  it('is raised for a DSC_ image with its EXIF stripped, by name pattern and by folder', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const altered = alter(c, target, stripped);
    expectOnly(altered, target, ['EXIF_MISSING']);
    const { evidence } = raisedIndicator(altered, target, 'EXIF_MISSING');
    expect(evidence.missing).toEqual(['EXIF', 'Make', 'Model', 'DateTimeOriginal']);
    expect(evidence.peers).toEqual([
      'file-name pattern DSC_####: 39 of 39 other images have Make, Model and DateTimeOriginal',
      'folder ROWAN-01:DCIM/100ND750: 39 of 39 other images have Make, Model and DateTimeOriginal',
    ]);
  });

  it('is raised for a phone image with EXIF stripped, by folder alone (its name has no counter)', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'C', 3);
    expectOnly(alter(c, target, stripped), target, ['EXIF_MISSING']);
  });

  it('is raised when EXIF is present but DateTimeOriginal was removed', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'B', 12);
    const altered = alter(c, target, { dateTimeOriginal: null });
    expectOnly(altered, target, ['EXIF_MISSING']);
    expect(raisedIndicator(altered, target, 'EXIF_MISSING').evidence.missing).toEqual([
      'DateTimeOriginal',
    ]);
  });
});

describe('a full re-save in an editor', () => {
  it('raises each trace it leaves, and nothing else', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 10);
    const altered = alter(c, target, {
      software: 'Adobe Photoshop 25.0 (Windows)',
      modifyDate: '2023:05:02 17:44:10',
      quantDigest: 'ee'.repeat(32),
      estimatedQuality: 92,
    });
    expectOnly(altered, target, [
      'EDITING_SOFTWARE',
      'MODIFY_DATE_DIFFERS',
      'QUANTISATION_UNLIKE_CAMERA',
    ]);
  });
});
