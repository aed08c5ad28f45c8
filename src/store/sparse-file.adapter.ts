// Writing a file chunk by chunk with runs of zeros left as holes, as `cp --sparse=auto` does: the
// object store's streaming writer and a bag's copy of an object share it, so that a mostly empty
// disk image is written once, as its data. A chunk that is all zeros is skipped (a hole), and
// `end` sets the file's size when it ends in one. A hole reads back as zeros on every POSIX file
// system, so the file holds exactly the bytes it was given. (Intake's copy-in threads do the same
// in their own worker source, src/ingest/copy-in.adapter.ts.)
import type { FileHandle } from 'node:fs/promises';
import { isAllZeros } from '../core/index.js';

export class SparseFileWriter {
  #size = 0;
  /** Where the last bytes written end: from there to the size, the file has not been written. */
  #written = 0;

  constructor(private readonly fh: FileHandle) {}

  /** Bytes given so far: the file's size once `end` has run. */
  get size(): number {
    return this.#size;
  }

  /** Appends `chunk` (a hole when it is all zeros). */
  async write(chunk: Uint8Array): Promise<void> {
    if (!isAllZeros(chunk)) {
      for (let off = 0; off < chunk.length;) {
        const { bytesWritten } = await this.fh.write(
          chunk,
          off,
          chunk.length - off,
          this.#size + off,
        );
        off += bytesWritten;
      }
      this.#written = this.#size + chunk.length;
    }
    this.#size += chunk.length;
  }

  /** Sets the file's size if it ends in a hole; call before the file is synced. */
  async end(): Promise<void> {
    if (this.#written < this.#size) await this.fh.truncate(this.#size);
  }
}
