// readExifFields (exifr) against ExifTool on 33 camera JPEGs: ../shared/fixtures/exif/images with
// exiftool.json (`exiftool -json -n -G`, ExifTool 12.57). The images are NOT copied into the repo
// (mixed Wikimedia licences, fixtures README); without them this file skips, except on CI.
//
// The rule: every field we report equals ExifTool's value where ExifTool has one, and is null
// where ExifTool has none. Mappings worth knowing:
// - ExifTool names 0xA431 'SerialNumber' (EXIF 2.32 calls it BodySerialNumber).
// - With -n, EXIF:GPSLatitude is UNSIGNED (its Ref is separate); the signed value is
//   Composite:GPSLatitude. We compare with the Composite tag, within 1e-6 degrees.
// - EXIF:ExifImageWidth of Kodak_CX7530 is '100 0' (two values where 1 is allowed): we report the
//   first and warn, so the comparison takes ExifTool's first value.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readExifFields, type ExifFields } from '../../src/analysis/metadata/index.js';
import { isCi } from '../support/postgres.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SHARED_EXIF = path.resolve(HERE, '../../../shared/fixtures/exif');
const EXPECTED_JSON = path.join(SHARED_EXIF, 'exiftool.json');
const SKIP_REASON = existsSync(EXPECTED_JSON)
  ? null
  : `EXIF sample images not found at ${SHARED_EXIF} (they may not be copied into the repo; see the fixtures README)`;
if (SKIP_REASON !== null) {
  if (isCi()) throw new Error(`CI=true requires the shared fixtures, but: ${SKIP_REASON}`);
  console.warn(`[metadata-fixtures] skipped: ${SKIP_REASON}`);
}

type Dump = Record<string, unknown>;
type Kind = 'text' | 'integer' | 'degrees' | 'metres' | 'list';
interface Mapping {
  field: string;
  get: (f: ExifFields) => unknown;
  expected: (d: Dump) => unknown;
  kind: Kind;
}

const tag = (key: string) => (d: Dump) => d[key];
const firstOf = (key: string) => (d: Dump) =>
  typeof d[key] === 'string' ? Number(String(d[key]).split(' ')[0]) : d[key];

const MAPPINGS: Mapping[] = [
  { field: 'make', get: (f) => f.make, expected: tag('EXIF:Make'), kind: 'text' },
  { field: 'model', get: (f) => f.model, expected: tag('EXIF:Model'), kind: 'text' },
  {
    field: 'bodySerialNumber',
    get: (f) => f.bodySerialNumber,
    expected: (d) => d['EXIF:SerialNumber'] ?? d['EXIF:BodySerialNumber'],
    kind: 'text',
  },
  { field: 'lensMake', get: (f) => f.lensMake, expected: tag('EXIF:LensMake'), kind: 'text' },
  { field: 'lensModel', get: (f) => f.lensModel, expected: tag('EXIF:LensModel'), kind: 'text' },
  {
    field: 'dateTimeOriginal',
    get: (f) => f.dateTimeOriginal,
    expected: tag('EXIF:DateTimeOriginal'),
    kind: 'text',
  },
  { field: 'createDate', get: (f) => f.createDate, expected: tag('EXIF:CreateDate'), kind: 'text' },
  { field: 'modifyDate', get: (f) => f.modifyDate, expected: tag('EXIF:ModifyDate'), kind: 'text' },
  { field: 'subSecTime', get: (f) => f.subSecTime, expected: tag('EXIF:SubSecTime'), kind: 'text' },
  {
    field: 'subSecTimeOriginal',
    get: (f) => f.subSecTimeOriginal,
    expected: tag('EXIF:SubSecTimeOriginal'),
    kind: 'text',
  },
  {
    field: 'subSecTimeDigitized',
    get: (f) => f.subSecTimeDigitized,
    expected: tag('EXIF:SubSecTimeDigitized'),
    kind: 'text',
  },
  { field: 'offsetTime', get: (f) => f.offsetTime, expected: tag('EXIF:OffsetTime'), kind: 'text' },
  {
    field: 'offsetTimeOriginal',
    get: (f) => f.offsetTimeOriginal,
    expected: tag('EXIF:OffsetTimeOriginal'),
    kind: 'text',
  },
  {
    field: 'offsetTimeDigitized',
    get: (f) => f.offsetTimeDigitized,
    expected: tag('EXIF:OffsetTimeDigitized'),
    kind: 'text',
  },
  { field: 'software', get: (f) => f.software, expected: tag('EXIF:Software'), kind: 'text' },
  {
    field: 'orientation',
    get: (f) => f.orientation,
    expected: tag('EXIF:Orientation'),
    kind: 'integer',
  },
  {
    field: 'gps.latitude',
    get: (f) => f.gps?.latitude ?? null,
    expected: tag('Composite:GPSLatitude'),
    kind: 'degrees',
  },
  {
    field: 'gps.longitude',
    get: (f) => f.gps?.longitude ?? null,
    expected: tag('Composite:GPSLongitude'),
    kind: 'degrees',
  },
  {
    field: 'gps.altitude',
    get: (f) => f.gps?.altitude ?? null,
    expected: tag('Composite:GPSAltitude'),
    kind: 'metres',
  },
  {
    field: 'gps.dateStamp',
    get: (f) => f.gps?.dateStamp ?? null,
    expected: tag('EXIF:GPSDateStamp'),
    kind: 'text',
  },
  {
    field: 'gps.timeStamp',
    get: (f) => f.gps?.timeStamp ?? null,
    expected: tag('EXIF:GPSTimeStamp'),
    kind: 'text',
  },
  {
    field: 'exifImageWidth',
    get: (f) => f.exifImageWidth,
    expected: firstOf('EXIF:ExifImageWidth'),
    kind: 'integer',
  },
  {
    field: 'exifImageHeight',
    get: (f) => f.exifImageHeight,
    expected: firstOf('EXIF:ExifImageHeight'),
    kind: 'integer',
  },
  {
    field: 'imageWidth',
    get: (f) => f.imageWidth,
    expected: tag('File:ImageWidth'),
    kind: 'integer',
  },
  {
    field: 'imageHeight',
    get: (f) => f.imageHeight,
    expected: tag('File:ImageHeight'),
    kind: 'integer',
  },
  {
    field: 'xmpCreatorTool',
    get: (f) => f.xmpCreatorTool,
    expected: tag('XMP:CreatorTool'),
    kind: 'text',
  },
  {
    field: 'xmpHistorySoftware',
    get: (f) => f.xmpHistorySoftware,
    expected: tag('XMP:HistorySoftwareAgent'),
    kind: 'list',
  },
  {
    field: 'iptcKeywords',
    get: (f) => f.iptcKeywords,
    expected: tag('IPTC:Keywords'),
    kind: 'list',
  },
  {
    field: 'iccProfileDescription',
    get: (f) => f.iccProfileDescription,
    expected: tag('ICC_Profile:ProfileDescription'),
    kind: 'text',
  },
  {
    field: 'thumbnail.offset',
    get: (f) => f.thumbnail?.offset ?? null,
    expected: tag('EXIF:ThumbnailOffset'),
    kind: 'integer',
  },
  {
    field: 'thumbnail.length',
    get: (f) => f.thumbnail?.length ?? null,
    expected: tag('EXIF:ThumbnailLength'),
    kind: 'integer',
  },
];

