// The wrapped data keys of missing-person reports: one file per report, keys/reports/<id>.key.
//
// Why files, and not the ledger or the index:
// - not the ledger: it is append-only and copied whole into exports and backups; a key written
//   there could never be destroyed, and erasure would be impossible;
// - not the index: the index is disposable by design (`custody rebuild` makes it again from the
//   ledger alone, and a damaged one is set aside); a key kept only there would be lost by a
//   rebuild, and `verify` would call the row unexplained;
// - one file per report: erasing one report touches nothing else. The file is overwritten with
//   random bytes and fsync'd, then unlinked, then the folder fsync'd, so that the name and the
//   content are gone from the file system as far as a program can make them. (On SSDs, copy-on-
//   write file systems and in backups, old blocks may survive: erasure is only as good as the
//   archive's backups of keys/ are managed; the report says so.)
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { archiveLayout } from '../../archive/index.js';
import { IdentificationError } from '../errors.js';
import type { ReportKeyStore } from './ports.js';

const { O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = constants;
const MAX_KEY_FILE = 4096;
/** A report id is an archive id (ULID): nothing else reaches the file system. */
const ID_RE = /^[0-9A-Za-z]{10,64}$/;

export class ReportKeyFiles implements ReportKeyStore {
  constructor(private readonly dir: string) {}

  static forArchive(archiveDir: string): ReportKeyFiles {
    return new ReportKeyFiles(join(dirname(archiveLayout(archiveDir).privateKey), 'reports'));
  }

  private path(id: string): string {
    if (!ID_RE.test(id)) throw new IdentificationError('MISSING_REPORT_NOT_FOUND', `no report ${JSON.stringify(id)}`);
    return join(this.dir, `${id}.key`);
  }

  /**
   * Written durably before the ledger entries that need them: each a temp file, fsync'd, renamed;
   * then the folder fsync'd once. Sixteen at a time, so that the file system can group the syncs.
   */
  async writeAll(files: readonly { id: string; text: string }[]): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    for (let i = 0; i < files.length; i += 16) await Promise.all(files.slice(i, i + 16).map((f) => this.writeOne(f.id, f.text)));
    await this.syncDir();
  }

  private async writeOne(id: string, text: string): Promise<void> {
    const final = this.path(id);
    const tmp = `${final}.tmp-${randomBytes(6).toString('hex')}`;
    const fh = await open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(text);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, final);
  }

  /** The key file's text, or null when there is none. Never follows a link, never blocks on a FIFO. */
  async read(id: string): Promise<string | null> {
    let fh;
    try {
      fh = await open(this.path(id), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new IdentificationError('MISSING_REPORT_KEY_INVALID', `the key file of report ${id} cannot be read: ${(e as Error).message}`, { cause: e });
    }
    try {
      if (!(await fh.stat()).isFile()) throw new IdentificationError('MISSING_REPORT_KEY_INVALID', `the key file of report ${id} is not a regular file`);
      const buf = Buffer.alloc(MAX_KEY_FILE);
      const { bytesRead } = await fh.read(buf, 0, MAX_KEY_FILE, 0);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  }

  /** The ids of the key files present (for `verify`); temporary files of an interrupted write aside. */
  async list(): Promise<Set<string>> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
      throw e;
    }
    return new Set(names.filter((n) => n.endsWith('.key') && ID_RE.test(n.slice(0, -4))).map((n) => n.slice(0, -4)));
  }

  /** Overwrites, fsyncs, unlinks, fsyncs the folder. True when there was a file to destroy. */
  async destroy(id: string): Promise<boolean> {
    const path = this.path(id);
    let fh;
    try {
      fh = await open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return false;
      if (code !== 'ELOOP') throw e;
      fh = null; // a link planted in its place: remove the link, write through nothing
    }
    if (fh !== null) {
      try {
        const { size } = await fh.stat();
        await fh.write(randomBytes(Math.max(size, 64)), 0, Math.max(size, 64), 0);
        await fh.sync();
      } finally {
        await fh.close();
      }
    }
    await unlink(path);
    await this.syncDir();
    return true;
  }

  private async syncDir(): Promise<void> {
    const d = await open(this.dir, O_RDONLY);
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  }
}
