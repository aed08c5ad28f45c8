import { createHash, type Hash } from 'node:crypto';
import { constants, type Dirent, type ReadStream } from 'node:fs';
import { chmod, link, lstat, mkdir, open, readdir, rm, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isSha256Hex, hint } from '../core/index.js';
import { StoreError } from './errors.js';
import { SparseFileWriter } from './sparse-file.adapter.js';

export interface StoredObject {
  sha256: string;
  size: number;
  /** True when the store already held these bytes: nothing new was written. */
  existed: boolean;
}

/** Objects are read-only to their owner and group, never to others (evidence is not world-readable). */
export const OBJECT_MODE = 0o440;
/** Store folders: the writer may add, its group may read, others may not look. */
export const FOLDER_MODE = 0o750;

/**
 * Every open of an object: the final component is never followed (a link, even to a correct copy,
 * is not an object), and a FIFO or device cannot block the open. What was opened is then checked
 * to be a regular file with fstat, so a special file is never read.
 */
const BOUNDED_READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** One thing `list` found under sha256/: a file, something that is not one, or a folder it could not read. */
export type StoreEntry =
  | { type: 'file' | 'symlink' | 'special' | 'directory'; prefix: string; name: string; path: string }
  | { type: 'folder'; prefix: string; path: string; mode: number }
  | { type: 'unreadable'; prefix: string | null; path: string; error: string };

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
    await mkdir(join(root, 'sha256'), { recursive: true, mode: FOLDER_MODE });
    await mkdir(join(root, 'tmp'), { recursive: true, mode: FOLDER_MODE });
  }

  pathOf(sha256: string): string {
    if (!isSha256Hex(sha256)) throw new StoreError('STORE_BAD_NAME', `not a SHA-256 digest: ${sha256}`);
    return join(this.root, 'sha256', sha256.slice(0, 2), sha256);
  }

  /** True when the object is present as a regular file (a link or a special file is not an object). */
  async has(sha256: string): Promise<boolean> {
    try {
      return (await lstat(this.pathOf(sha256))).isFile();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }

  /**
   * Opens an object for reading, bounded: never through a link, never blocking on a FIFO, and only
   * a regular file (STORE_OBJECT_NOT_REGULAR otherwise; STORE_OBJECT_MISSING, STORE_UNREADABLE).
   */
  async openObject(sha256: string): Promise<FileHandle> {
    const path = this.pathOf(sha256);
    let fh: FileHandle;
    try {
      fh = await open(path, BOUNDED_READ);
    } catch (e) {
      throw storeReadError(e, sha256);
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new StoreError('STORE_OBJECT_NOT_REGULAR', `object ${sha256} is not a regular file in the store`, { details: hint({ remedy: ['verify'] }) });
      return fh;
    } catch (e) {
      await fh.close();
      throw storeReadError(e, sha256);
    }
  }

  /** A stream of an object's bytes (see `openObject`). */
  async openRead(sha256: string): Promise<ReadStream> {
    return (await this.openObject(sha256)).createReadStream({ highWaterMark: 1 << 20 });
  }

  /** An object's bytes, read whole (see `openObject`). */
  async readObject(sha256: string): Promise<Buffer> {
    const fh = await this.openObject(sha256);
    try {
      return await fh.readFile();
    } catch (e) {
      throw storeReadError(e, sha256);
    } finally {
      await fh.close();
    }
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
      fh = await open(tmp, 'wx', 0o600);
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
    const entries = await readFolder(dir);
    if (!Array.isArray(entries)) throw new StoreError('STORE_UNREADABLE', `cannot read the store's temporary folder ${dir} (${entries.error})`);
    // Only files: a folder planted here is left alone rather than deleted with its contents.
    const files = entries.filter((e) => !e.isDirectory());
    for (const e of files) await rm(join(dir, e.name), { force: true });
    return files.length;
  }

  /**
   * Everything under sha256/, whatever its name or kind, without following links or opening
   * anything: verification decides what it means. A folder that cannot be read is reported, not
   * thrown, so that one bad folder does not hide the rest of the store.
   */
  async *list(): AsyncGenerator<StoreEntry> {
    const top = join(this.root, 'sha256');
    const entries = await readFolder(top);
    if (!Array.isArray(entries)) {
      yield { type: 'unreadable', prefix: null, path: top, error: entries.error };
      return;
    }
    for (const e of entries) {
      const path = join(top, e.name);
      if (!e.isDirectory()) {
        yield { type: entryType(e), prefix: '', name: e.name, path }; // never a valid object
        continue;
      }
      try {
        yield { type: 'folder', prefix: e.name, path, mode: (await lstat(path)).mode & 0o7777 };
      } catch (err) {
        yield { type: 'unreadable', prefix: e.name, path, error: errorCode(err) };
        continue;
      }
      const inner = await readFolder(path);
      if (!Array.isArray(inner)) {
        yield { type: 'unreadable', prefix: e.name, path, error: inner.error };
        continue;
      }
      for (const f of inner) yield { type: entryType(f), prefix: e.name, name: f.name, path: join(path, f.name) };
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
    await mkdir(dir, { recursive: true, mode: FOLDER_MODE });
    await chmod(tmp, OBJECT_MODE); // write-once: nobody edits an object in place by accident
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

/** Writes a chunk of zeros as a hole (SparseFileWriter), and sets the size at `finish`. */
class FsObjectWriter implements ObjectWriter {
  private readonly file: SparseFileWriter;
  private done = false;

  constructor(
    private readonly store: FsObjectStore,
    private readonly fh: FileHandle,
    private readonly tmp: string,
    private readonly hash: Hash,
  ) {
    this.file = new SparseFileWriter(fh);
  }

  async write(chunk: Uint8Array): Promise<void> {
    this.hash.update(chunk);
    try {
      await this.file.write(chunk);
    } catch (e) {
      throw storeWriteError(e, this.tmp);
    }
  }

  async finish(): Promise<StoredObject> {
    const sha256 = this.hash.digest('hex');
    try {
      await this.file.end();
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
      return { sha256, size: this.file.size, existed };
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

async function readFolder(dir: string): Promise<Dirent[] | { error: string }> {
  try {
    // lstat first: readdir would follow a link put in place of a folder.
    if (!(await lstat(dir)).isDirectory()) return { error: 'not a folder (a link or a file in its place)' };
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (e) {
    return { error: errorCode(e) };
  }
}

function entryType(e: Dirent): 'file' | 'symlink' | 'special' | 'directory' {
  if (e.isFile()) return 'file';
  if (e.isSymbolicLink()) return 'symlink';
  if (e.isDirectory()) return 'directory';
  return 'special';
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? String(e);
}

function storeReadError(e: unknown, sha256: string): StoreError {
  if (e instanceof StoreError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'EMLINK') {
    return new StoreError('STORE_OBJECT_NOT_REGULAR', `object ${sha256} is a link, not a file in the store`, { cause: e, details: hint({ remedy: ['verify'] }) });
  }
  if (code === 'ENOENT') return new StoreError('STORE_OBJECT_MISSING', `object ${sha256} is not in the store`, { cause: e });
  return new StoreError('STORE_UNREADABLE', `object ${sha256} cannot be read (${code ?? String(e)})`, { cause: e });
}

function storeWriteError(e: unknown, path: string): StoreError {
  if (e instanceof StoreError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new StoreError('STORE_OUT_OF_SPACE', `the object store is out of space (writing ${path})`, { cause: e });
  }
  return new StoreError('STORE_WRITE_FAILED', `could not write to the object store (${path}): ${String(e)}`, { cause: e });
}
