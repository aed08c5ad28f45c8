// Hostile JPEG metadata, built byte by byte around a small valid JPEG from sharp: truncated and
// looping IFDs, absurd value counts, garbage APP1, pathological and oversized XMP.
// Layouts follow TIFF 6.0 §2 (header, 12-byte IFD entries, next-IFD pointer), EXIF 2.32 §4.5.4
// (APP1 'Exif\0\0') and XMP Part 3 §1.1.3 (standard and ExtendedXMP APP1 segments).
import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { seededBytes, seededRandom } from './seeded-bytes.js';

export const TYPE = { BYTE: 1, ASCII: 2, SHORT: 3, LONG: 4, RATIONAL: 5 } as const;

/** One IFD entry. `value` is the 4-byte field: inline bytes (left-justified) or a number. */
export interface Entry {
  tag: number;
  type: number;
  count: number;
  value: number | Buffer;
}

/** A 16×16 baseline JPEG without metadata. */
export async function smallJpeg(): Promise<Buffer> {
  return sharp({
    create: { width: 16, height: 16, channels: 3, background: { r: 90, g: 120, b: 60 } },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** An APPn segment (marker 0xFFE0 + n) around `payload`. */
export function appSegment(n: number, payload: Buffer): Buffer {
  if (payload.length > 65533)
    throw new Error(`APP${n} payload of ${payload.length} bytes does not fit in a segment`);
  const head = Buffer.alloc(4);
  head[0] = 0xff;
  head[1] = 0xe0 + n;
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** `jpeg` with `segments` inserted right after SOI. */
export function withSegments(jpeg: Buffer, ...segments: Buffer[]): Buffer {
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

export function exifApp1(tiff: Buffer): Buffer {
  return appSegment(1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]));
}

/** Big-endian TIFF header with IFD0 at `ifd0Offset`. */
export function tiffHeader(ifd0Offset = 8): Buffer {
  const b = Buffer.from('MM\0\x2a\0\0\0\0', 'latin1');
  b.writeUInt32BE(ifd0Offset, 4);
  return b;
}

/** An IFD: entry count (may lie), entries, next-IFD pointer (omitted when `next` is null). */
export function ifd(entries: Entry[], next: number | null, declaredCount = entries.length): Buffer {
  const parts = [u16(declaredCount)];
  for (const e of entries) {
    const field = Buffer.alloc(4);
    if (Buffer.isBuffer(e.value)) e.value.copy(field, 0, 0, 4);
    else if (e.type === TYPE.SHORT && e.count === 1) field.writeUInt16BE(e.value, 0);
    else field.writeUInt32BE(e.value >>> 0, 0);
    const head = Buffer.alloc(8);
    head.writeUInt16BE(e.tag, 0);
    head.writeUInt16BE(e.type, 2);
    head.writeUInt32BE(e.count >>> 0, 4);
    parts.push(head, field);
  }
  if (next !== null) parts.push(u32(next));
  return Buffer.concat(parts);
}

const make = (text: string): Entry => ({
  tag: 0x010f,
  type: TYPE.ASCII,
  count: 4,
  value: Buffer.from(text.padEnd(4, '\0').slice(0, 4), 'latin1'),
});
const exifPointer = (at: number): Entry => ({ tag: 0x8769, type: TYPE.LONG, count: 1, value: at });
const orientation = (n: number): Entry => ({ tag: 0x0112, type: TYPE.SHORT, count: 1, value: n });

/** IFD0 says 50 entries; the segment ends after 3 of them. */
export function truncatedIfd(base: Buffer): Buffer {
  const model: Entry = {
    tag: 0x0110,
    type: TYPE.ASCII,
    count: 4,
    value: Buffer.from('X1\0\0', 'latin1'),
  };
  return withSegments(
    base,
    exifApp1(Buffer.concat([tiffHeader(), ifd([make('Cam'), model, orientation(6)], null, 50)])),
  );
}

/** IFD0's next-IFD pointer and its Exif pointer both point at IFD0 itself. */
export function selfLoopIfd(base: Buffer): Buffer {
  return withSegments(
    base,
    exifApp1(Buffer.concat([tiffHeader(), ifd([make('Cam'), exifPointer(8)], 8)])),
  );
}

/** IFD0 -> IFD1 -> IFD0 through the next-IFD pointers. */
export function pairLoopIfd(base: Buffer): Buffer {
  const ifd0Size = 2 + 12 * 2 + 4;
  const ifd1At = 8 + ifd0Size;
  const ifd0 = ifd([make('Cam'), orientation(3)], ifd1At);
  const ifd1 = ifd([{ tag: 0x0103, type: TYPE.SHORT, count: 1, value: 6 }], 8);
  return withSegments(base, exifApp1(Buffer.concat([tiffHeader(), ifd0, ifd1])));
}

/**
 * LONG entries with count 0x7fffffff (8 GiB of values): an unread IFD0 tag (Artist) pointing
 * beyond the file, and the ExifIFD's PixelXDimension pointing `beyond` the file or `inside` it
 * (then exifr would allocate the full array before reading past the end).
 */
export function hugeCount(base: Buffer, where: 'beyond' | 'inside'): Buffer {
  const exifAt = 8 + 2 + 12 * 3 + 4;
  const artist: Entry = { tag: 0x013b, type: TYPE.LONG, count: 0x7fffffff, value: 0xfffffff0 };
  const ifd0 = ifd([make('Cam'), artist, exifPointer(exifAt)], 0);
  const width: Entry = {
    tag: 0xa002,
    type: TYPE.LONG,
    count: 0x7fffffff,
    value: where === 'beyond' ? 0x7ffffff0 : 8,
  };
  return withSegments(base, exifApp1(Buffer.concat([tiffHeader(), ifd0, ifd([width], 0)])));
}

/** Three kinds of garbage APP1: random after 'Exif\0\0', an IFD0 offset far outside, and no header at all. */
export function garbageApp1(base: Buffer, seed: number): Buffer[] {
  const random = seededRandom(seed);
  const tiffRandom = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), seededBytes(random, 2000)]);
  const farIfd0 = exifApp1(tiffHeader(0xfffffff0));
  const headerless = seededBytes(random, 3000);
  return [
    withSegments(base, appSegment(1, tiffRandom)),
    withSegments(base, farIfd0),
    withSegments(base, appSegment(1, headerless)),
  ];
}

