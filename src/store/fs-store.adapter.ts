import { createHash, type Hash } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { chmod, link, mkdir, open, readdir, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isSha256Hex } from '../core/sha256.js';
import { StoreError } from './errors.js';

export interface StoredObject {
  sha256: string;
  size: number;
  /** True when the store already held these bytes: nothing new was written. */
  existed: boolean;
}

export interface StoreHooks {
  /** Called once the temporary file is written and fsynced, before the rename (crash tests). */
  afterWrite?: () => void;
  /** Called after the rename into place (crash tests). */
  afterRename?: () => void;
}

/** Streams bytes into the store, hashing them on the way. */
export interface ObjectWriter {
  write(chunk: Uint8Array): Promise<void>;
  finish(): Promise<StoredObject>;
  abort(): Promise<void>;
}

/**
 * Write-once, content-addressed object store on a filesystem: `sha256/ab/<64 hex>`.
 * There is no update and no delete in this API. Objects become durable before anything
 * names them: temp file → fsync → link into place (atomic, never overwrites) → fsync of the
 * directory (`syncDirs`, batched).
 * Removing a withdrawn object's bytes is a separate, narrow capability: `purgeWithdrawn`.
 */
export class FsObjectStore {
  private readonly dirtyDirs = new Set<string>();
  private tmpCounter = 0;

  constructor(
    readonly root: string,
    private readonly hooks: StoreHooks = {},
  ) {}

  static async create(root: string): Promise<void> {
    await mkdir(join(root, 'sha256'), { recursive: true });
    await mkdir(join(root, 'tmp'), { recursive: true });
  }

  pathOf(sha256: string): string {
    if (!isSha256Hex(sha256)) throw new StoreError('STORE_BAD_NAME', `not a SHA-256 digest: ${sha256}`);
    return join(this.root, 'sha256', sha256.slice(0, 2), sha256);
  }

  async has(sha256: string): Promise<boolean> {
    try {
      await stat(this.pathOf(sha256));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }

  openRead(sha256: string): ReadStream {
    return createReadStream(this.pathOf(sha256));
  }

  /** A fresh name under tmp/ for bytes on their way in (cleaned by `cleanTemp` if never adopted). */
  tempPath(): string {
    return join(this.root, 'tmp', `${process.pid}-${++this.tmpCounter}-${Date.now()}`);
  }

  /**
   * Takes in a temporary file that someone else (intake's worker threads) wrote and fsynced, and
   * whose SHA-256 they computed: the same last steps as an ObjectWriter's `finish`.
   */
  async adopt(tmp: string, sha256: string, size: number): Promise<StoredObject> {
    this.afterWrite();
    try {
      const existed = await this.commit(tmp, sha256);
      return { sha256, size, existed };
    } catch (e) {
      await rm(tmp, { force: true });
      throw storeWriteError(e, tmp);
    }
  }

  async openWriter(): Promise<ObjectWriter> {
    const tmp = this.tempPath();
    let fh: FileHandle;
    try {
      fh = await open(tmp, 'wx', 0o644);
    } catch (e) {
      throw storeWriteError(e, tmp);
    }
    return new FsObjectWriter(this, fh, tmp, createHash('sha256'));
  }

  /** Makes every rename since the last call durable: fsync of each touched directory. */
  async syncDirs(): Promise<void> {
    const dirs = [...this.dirtyDirs];
    this.dirtyDirs.clear();
    for (const d of dirs) {
      const dh = await open(d, 'r');
      try {
        await dh.sync();
      } finally {
        await dh.close();
      }
    }
  }

  /** Removes temporary files left by killed runs. They were never objects: nothing names them. */
  async cleanTemp(): Promise<number> {
    const dir = join(this.root, 'tmp');
    const names = await readdir(dir);
    for (const n of names) await rm(join(dir, n), { force: true });
    return names.length;
  }

  /** Every file under sha256/, whatever its name: verification decides what it means. */
  async *list(): AsyncGenerator<{ prefix: string; name: string; path: string }> {
    const top = join(this.root, 'sha256');
    const entries = (await readdir(top, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (!e.isDirectory()) {
        yield { prefix: '', name: e.name, path: join(top, e.name) }; // never a valid object
        continue;
      }
      const dir = join(top, e.name);
      for (const name of (await readdir(dir)).sort()) yield { prefix: e.name, name, path: join(dir, name) };
    }
  }

  /**
   * Removes the bytes of an object that a withdrawal entry covers. Only `purge` calls this,
   * after checking the ledger; the caller records a deletion entry.
   */
  async purgeWithdrawn(sha256: string): Promise<boolean> {
    try {
      await unlink(this.pathOf(sha256));
      this.dirtyDirs.add(join(this.root, 'sha256', sha256.slice(0, 2)));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }

  /**
   * @internal used by the writer. link(2) is the atomic "create if absent": two writers of the
   * same bytes cannot both believe they created the object.
   */
  async commit(tmp: string, sha256: string): Promise<boolean> {
    const final = this.pathOf(sha256);
    const dir = join(this.root, 'sha256', sha256.slice(0, 2));
    await mkdir(dir, { recursive: true });
    await chmod(tmp, 0o444); // write-once: nobody edits an object in place by accident
    let existed = false;
    try {
      await link(tmp, final);
      this.dirtyDirs.add(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      existed = true;
    }
    await unlink(tmp);
    if (!existed) this.hooks.afterRename?.();
    return existed;
  }

  /** @internal */
  afterWrite(): void {
    this.hooks.afterWrite?.();
  }
}

class FsObjectWriter implements ObjectWriter {
  private size = 0;
  private done = false;

  constructor(
    private readonly store: FsObjectStore,
    private readonly fh: FileHandle,
    private readonly tmp: string,
    private readonly hash: Hash,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    this.hash.update(chunk);
    let off = 0;
    try {
      while (off < chunk.length) {
        const { bytesWritten } = await this.fh.write(chunk, off, chunk.length - off, this.size + off);
        off += bytesWritten;
      }
    } catch (e) {
      throw storeWriteError(e, this.tmp);
    }
    this.size += chunk.length;
  }

  async finish(): Promise<StoredObject> {
    const sha256 = this.hash.digest('hex');
    try {
      await this.fh.sync();
    } catch (e) {
      await this.abort();
      throw storeWriteError(e, this.tmp);
    }
    await this.fh.close();
    this.done = true;
    this.store.afterWrite();
    try {
      const existed = await this.store.commit(this.tmp, sha256);
      return { sha256, size: this.size, existed };
    } catch (e) {
      await rm(this.tmp, { force: true });
      throw storeWriteError(e, this.tmp);
    }
  }

  async abort(): Promise<void> {
    if (!this.done) {
      this.done = true;
      await this.fh.close().catch(() => undefined);
    }
    await rm(this.tmp, { force: true });
  }
}

function storeWriteError(e: unknown, path: string): StoreError {
  if (e instanceof StoreError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new StoreError('STORE_OUT_OF_SPACE', `the object store is out of space (writing ${path})`, { cause: e });
  }
  return new StoreError('STORE_WRITE_FAILED', `could not write to the object store (${path}): ${String(e)}`, { cause: e });
}
