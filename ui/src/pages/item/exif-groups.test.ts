import { describe, expect, it } from 'vitest';
import { groupDump, groupMetadata } from './exif-groups';
import type { ItemMetadata } from './types';

const none: ItemMetadata = {
  make: null,
  model: null,
  body_serial_number: null,
  software: null,
  xmp_creator_tool: null,
  xmp_history_software: [],
  date_time_original: null,
  create_date: null,
  modify_date: null,
  offset_time_original: null,
  sub_sec_time_original: null,
  orientation: null,
  width: null,
  height: null,
  gps_latitude: null,
  gps_longitude: null,
  jpeg_quality: null,
  quant_digest: null,
  thumbnail_pdq: null,
};

describe('EXIF in readable groups', () => {
  it('groups the extracted fields, leaving out empty fields and empty groups', () => {
    const groups = groupMetadata({
      ...none,
      make: 'Alpha',
      model: 'Alpha One',
      date_time_original: '2024:03:01 10:01:00',
      width: 4000,
      height: 3000,
      gps_latitude: 0,
      xmp_history_software: ['Editor 1', 'Editor 2'],
      thumbnail_pdq: 'ff',
    });
    expect(groups).toEqual([
      { group: 'camera', rows: [{ field: 'make', value: 'Alpha' }, { field: 'model', value: 'Alpha One' }] },
      { group: 'dates', rows: [{ field: 'date_time_original', value: '2024:03:01 10:01:00' }] },
      { group: 'image', rows: [{ field: 'width', value: '4000' }, { field: 'height', value: '3000' }] },
      // 0 is a latitude (the equator), not a missing one.
      { group: 'location', rows: [{ field: 'gps_latitude', value: '0' }] },
      { group: 'software', rows: [{ field: 'xmp_history_software', value: 'Editor 1, Editor 2' }] },
    ]);
    expect(groupMetadata(none)).toEqual([]);
  });

  it('groups the full ExifTool dump by its family-0 group, in order, with long values cut', () => {
    const groups = groupDump(
      {
        SourceFile: '/x',
        'File:FileSize': 123,
        'EXIF:Make': 'Alpha',
        'File:MIMEType': 'image/jpeg',
        'EXIF:ThumbnailImage': 'x'.repeat(20),
        'XMP:History': [{ action: 'saved' }],
      },
      10,
    );
    expect(groups).toEqual([
      { group: 'Other', tags: [{ tag: 'SourceFile', value: '/x' }] },
      {
        group: 'File',
        tags: [
          { tag: 'FileSize', value: '123' },
          { tag: 'MIMEType', value: 'image/jpeg' },
        ],
      },
      {
        group: 'EXIF',
        tags: [
          { tag: 'Make', value: 'Alpha' },
          { tag: 'ThumbnailImage', value: 'xxxxxxxxxx… (20)' },
        ],
      },
      { group: 'XMP', tags: [{ tag: 'History', value: '[{"action"… (20)' }] },
    ]);
  });
});
