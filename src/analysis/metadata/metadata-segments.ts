import type { JpegStructure } from '../jpeg/jpeg-structure.js';

/**
 * Picks the JPEG APPn segments that carry the metadata we read, so that exifr only ever sees a
 * small, bounded input whatever the file holds. Pure; the segments come from parseJpegStructure,
 * which has bounds-checked every length.
 *
 * Why a rebuilt input rather than the file: a hostile file can carry ~100 MB of metadata before
 * the image data (e.g. 1,600 ExtendedXMP segments, XMP Part 3 §1.1.3.1), and exifr scans every
 * segment and byte-searches some (APP13) in JavaScript. Here exifr gets SOI + the first Exif
 * APP1 + up to MAX_ICC_CHUNKS ICC APP2 + the first Photoshop APP13 + EOI: at most
 * (2 + MAX_ICC_CHUNKS) × 64 KiB. The standard XMP packet (≤ 64 KiB by construction) is returned
 * separately for xmp-packet.ts; ExtendedXMP is counted and reported, never read.
 */
export interface MetadataSegments {
  /** A minimal JPEG for exifr, in its own ArrayBuffer (exifr reads typed arrays by absolute ArrayBuffer offsets). */
  exifrInput: Uint8Array;
  /** File offset of the TIFF header inside the first Exif APP1 (after 'Exif\0\0'); null without one. */
  tiffStart: number | null;
  /** That TIFF: from its header to the end of the APP1 segment (a view, not a copy). */
  tiff: Uint8Array | null;
  /** The standard XMP packet (after its namespace header), or null. */
  xmpPacket: Uint8Array | null;
  /** The APP13 declares IPTC 1:90 CodedCharacterSet = ESC % G (UTF-8); otherwise IIM text is Latin-1. */
  iptcUtf8: boolean;
  warnings: string[];
}

/** ICC.1:2010 Annex B.4 allows 255 chunks; 16 (about 1 MiB) covers every profile seen in cameras. */
export const MAX_ICC_CHUNKS = 16;

const EXIF_HEADER = 'Exif\0\0';
const XMP_HEADER = 'http://ns.adobe.com/xap/1.0/\0';
const XMP_EXTENSION_HEADER = 'http://ns.adobe.com/xmp/extension/\0';
const ICC_HEADER = 'ICC_PROFILE\0';
const PHOTOSHOP_HEADER = 'Photoshop 3.0\0';
/** IIM record 1, dataset 90, length 3, ESC % G. */
const IPTC_UTF8_MARK = Buffer.from([0x1c, 0x01, 0x5a, 0x00, 0x03, 0x1b, 0x25, 0x47]);

export function selectMetadataSegments(
  bytes: Uint8Array,
  markers: JpegStructure['markers'],
): MetadataSegments {
  const chosen: Uint8Array[] = [];
  const out: MetadataSegments = {
    exifrInput: new Uint8Array(0),
    tiffStart: null,
    tiff: null,
    xmpPacket: null,
    iptcUtf8: false,
    warnings: [],
  };
  let extraExif = 0;
  let extendedXmp = { count: 0, bytes: 0 };
  let iccChunks = 0;
  let photoshop = 0;
  for (const m of markers) {
    if (!m.marker.startsWith('APP') || m.length < 2) continue;
    const segment = bytes.subarray(m.offset, m.offset + 2 + m.length);
    const payload = segment.subarray(4);
    if (m.marker === 'APP1' && startsWith(payload, EXIF_HEADER)) {
      if (out.tiffStart !== null) {
        extraExif += 1;
        continue;
      }
      out.tiffStart = m.offset + 4 + EXIF_HEADER.length;
      out.tiff = payload.subarray(EXIF_HEADER.length);
      chosen.push(segment);
    } else if (m.marker === 'APP1' && startsWith(payload, XMP_HEADER)) {
      if (out.xmpPacket === null) out.xmpPacket = payload.subarray(XMP_HEADER.length);
      else out.warnings.push(`XMP: a second standard XMP packet at byte ${m.offset} was ignored`);
    } else if (m.marker === 'APP1' && startsWith(payload, XMP_EXTENSION_HEADER)) {
      extendedXmp = { count: extendedXmp.count + 1, bytes: extendedXmp.bytes + payload.length };
    } else if (m.marker === 'APP2' && startsWith(payload, ICC_HEADER)) {
      iccChunks += 1;
      if (iccChunks <= MAX_ICC_CHUNKS) chosen.push(segment);
    } else if (m.marker === 'APP13' && startsWith(payload, PHOTOSHOP_HEADER)) {
      photoshop += 1;
      if (photoshop > 1) continue;
      out.iptcUtf8 = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).includes(
        IPTC_UTF8_MARK,
      );
      chosen.push(segment);
    } else if (m.marker === 'APP1') {
      out.warnings.push(
        `APP1 at byte ${m.offset}: unrecognised content '${printable(payload.subarray(0, 24))}'`,
      );
    }
  }
  if (extraExif > 0)
    out.warnings.push(`EXIF: ${extraExif} more Exif APP1 segment(s) after the first were ignored`);
  if (extendedXmp.count > 0) {
    out.warnings.push(
      `XMP: ${extendedXmp.count} ExtendedXMP segment(s), ${extendedXmp.bytes} bytes, were not read`,
    );
  }
  if (iccChunks > MAX_ICC_CHUNKS)
    out.warnings.push(
      `ICC: profile in ${iccChunks} APP2 chunks; only the first ${MAX_ICC_CHUNKS} were read`,
    );
  if (photoshop > 1)
    out.warnings.push(`IPTC: ${photoshop - 1} more Photoshop APP13 segment(s) were ignored`);
  out.exifrInput = assembleJpeg(chosen);
  return out;
}

/** SOI + segments + EOI in a fresh, exactly sized ArrayBuffer (never Node's shared Buffer pool). */
function assembleJpeg(segments: Uint8Array[]): Uint8Array {
  const total = 4 + segments.reduce((n, s) => n + s.length, 0);
  const out = new Uint8Array(total);
  out[0] = 0xff;
  out[1] = 0xd8;
  let pos = 2;
  for (const s of segments) {
    out.set(s, pos);
    pos += s.length;
  }
  out[pos] = 0xff;
  out[pos + 1] = 0xd9;
  return out;
}

/** Bytes as text for a warning: printable ASCII kept, anything else as '.'. */
function printable(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
}

function startsWith(payload: Uint8Array, header: string): boolean {
  if (payload.length < header.length) return false;
  for (let i = 0; i < header.length; i++) if (payload[i] !== header.charCodeAt(i)) return false;
  return true;
}
