// What a received file is, from its first bytes (file-type's signatures). A TIFF's signature is
// its 8-byte header, but file-type also wants its first directory (IFD) to tell TIFF from the
// camera RAW formats built on it, and many writers (scanners, cameras, sharp's uncompressed and
// JPEG-in-TIFF) put that directory after the image data, beyond the bytes read here. Such a file
// is still a TIFF by its header: filed as image/tiff, not as anonymous bytes that are never
// analysed or shown.
import { fileTypeFromBuffer } from 'file-type';

/** Bytes read from the start of each file to recognise it. */
export const SNIFF_HEAD_BYTES = 4100;

const OCTET_STREAM = 'application/octet-stream';

/** Classic TIFF (II*\0, MM\0*) and BigTIFF (II+\0, MM\0+) headers. */
function isTiffHeader(head: Buffer): boolean {
  if (head.length < 8) return false;
  const le = head[0] === 0x49 && head[1] === 0x49 && head[3] === 0x00 && (head[2] === 0x2a || head[2] === 0x2b);
  const be = head[0] === 0x4d && head[1] === 0x4d && head[2] === 0x00 && (head[3] === 0x2a || head[3] === 0x2b);
  return le || be;
}

export async function mediaTypeOf(head: Buffer): Promise<string> {
  if (head.length === 0) return OCTET_STREAM;
  const known = (await fileTypeFromBuffer(head))?.mime;
  if (known !== undefined) return known;
  return isTiffHeader(head) ? 'image/tiff' : OCTET_STREAM;
}
