import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

const NAME_RE = /^(\d{16})\.checkpoint$/;

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
    for (const n of await readdir(this.dir)) {
      if (n.includes('.checkpoint.tmp-')) await rm(join(this.dir, n), { force: true });
    }
  }

  /** Tree sizes that have a checkpoint, ascending. */
  async sizes(): Promise<number[]> {
    const names = await readdir(this.dir);
    const sizes: number[] = [];
    for (const n of names) {
      const m = NAME_RE.exec(n);
      if (m?.[1] !== undefined) sizes.push(Number(m[1]));
    }
    return sizes.sort((a, b) => a - b);
  }

  async read(size: number): Promise<string | null> {
    try {
      return await readFile(join(this.dir, fileName(size)), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  /** Writes atomically: temp file, fsync, rename, fsync the directory. */
  async write(size: number, note: string): Promise<void> {
    const final = join(this.dir, fileName(size));
    const tmp = `${final}.tmp-${process.pid}`;
    const fh = await open(tmp, 'w', 0o644);
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