/** Null when equal, else a description of the difference. */
function compare(kind: Kind, ours: unknown, theirs: unknown): string | null {
  if (theirs === undefined)
    return ours === null ? null : `ExifTool has none, we report ${JSON.stringify(ours)}`;
  if (ours === null) return `we report null, ExifTool has ${JSON.stringify(theirs)}`;
  const differ = `we report ${JSON.stringify(ours)}, ExifTool has ${JSON.stringify(theirs)}`;
  switch (kind) {
    case 'text': // ExifTool's JSON writes numeric-looking text as a number (SubSecTime 500)
      return ours === (typeof theirs === 'number' ? String(theirs) : theirs) ? null : differ;
    case 'integer':
      return ours === theirs ? null : differ;
    case 'degrees':
    case 'metres': {
      const tolerance = kind === 'degrees' ? 1e-6 : 1e-3;
      return typeof ours === 'string' && Math.abs(Number(ours) - Number(theirs)) <= tolerance
        ? null
        : differ;
    }
    case 'list': {
      const expected = (Array.isArray(theirs) ? (theirs as unknown[]) : [theirs]).map((v) =>
        typeof v === 'number' ? String(v) : v,
      );
      return JSON.stringify(ours) === JSON.stringify(expected) ? null : differ;
    }
  }
}

describe.skipIf(SKIP_REASON !== null)(
  'readExifFields vs ExifTool -json -n -G (33 camera JPEGs)',
  () => {
    it('reports every field exactly as ExifTool does, and null where ExifTool has none', async () => {
      const dumps = JSON.parse(readFileSync(EXPECTED_JSON, 'utf8')) as Dump[];
      expect(dumps.length).toBe(33);
      const mismatches: string[] = [];
      const matched = new Map<string, number>(MAPPINGS.map((m) => [m.field, 0]));
      let comparisons = 0;
      for (const dump of dumps) {
        const file = path.join(SHARED_EXIF, String(dump.SourceFile));
        const { fields } = await readExifFields(readFileSync(file));
        for (const m of MAPPINGS) {
          const theirs = m.expected(dump);
          const problem = compare(m.kind, m.get(fields), theirs);
          comparisons += 1;
          if (problem !== null) mismatches.push(`${path.basename(file)} ${m.field}: ${problem}`);
          else if (theirs !== undefined) matched.set(m.field, (matched.get(m.field) ?? 0) + 1);
        }
      }
      const present = [...matched.values()].reduce((a, b) => a + b, 0);
      console.log(
        `[metadata-fixtures] ${present} values equal to ExifTool's, ${comparisons - present - mismatches.length} nulls where ExifTool has none, ` +
          `${mismatches.length} mismatches over ${dumps.length} files\n  ` +
          [...matched].map(([f, n]) => `${f}=${n}`).join(' '),
      );
      expect(mismatches).toEqual([]);
      // The fixtures exercise the fields that matter most; make sure they were really compared.
      for (const field of [
        'make',
        'dateTimeOriginal',
        'gps.latitude',
        'orientation',
        'thumbnail.offset',
        'iccProfileDescription',
        'xmpCreatorTool',
      ]) {
        expect(matched.get(field), field).toBeGreaterThan(0);
      }
    });

    it('keeps dates as the literal EXIF strings, whatever the machine time zone', async () => {
      const file = path.join(SHARED_EXIF, 'images/exif-samples/gps/DSCN0042.jpg');
      const before = process.env.TZ;
      try {
        process.env.TZ = 'Pacific/Kiritimati'; // UTC+14: any Date round trip would shift the day
        const { fields } = await readExifFields(readFileSync(file));
        expect(fields.dateTimeOriginal).toBe('2008:10:22 17:00:07');
        expect(fields.gps).toEqual({
          latitude: '43.4644550',
          longitude: '11.8814783',
          altitude: null,
          dateStamp: '2008:10:23',
          timeStamp: '14:57:41.37',
        });
      } finally {
        if (before === undefined) delete process.env.TZ;
        else process.env.TZ = before;
      }
    });
  },
);
