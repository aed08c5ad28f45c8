import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { CustodyError } from '../core/index.js';

const NAME_RE = /^(\d{16})\.checkpoint$/;

/** A signed note is a few hundred bytes; anything much larger is not one, and is not read whole. */
const MAX_CHECKPOINT_BYTES = 64 * 1024;

/** Never through a link, never blocking on a FIFO; fstat then says whether it is a regular file. */
const BOUNDED_READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

// Kept apart from LedgerErrorCode so that this bounded-read change stays local to the adapter.
export type CheckpointFileErrorCode = 'CHECKPOINT_NOT_REGULAR' | 'CHECKPOINT_UNREADABLE';
export class CheckpointFileError extends CustodyError<CheckpointFileErrorCode> {}

/**
 * Every signed checkpoint ever issued, one file per tree size. All are kept: each is a
 * statement that outside parties may hold, and `verify` re-derives every one of them.
 */
export class CheckpointFiles {
  constructor(
    private readonly dir: string,
    private readonly beforeRename: () => void = () => undefined,
  ) {}

  async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** Removes temporary files of checkpoints whose signing was interrupted (never published). */
  async cleanTemp(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      throw new CheckpointFileError('CHECKPOINT_UNREADABLE', `cannot read the checkpoints folder ${this.dir} (${(e as NodeJS.ErrnoException).code ?? String(e)})`, { cause: e });
    }
    for (const n of names) {
      if (n.includes('.checkpoint.tmp-')) await rm(join(this.dir, n), { force: true, recursive: true });
    }
  }

  /** Tree sizes that have a checkpoint, ascending. */
  async sizes(): Promise<number[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      throw new CheckpointFileError('CHECKPOINT_UNREADABLE', `cannot read the checkpoints folder ${this.dir} (${(e as NodeJS.ErrnoException).code ?? String(e)})`, { cause: e });
    }
    const sizes: number[] = [];
    for (const n of names) {
      const m = NAME_RE.exec(n);
      if (m?.[1] !== undefined) sizes.push(Number(m[1]));
    }
    return sizes.sort((a, b) => a - b);
  }

  /**
   * The checkpoint note for `size`, or null when there is none. Bounded: a link, a FIFO, a device
   * or a folder under a checkpoint's name is CHECKPOINT_NOT_REGULAR; an unreadable or oversized
   * file is CHECKPOINT_UNREADABLE. Never blocks, never reads more than MAX_CHECKPOINT_BYTES.
   */
  async read(size: number): Promise<string | null> {
    const path = join(this.dir, fileName(size));
    let fh: FileHandle;
    try {
      fh = await open(path, BOUNDED_READ);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      if (code === 'ELOOP' || code === 'EMLINK') throw new CheckpointFileError('CHECKPOINT_NOT_REGULAR', `the checkpoint file for size ${size} is a link, not a file`, { cause: e });
      throw new CheckpointFileError('CHECKPOINT_UNREADABLE', `cannot read the checkpoint file for size ${size} (${code ?? String(e)})`, { cause: e });
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new CheckpointFileError('CHECKPOINT_NOT_REGULAR', `the checkpoint file for size ${size} is not a regular file (a FIFO, a device or a folder)`);
      if (st.size > MAX_CHECKPOINT_BYTES) throw new CheckpointFileError('CHECKPOINT_UNREADABLE', `the checkpoint file for size ${size} holds ${st.size} bytes: no signed note is that large`);
      const buf = Buffer.alloc(MAX_CHECKPOINT_BYTES + 1);
      let n = 0;
      for (;;) {
        const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
        if (bytesRead === 0) break;
        n += bytesRead;
        if (n > MAX_CHECKPOINT_BYTES) throw new CheckpointFileError('CHECKPOINT_UNREADABLE', `the checkpoint file for size ${size} grew past ${MAX_CHECKPOINT_BYTES} bytes while read`);
      }
      return buf.subarray(0, n).toString('utf8');
    } catch (e) {
      if (e instanceof CheckpointFileError) throw e;
      throw new CheckpointFileError('CHECKPOINT_UNREADABLE', `cannot read the checkpoint file for size ${size} (${(e as NodeJS.ErrnoException).code ?? String(e)})`, { cause: e });
    } finally {
      await fh.close();
    }
  }

  /** Writes atomically: temp file, fsync, rename, fsync the directory. */
  async write(size: number, note: string): Promise<void> {
    const final = join(this.dir, fileName(size));
    const tmp = `${final}.tmp-${process.pid}`;
    await rm(tmp, { force: true, recursive: true }); // a leftover of ours, or anything planted under the name
    const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
    try {
      await fh.writeFile(note, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    this.beforeRename();
    await rename(tmp, final);
    const dh = await open(this.dir, 'r');
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
  }
}

function fileName(size: number): string {
  return `${String(size).padStart(16, '0')}.checkpoint`;
}
