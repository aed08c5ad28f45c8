// Whether bytes are all zeros: the writers that leave a run of zeros as a hole in the file they
// write (the object store, a bag), as `cp --sparse=auto` does. A hole reads back as zeros.

const ZEROS = new Uint8Array(1 << 16);

/**
 * True when every byte of `chunk` is 0 (an empty chunk too); stops at the first other byte.
 *
 * @example
 *   isAllZeros(new Uint8Array(1 << 20)) // true: a writer may leave these bytes as a hole
 *   isAllZeros(Uint8Array.of(0, 0, 1)) // false
 */
export function isAllZeros(chunk: Uint8Array): boolean {
  for (let at = 0; at < chunk.length; at += ZEROS.length) {
    const part = chunk.subarray(at, at + ZEROS.length);
    if (Buffer.compare(part, ZEROS.subarray(0, part.length)) !== 0) return false;
  }
  return true;
}
