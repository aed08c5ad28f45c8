import { describe, expect, it } from 'vitest';
import {
  alter,
  cleanCollection,
  expectOnly,
  exifDate,
  NOW,
  raisedBy,
  raisedIndicator,
  shotOf,
} from './clean-collection.fixture.js';
import type { ImageFacts } from './image-facts.js';
import { computeIndicators } from './index.js';

/** All three EXIF dates set to one literal, as a tool that "fixes" dates writes them. */
const dated = (literal: string): Partial<ImageFacts> => ({
  dateTimeOriginal: literal,
  createDate: literal,
  modifyDate: literal,
});

/** The same receipt under another file name, as a rename on the source's computer leaves it. */
const renamed = (f: ImageFacts, name: string, folder: string): Partial<ImageFacts> => ({
  items: f.items.map((i) => ({ ...i, name, relativePath: `${folder}/${name}` })),
});

describe('NAME_SEQUENCE_VS_TIME', () => {
  it('is raised for DSC_0041 renamed DSC_0010, into a gap between two earlier pictures', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 20); // DSC_0041, the first picture of the second day
    const altered = alter(c, target, renamed(target, 'DSC_0010.JPG', 'DCIM/100ND750'));
    expectOnly(altered, target, ['NAME_SEQUENCE_VS_TIME']);
    expect(raisedIndicator(altered, target, 'NAME_SEQUENCE_VS_TIME').evidence).toMatchObject({
      name: 'DSC_0010.JPG',
      dateTimeOriginal: '2023:03:02 08:00:00',
      previousName: 'DSC_0009.JPG',
      previousDateTimeOriginal: '2023:03:01 08:48:00',
      nextName: 'DSC_0011.JPG',
      nextDateTimeOriginal: '2023:03:01 09:00:00',
    });
  });

  it("is raised across the Canon's counter wrap (IMG_0011 renamed IMG_9965)", () => {
    const c = cleanCollection();
    const target = shotOf(c, 'B', 25);
    expect(target.items[0]?.name).toBe('IMG_0011.JPG');
    expectOnly(alter(c, target, renamed(target, 'IMG_9965.JPG', 'DCIM/100CANON')), target, [
      'NAME_SEQUENCE_VS_TIME',
    ]);
  });

  it('is raised when DateTimeOriginal alone is moved an hour back (and the other dates with it)', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 30); // 2023:03:02 10:00, between 09:48 and 10:12
    expectOnly(alter(c, target, dated('2023:03:02 08:30:00')), target, ['NAME_SEQUENCE_VS_TIME']);
  });

  it("is raised for the last picture after the Canon's wrap (IMG_0039 dated before IMG_0037)", () => {
    const c = cleanCollection();
    const target = shotOf(c, 'B', 39); // 13:30, last after the wrap; IMG_0037 was 13:00
    expectOnly(alter(c, target, dated('2023:03:08 11:45:00')), target, ['NAME_SEQUENCE_VS_TIME']);
  });

  it('is raised for the first picture of a sequence when it is later than the next two', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 0);
    expectOnly(alter(c, target, dated('2023:03:01 08:30:00')), target, ['NAME_SEQUENCE_VS_TIME']);
  });
});

describe('TIMESTAMP_OUT_OF_RANGE', () => {
  it('is raised for the last Nikon picture dated seven months after the analysis time', () => {
    const c = cleanCollection();
    const target = shotOf(c, 'A', 39);
    const altered = alter(c, target, dated('2025:01:10 10:00:00'));
    expectOnly(altered, target, ['TIMESTAMP_OUT_OF_RANGE']);
    const ev = raisedIndicator(altered, target, 'TIMESTAMP_OUT_OF_RANGE').evidence;
    expect(ev.findings).toEqual([
      `DateTimeOriginal 2025:01:10 10:00:00 is more than a day after the analysis time ${NOW}`,
      `CreateDate 2025:01:10 10:00:00 is more than a day after the analysis time ${NOW}`,
      `ModifyDate 2025:01:10 10:00:00 is more than a day after the analysis time ${NOW}`,
      "DateTimeOriginal is 679 days after the NIKON CORPORATION NIKON D750 #6021345's last other image (2023:03:02 11:36:00)",
    ]);
    expect(ev.cameraLastOther).toBe('2023:03:02 11:36:00');
  });

  it("is raised for a picture three months after the camera's other pictures (not in the future)", () => {
    const c = cleanCollection();
    const target = shotOf(c, 'C', 39); // phone file names carry no counter: no sequence to break
    const altered = alter(c, target, {
      ...dated('2023:06:15 12:00:00'),
      modifyDate: '2023:06:15 12:00:01',
    });
    expectOnly(altered, target, ['TIMESTAMP_OUT_OF_RANGE']);
  });

  it("is raised for a picture dated well before the camera's first other picture", () => {
    const c = cleanCollection();
    const target = shotOf(c, 'C', 0);
    expectOnly(
      alter(c, target, { ...dated('2022:11:01 07:00:00'), modifyDate: '2022:11:01 07:00:01' }),
      target,
      ['TIMESTAMP_OUT_OF_RANGE'],
    );
  });

  it("is not raised within 30 days of the camera's range", () => {
    const c = cleanCollection();
    const target = shotOf(c, 'C', 39);
    expect(
      raisedBy(
        alter(c, target, { ...dated('2023:04:10 12:00:00'), modifyDate: '2023:04:10 12:00:01' }),
      ),
    ).toEqual({});
  });

  it('allows a day for unknown time zones before calling a date future', () => {
    const lone = { ...shotOf(cleanCollection(), 'A', 0), items: [] };
    const nowMs = Date.parse(NOW);
    const at = (hours: number) =>
      computeIndicators({ ...lone, ...dated(exifDate(nowMs + hours * 3_600_000)) }, [], {
        now: NOW,
      });
    expect(at(14)).toEqual([]);
    expect(at(23)).toEqual([]);
    expect(at(25).map((i) => i.code)).toEqual(['TIMESTAMP_OUT_OF_RANGE']);
  });
});