const PHOTOSHOP_HEADER = 'Photoshop 3.0\0';

/**
 * An APP13 Photoshop IRB with one IPTC-NAA resource (8BIM 0x0404) holding IIM 2:25 Keywords;
 * `utf8` adds 1:90 CodedCharacterSet = ESC % G (IPTC IIM 4.2 §1.5.90), otherwise the text is Latin-1.
 */
export function iptcApp13(keywords: string[], utf8: boolean): Buffer {
  const datasets: Buffer[] = utf8
    ? [Buffer.from([0x1c, 0x01, 0x5a, 0x00, 0x03, 0x1b, 0x25, 0x47])]
    : [];
  for (const k of keywords) {
    const text = Buffer.from(k, utf8 ? 'utf8' : 'latin1');
    datasets.push(Buffer.from([0x1c, 0x02, 25]), u16(text.length), text);
  }
  let iim = Buffer.concat(datasets);
  if (iim.length % 2 === 1) iim = Buffer.concat([iim, Buffer.alloc(1)]);
  const resource = Buffer.concat([
    Buffer.from('8BIM', 'latin1'),
    u16(0x0404),
    Buffer.alloc(2),
    u32(iim.length),
    iim,
  ]);
  return appSegment(13, Buffer.concat([Buffer.from(PHOTOSHOP_HEADER, 'latin1'), resource]));
}

/** `count` Photoshop APP13 segments of ~64 KiB without IPTC: exifr byte-searches each one. */
export function photoshopFlood(base: Buffer, count: number): Buffer {
  const segment = appSegment(
    13,
    Buffer.concat([Buffer.from(PHOTOSHOP_HEADER, 'latin1'), Buffer.alloc(65000, 0x41)]),
  );
  return withSegments(base, ...Array.from({ length: count }, () => segment));
}

const XMP_HEADER = 'http://ns.adobe.com/xap/1.0/\0';
const XMP_EXTENSION_HEADER = 'http://ns.adobe.com/xmp/extension/\0';
const GUID = '0123456789ABCDEF0123456789ABCDEF';

/** A standard XMP packet naming its creator tool, with `filler` inside the description. */
export function xmpPacket(creatorTool: string, filler = '', extraAttrs = ''): Buffer {
  const xml =
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    `<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="${creatorTool}"${extraAttrs}>` +
    `${filler}</rdf:Description></rdf:RDF></x:xmpmeta>`;
  return appSegment(1, Buffer.from(XMP_HEADER + xml, 'utf8'));
}

/** 64 KiB of unclosed elements: quadratic for regex-with-backreference XML readers. */
export function pathologicalXmp(base: Buffer): Buffer {
  const room = 65533 - XMP_HEADER.length - 400;
  return withSegments(base, xmpPacket('Hostile 1.0', '<a:b>'.repeat(Math.floor(room / 5))));
}

/**
 * Writes a JPEG with `extendedBytes` of ExtendedXMP (XMP Part 3 §1.1.3.1: GUID, full length,
 * offset, chunk) after a standard packet that announces it, one ~64 KiB segment at a time, so
 * the file never exists in this process's memory. Returns the file size.
 */
export async function writeHugeXmpJpeg(
  path: string,
  base: Buffer,
  extendedBytes: number,
): Promise<number> {
  const CHUNK = 65400;
  const main = xmpPacket(
    'Huge 1.0',
    '',
    ` xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmpNote:HasExtendedXMP="${GUID}"`,
  );
  const fh = await open(path, 'w');
  let size = 0;
  const write = async (b: Buffer): Promise<void> => {
    await fh.write(b);
    size += b.length;
  };
  try {
    await write(base.subarray(0, 2));
    await write(main);
    const filler = Buffer.from('<a:b>'.repeat(Math.ceil(CHUNK / 5)).slice(0, CHUNK), 'latin1');
    const head = Buffer.concat([
      Buffer.from(XMP_EXTENSION_HEADER + GUID, 'latin1'),
      u32(extendedBytes),
      u32(0),
    ]);
    const segment = appSegment(1, Buffer.concat([head, filler]));
    const offsetAt = 4 + XMP_EXTENSION_HEADER.length + GUID.length + 4;
    for (let offset = 0; offset < extendedBytes; offset += CHUNK) {
      const len = Math.min(CHUNK, extendedBytes - offset);
      const seg =
        len === CHUNK ? segment : appSegment(1, Buffer.concat([head, filler.subarray(0, len)]));
      seg.writeUInt32BE(offset, offsetAt);
      await write(seg);
    }
    await write(base.subarray(2));
  } finally {
    await fh.close();
  }
  return size;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n, 0);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
}
