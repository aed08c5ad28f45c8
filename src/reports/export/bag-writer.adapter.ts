import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  mkdir,
  open,
  readdir,
  rename,
  rm,
  stat,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
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

  /** A fresh temp dir next to `finalPath` (same file system, so the last step is a rename). */
  static async create(finalPath: string): Promise<BagWriter> {
    const dir = join(
      dirname(finalPath),
      `.${basename(finalPath)}.partial-${process.pid}-${randomBytes(4).toString('hex')}`,
    );
    await mkdir(dir, { recursive: false });
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
   * is given (evidence: the ledger's digest).
   */
  async copyFile(path: string, source: string, expectedSha256: string | null): Promise<string> {
    await this.ensureDir(path);
    const out = await open(join(this.dir, path), 'wx');
    const hash = createHash('sha256');
    let size = 0;
    try {
      for await (const chunk of createReadStream(source, { highWaterMark: 1 << 20 })) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
        await out.write(chunk as Buffer);
      }
    } catch (cause) {
      throw new ExportError(
        'EXPORT_OBJECT_UNREADABLE',
        `cannot read ${expectedSha256 === null ? source : `object ${expectedSha256} from the store`}`,
        { cause },
      );
    } finally {
      await out.close();
    }
    const got = hash.digest('hex');
    if (expectedSha256 !== null && got !== expectedSha256) {
      throw new ExportError(
        'EXPORT_OBJECT_UNREADABLE',
        `object ${expectedSha256} re-hashes to ${got} in the store: run \`custody verify\``,
      );
    }
    this.record(path, got, size);
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
 * Refuses an --out that holds anything (nothing is harmed: we never write into it). A missing
 * path or an empty directory is fine; for a .zip the file must not exist.
 */
export async function checkOutFree(out: string, isZip: boolean): Promise<void> {
  let st;
  try {
    st = await stat(out);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    // A new path: make its parent folders, where the partial bag is built beside it.
    try {
      await mkdir(dirname(out), { recursive: true });
    } catch (m) {
      throw new ExportError('EXPORT_OPTIONS_INVALID', `cannot create the folder for --out ${out}: ${(m as Error).message}`, { cause: m });
    }
    return;
  }
  if (!isZip && st.isDirectory() && (await readdir(out)).length === 0) return;
  throw new ExportError(
    'EXPORT_OUT_EXISTS',
    `--out ${out} already exists${st.isDirectory() ? ' and is not empty' : ''}: give a new path`,
  );
}

/** Moves the finished bag (or zip) to its final name: rename(2), atomic on one file system. */
export async function publish(from: string, to: string): Promise<void> {
  await rename(from, to);
}
