import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  readdir,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import {
  BAGIT_TXT,
  formatBagInfo,
  formatManifest,
  payloadOxum,
  type BagInfo,
  type ManifestLine,
} from './bagit.js';
import { ExportError } from './errors.js';
import { writeStoredZip } from './zip-writer.adapter.js';
import { hint } from '../../core/index.js';
import { SparseFileWriter } from '../../store/sparse-file.adapter.js';

/**
 * Writes one bag into a temporary sibling of its final place, recording the SHA-256 and size of
 * every file as it goes, so the manifests (RFC 8493 §2.1.3, §2.2.1) are never a second read.
 * Evidence is streamed from the store and re-hashed on the way: a bag never carries bytes that
 * differ from the digest the ledger names. Nothing appears under the final name until
 * `publish`, a rename(2): an interrupted export leaves at most a `.partial-…` sibling.
 */
export class BagWriter {
  private readonly files = new Map<string, { sha256: string; size: number }>();

  private constructor(readonly dir: string) {}

  /**
   * A fresh temp dir next to `finalPath` (same file system, so the last step is a rename). Its
   * real path is checked once more against the archive (`archiveDir`): what the kernel resolved
   * is the last word on where the evidence copies would go.
   */
  static async create(finalPath: string, archiveDir: string): Promise<BagWriter> {
    const dir = join(
      dirname(finalPath),
      `.${basename(finalPath)}.partial-${process.pid}-${randomBytes(4).toString('hex')}`,
    );
    await mkdir(dir, { recursive: false });
    try {
      refuseInside(await realpath(dir), await realpath(archiveDir), finalPath);
    } catch (e) {
      await rm(dir, { recursive: true, force: true });
      throw e;
    }
    return new BagWriter(dir);
  }

  async writeFile(path: string, content: string | Buffer): Promise<void> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    await this.ensureDir(path);
    await writeFile(join(this.dir, path), bytes, { flag: 'wx' });
    this.record(path, createHash('sha256').update(bytes).digest('hex'), bytes.length);
  }

  async writeJson(path: string, value: unknown): Promise<void> {
    await this.writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
  }

  /**
   * Streams `source` into the bag and returns its SHA-256, which must be `expectedSha256` when one
   * is given (evidence: the ledger's digest). A chunk that is all zeros is left as a hole, and the
   * size set at the end, as the store keeps them: a mostly empty disk image does not write its
   * zeros out again. A hole reads back as zeros, which is what the manifest's digest is of.
   */
  async copyFile(
    path: string,
    source: string | (() => Promise<AsyncIterable<unknown>>),
    expectedSha256: string | null,
  ): Promise<string> {
    await this.ensureDir(path);
    const out = await open(join(this.dir, path), 'wx');
    const hash = createHash('sha256');
    const file = new SparseFileWriter(out);
    try {
      // A store object comes as a stream the store opened bounded (never through a link or a FIFO).
      const chunks = typeof source === 'string' ? createReadStream(source, { highWaterMark: 1 << 20 }) : await source();
      for await (const chunk of chunks) {
        hash.update(chunk as Buffer);
        await file.write(chunk as Buffer);
      }
      await file.end();
    } catch (cause) {
      throw new ExportError(
        'EXPORT_OBJECT_UNREADABLE',
        `cannot read ${expectedSha256 === null ? String(source) : `object ${expectedSha256} from the store`}`,
        { cause },
      );
    } finally {
      await out.close();
    }
    const got = hash.digest('hex');
    if (expectedSha256 !== null && got !== expectedSha256) {
      throw new ExportError(
        'EXPORT_OBJECT_UNREADABLE',
        `object ${expectedSha256} re-hashes to ${got} in the store`,
        { details: hint({ remedy: ['verify'] }) },
      );
    }
    this.record(path, got, file.size);
    return got;
  }

  /** A file written in pieces (ledger.jsonl), hashed as written. */
  async openStream(
    path: string,
  ): Promise<{ write(b: Buffer): Promise<void>; close(): Promise<void> }> {
    await this.ensureDir(path);
    const fh: FileHandle = await open(join(this.dir, path), 'wx');
    const hash = createHash('sha256');
    let size = 0;
    return {
      write: async (b) => {
        hash.update(b);
        size += b.length;
        await fh.write(b);
      },
      close: async () => {
        await fh.close();
        this.record(path, hash.digest('hex'), size);
      },
    };
  }

  /**
   * The BagIt files, last: bagit.txt, manifest-sha256.txt over data/, bag-info.txt (with the
   * payload's Oxum), then tagmanifest-sha256.txt over every other file (RFC 8493 §2.2.1).
   * Returns the tag manifest's SHA-256, which the export's ledger entry records.
   */
  async finish(
    info: Omit<BagInfo, 'payloadOxum'>,
  ): Promise<{ tagmanifestSha256: string; payloadFiles: number; payloadBytes: number }> {
    const all = [...this.files].map(([path, f]) => ({ path, ...f }));
    const payload = all.filter((f) => f.path.startsWith('data/'));
    await this.writeFile('bagit.txt', BAGIT_TXT);
    await this.writeFile('manifest-sha256.txt', formatManifest(payload));
    await this.writeFile(
      'bag-info.txt',
      formatBagInfo({ ...info, payloadOxum: payloadOxum(payload.map((f) => f.size)) }),
    );
    const tags: ManifestLine[] = [...this.files]
      .filter(([p]) => !p.startsWith('data/'))
      .map(([path, f]) => ({ path, sha256: f.sha256 }));
    const tagmanifest = formatManifest(tags);
    await this.writeFile('tagmanifest-sha256.txt', tagmanifest);
    return {
      tagmanifestSha256: createHash('sha256').update(tagmanifest).digest('hex'),
      payloadFiles: payload.length,
      payloadBytes: payload.reduce((a, f) => a + f.size, 0),
    };
  }

  /** Every file of the bag, relative paths sorted (for the zip). */
  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  /** The finished bag as one store-only zip next to it, every path under `top/`; returns its path. */
  async zip(top: string): Promise<string> {
    const out = `${this.dir}.zip`;
    await writeStoredZip(
      out,
      this.paths().map((p) => ({ name: `${top}/${p}`, file: join(this.dir, p) })),
    );
    return out;
  }

  /** Removes the temp dir and any zip made of it. */
  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    await rm(`${this.dir}.zip`, { force: true });
  }

  private record(path: string, sha256: string, size: number): void {
    if (this.files.has(path)) throw new Error(`bag file written twice: ${path}`);
    this.files.set(path, { sha256, size });
  }

  private async ensureDir(path: string): Promise<void> {
    if (
      !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(path) ||
      path.split('/').some((s) => /^\.+$/.test(s))
    ) {
      throw new Error(`not a bag path: ${path}`);
    }
    await mkdir(dirname(join(this.dir, path)), { recursive: true });
  }
}

