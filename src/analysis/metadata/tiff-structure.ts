/**
 * A structural check of the TIFF inside an Exif APP1 (TIFF 6.0 §2; EXIF 2.32 §4.6.2): walks
 * IFD0 → IFD1 → … and the Exif, GPS and Interoperability pointers, and reports what a forger's
 * tool or a fuzzer leaves behind and exifr passes over in silence: IFDs that point back at each
 * other, entry counts larger than the bytes that follow, values that lie beyond the segment,
 * unknown field types. Pure; reads only IFD entry headers, never values, so its cost is bounded
 * by MAX_IFDS × 65,535 entries whatever the counts claim.
 */
export const MAX_IFDS = 16;
const MAX_STRUCTURE_WARNINGS = 20;

/** Bytes per value for TIFF field types 1–13 (TIFF 6.0 §2 plus 13 = IFD, Adobe TIFF tech note 1). */
const TYPE_SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
};

const POINTERS: Record<number, string> = { 0x8769: 'ExifIFD', 0x8825: 'GPS', 0xa005: 'InteropIFD' };

interface PendingIfd {
  offset: number;
  name: string;
  /** Where the pointer came from, for the warning. */
  from: string;
  /** IFD0, IFD1, …: the chain continues through the next-IFD pointer. */
  chained: boolean;
}

/**
 * @example
 *   checkTiffStructure(tiffBytes) // ['IFD loop: IFD1 (next IFD of IFD0) points to byte 8, already read as IFD0']
 */
export function checkTiffStructure(tiff: Uint8Array): string[] {
  const warnings: string[] = [];
  const warn = (m: string): void => {
    if (warnings.length < MAX_STRUCTURE_WARNINGS) warnings.push(`EXIF structure: ${m}`);
  };
  if (tiff.length < 8) {
    warn(`the TIFF header is truncated (${tiff.length} bytes)`);
    return warnings;
  }
  const order = String.fromCharCode(tiff[0] ?? 0, tiff[1] ?? 0);
  if (order !== 'II' && order !== 'MM') {
    warn(`unknown byte order '${order.replace(/[^\x20-\x7e]/g, '?')}'`);
    return warnings;
  }
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const le = order === 'II';
  if (view.getUint16(2, le) !== 42)
    warn(`the TIFF magic number is ${view.getUint16(2, le)}, not 42`);

  const seen = new Map<number, string>();
  const queue: PendingIfd[] = [
    { offset: view.getUint32(4, le), name: 'IFD0', from: 'the TIFF header', chained: true },
  ];
  let chainIndex = 0;
  while (queue.length > 0) {
    const ifd = queue.shift() as PendingIfd;
    const already = seen.get(ifd.offset);
    if (already !== undefined) {
      warn(
        `IFD loop: ${ifd.name} (${ifd.from}) points to byte ${ifd.offset}, already read as ${already}`,
      );
      continue;
    }
    if (seen.size >= MAX_IFDS) {
      warn(`more than ${MAX_IFDS} IFDs; stopped walking`);
      break;
    }
    if (ifd.offset < 8 || ifd.offset + 2 > tiff.length) {
      warn(
        `${ifd.name} (${ifd.from}) points to byte ${ifd.offset}, outside the ${tiff.length}-byte TIFF`,
      );
      continue;
    }
    seen.set(ifd.offset, ifd.name);
    const declared = view.getUint16(ifd.offset, le);
    const fit = Math.floor((tiff.length - ifd.offset - 2) / 12);
    const count = Math.min(declared, fit);
    if (declared > fit)
      warn(
        `${ifd.name} at byte ${ifd.offset} declares ${declared} entries; only ${fit} fit in the bytes that follow`,
      );
    for (let i = 0; i < count; i++) {
      const entry = ifd.offset + 2 + 12 * i;
      const pointer = checkEntry(view, le, entry, ifd.name, warn);
      if (pointer !== null) queue.push({ ...pointer, chained: false });
    }
    const nextAt = ifd.offset + 2 + 12 * declared;
    if (ifd.chained && declared <= fit && nextAt + 4 <= tiff.length) {
      const next = view.getUint32(nextAt, le);
      chainIndex += 1;
      if (next !== 0)
        queue.push({
          offset: next,
          name: `IFD${chainIndex}`,
          from: `next IFD of ${ifd.name}`,
          chained: true,
        });
    }
  }
  return warnings;
}

/** Checks one 12-byte entry; returns the sub-IFD it points to, if it is a pointer tag. */
function checkEntry(
  view: DataView,
  le: boolean,
  entry: number,
  ifdName: string,
  warn: (m: string) => void,
): Omit<PendingIfd, 'chained'> | null {
  const tag = view.getUint16(entry, le);
  const type = view.getUint16(entry + 2, le);
  const count = view.getUint32(entry + 4, le);
  const hex = `0x${tag.toString(16).padStart(4, '0')}`;
  const size = TYPE_SIZES[type];
  if (size === undefined) {
    warn(`${ifdName} tag ${hex} has unknown field type ${type}`);
    return null;
  }
  const bytes = size * count; // < 2^35: exact in a double
  if (bytes > 4) {
    const at = view.getUint32(entry + 8, le);
    if (at + bytes > view.byteLength) {
      warn(
        `${ifdName} tag ${hex}: ${count} values (${bytes} bytes) at byte ${at} lie beyond the ${view.byteLength}-byte TIFF`,
      );
    }
  }
  const pointerName = POINTERS[tag];
  if (pointerName === undefined) return null;
  if ((type !== 4 && type !== 13) || count !== 1) {
    warn(
      `${ifdName} tag ${hex} (${pointerName} pointer) has type ${type} and count ${count}, not one LONG`,
    );
    return null;
  }
  return {
    offset: view.getUint32(entry + 8, le),
    name: pointerName,
    from: `${ifdName} tag ${hex}`,
  };
}
