// Whether an asset may hold C2PA data at all, from its bytes alone, so that the WebAssembly
// reader (a round trip to a worker thread and a copy of the file into WASM memory) runs only
// where it can find something. Conservative: any sign of JUMBF or of a provenance reference,
// anywhere in the file (not only in the first segments: a JUMBF box may come after a large EXIF,
// ICC or maker-note block, or after the image data), sends the asset to the reader.

/**
 * Needles searched across the whole file, each of 2–4 bytes: Buffer.indexOf is several times
 * slower on longer ones (measured on a 7 MB JPEG: 'provenance' 6 ms, 'enan' under 1 ms). Each
 * costs a pass over the file (about 0.15 ms per 1.5 MB), so each format gets only its own.
 */
const COMMON: readonly Buffer[] = [
  Buffer.from('jumb', 'latin1'), // every JUMBF superbox (ISO/IEC 19566-5 §5.2), in any format
  Buffer.from('c2pa', 'latin1'), // C2PA labels and box types
  // XMP: C2PA 2.x §A.4 references a (possibly remote) manifest with dcterms:provenance.
  Buffer.from('enan', 'latin1'),
  // The tail of the JUMBF UUID suffix every C2PA box description carries (findC2paBoxMarker).
  Buffer.from([0x00, 0x38, 0x9b, 0x71]),
];

/**
 * The formats whose C2PA carriage is known here (C2PA 2.x Annex A), with the needles of that
 * carriage. The reader's answer for each of them without a manifest is state none and no warning
 * (test/medium/c2pa-fixtures.test.ts checks it on real files), which is what a skip returns.
 */
const BY_MEDIA_TYPE: ReadonlyMap<string, readonly Buffer[]> = new Map([
  // APP11, the JPEG segment C2PA embeds JUMBF in (C2PA 2.x §A.3.1, ISO/IEC 19566-5 Annex B).
  // Only for JPEG: in other formats' compressed data these two bytes occur by chance.
  ['image/jpeg', [Buffer.from([0xff, 0xeb]), ...COMMON]],
  ['image/png', [Buffer.from('caBX', 'latin1'), ...COMMON]], // PNG chunk (C2PA 2.x §A.3.3)
  ['image/webp', [Buffer.from('C2PA', 'latin1'), ...COMMON]], // RIFF chunk 'C2PA'
  ['image/gif', [Buffer.from('C2PA', 'latin1'), ...COMMON]], // application extension 'C2PA_GIF'
  ['image/tiff', COMMON], // tag 0xCD41 holds the JUMBF as it is
]);

/** Whether mayHoldC2pa can answer for this media type (otherwise the reader must be asked). */
export function knowsC2paCarriage(mediaType: string): boolean {
  return BY_MEDIA_TYPE.has(mediaType);
}

/**
 * False only when no byte sequence that C2PA data needs in this format occurs anywhere in
 * `bytes`; always true for a format it does not know.
 *
 * @example
 *   mayHoldC2pa(plainCameraJpeg) // false: the reader is not started
 *   mayHoldC2pa(signedJpeg)      // true
 */
export function mayHoldC2pa(bytes: Uint8Array, mediaType = 'image/jpeg'): boolean {
  const needles = BY_MEDIA_TYPE.get(mediaType);
  if (needles === undefined) return true;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return needles.some((n) => buf.indexOf(n) >= 0);
}
