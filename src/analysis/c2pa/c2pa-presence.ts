// Whether an asset may hold C2PA data at all, from its bytes alone, so that the WebAssembly
// reader (a worker thread, the costliest step of an analysis on an ordinary photo) runs only
// where it can find something. Conservative: any sign of JUMBF or of a provenance reference,
// anywhere in the file (not only in the first segments: a JUMBF box may come after a large EXIF,
// ICC or maker-note block, or after the image data), sends the asset to the reader.
import { findC2paBoxMarker } from './c2pa-result.js';

/** ASCII needles searched across the whole file (Buffer.indexOf: memchr speed). */
const NEEDLES: readonly Buffer[] = [
  Buffer.from('jumb', 'latin1'), // JUMBF superbox type (ISO/IEC 19566-5 §5.2)
  Buffer.from('jumd', 'latin1'), // JUMBF description box
  Buffer.from('c2pa', 'latin1'), // C2PA box labels and the 'c2pa' manifest store label
  Buffer.from('C2PA', 'latin1'),
  // XMP: C2PA 2.x §A.4 references a (possibly remote) manifest with dcterms:provenance.
  Buffer.from('provenance', 'latin1'),
  Buffer.from('caBX', 'latin1'), // PNG chunk for C2PA (C2PA 2.x §A.3.3)
];
/** APP11, the JPEG segment C2PA embeds JUMBF in (C2PA 2.x §A.3.1, ISO/IEC 19566-5 Annex B). */
const APP11 = Buffer.from([0xff, 0xeb]);

/**
 * False only when no byte sequence that C2PA data needs occurs anywhere in `bytes`.
 *
 * @example
 *   mayHoldC2pa(plainCameraJpeg) // false: the reader is not started
 *   mayHoldC2pa(signedJpeg)      // true
 */
export function mayHoldC2pa(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.indexOf(APP11) >= 0) return true;
  for (const n of NEEDLES) if (buf.indexOf(n) >= 0) return true;
  return findC2paBoxMarker(buf) !== null;
}