/**
 * Refuses an --out inside the archive folder (EXPORT_OUT_INSIDE_ARCHIVE), symbolic links
 * resolved: the longest part of the path that exists is resolved by the kernel (realpath), so a
 * link anywhere on the way that points into the archive counts. Nothing is created before.
 */
export async function checkOutsideArchive(out: string, archiveDir: string): Promise<void> {
  let archive: string;
  try {
    archive = await realpath(archiveDir);
  } catch {
    return; // no archive there: opening it says so (ARCHIVE_NOT_FOUND)
  }
  // Not path.resolve: that folds `link/..` by text, where the kernel follows the link first.
  const parts = (isAbsolute(out) ? out : `${process.cwd()}${sep}${out}`).split(sep);
  for (let n = parts.length; n > 0; n--) {
    let base: string;
    try {
      base = await realpath(parts.slice(0, n).join(sep) || sep);
    } catch {
      continue;
    }
    refuseInside(join(base, ...parts.slice(n)), archive, out);
    return;
  }
}

function refuseInside(path: string, archive: string, out: string): void {
  if (path === archive || path.startsWith(archive.endsWith(sep) ? archive : `${archive}${sep}`)) {
    throw new ExportError(
      'EXPORT_OUT_INSIDE_ARCHIVE',
      `it is inside the archive folder ${archive}: give a place outside it (a second disk, the recipient's medium)`,
      { details: hint({ field: 'out', value: out }) },
    );
  }
}

/**
 * Removes the `.NAME.partial-PID-…` siblings of `out` that a killed export left (copies of
 * evidence on the target medium), unless their process still runs (this one included: a server
 * may run two exports at once). Returns the paths removed.
 * Only names of exactly that shape are touched; a link of that name is removed, never followed.
 */
export async function removeStalePartials(out: string): Promise<string[]> {
  const dir = dirname(out);
  const escaped = basename(out).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const shape = new RegExp(`^\\.${escaped}\\.partial-(\\d+)-[0-9a-f]{8}(\\.zip)?$`);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.sort()) {
    const pid = Number(shape.exec(name)?.[1] ?? NaN);
    if (!Number.isSafeInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    const path = join(dir, name);
    await lstat(path); // still there
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Refuses an --out that holds anything (nothing is harmed: we never write into it). A missing
 * path or an empty directory is fine; for a .zip the file must not exist.
 */
export async function checkOutFree(out: string, isZip: boolean): Promise<void> {
  let st;
  try {
    st = await stat(out);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && (await lstat(out).catch(() => null)) !== null) {
      throw new ExportError('EXPORT_OUT_EXISTS', 'it is a symbolic link to nothing: give a new path', { details: hint({ field: 'out', value: out }) });
    }
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    // A new path: make its parent folders, where the partial bag is built beside it.
    try {
      await mkdir(dirname(out), { recursive: true });
    } catch (m) {
      throw new ExportError('EXPORT_OPTIONS_INVALID', `cannot create its folder: ${(m as Error).message}`, { cause: m, details: hint({ field: 'out', value: out }) });
    }
    return;
  }
  if (!isZip && st.isDirectory() && (await readdir(out)).length === 0) return;
  throw new ExportError(
    'EXPORT_OUT_EXISTS',
    `it already exists${st.isDirectory() ? ' and is not empty' : ''}: give a new path`,
    { details: hint({ field: 'out', value: out }) },
  );
}

/** Moves the finished bag (or zip) to its final name: rename(2), atomic on one file system. */
export async function publish(from: string, to: string): Promise<void> {
  await rename(from, to);
}
