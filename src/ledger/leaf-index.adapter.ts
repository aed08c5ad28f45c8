import { createHmac, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { canonicalBytes, parseCanonical } from '../core/index.js';

export const LEAF_SIZE = 32;
const LEAVES_NAME = 'leaves.bin';
const STAMP_NAME = 'leaves.stamp';
const STAMP_FORMAT = 'custody-leaf-index-stamp';
const STAMP_KEY_LABEL = 'custody leaf index stamp v1';
/** A stamp is a few hundred bytes; anything larger is not ours. */
const MAX_STAMP_BYTES = 4096;

/** What the kernel says about the ledger file: an edit, a copy or a replacement changes it. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  ctimeNs: bigint;
}

/**
 * The leaf index: the RFC 9162 leaf hash of every ledger entry, 32 bytes each, in order, in
 * `ledger/leaves.bin` beside the ledger, so that opening a large archive need not re-hash it.
 *
 * It is an index, never a record. Untrusted input: anyone with file access can edit it. Opening
 * uses its leaves only up to a size whose signed checkpoint root they reproduce (signed-root.ts),
 * hashes everything after that from the entries, and falls back to hashing the whole ledger when
 * the check fails. Every entry read is then checked against its leaf (Ledger.read), and
 * `custody verify` re-hashes every entry and compares.
 *
 * The stamp (`ledger/leaves.stamp`) is for writers only: the ledger file's identity (device,
 * inode, size, ctime) as the last writer left it when it signed a checkpoint, under an HMAC keyed
 * from the batch-intent key. The kernel sets ctime on every write and nobody can set it back
 * through the file API, so an entry edited since then (or a copied or replaced file) breaks the
 * stamp and the next writer re-hashes everything, as before the leaf index existed, and refuses
 * the edit as it always did (LEDGER_CHECKPOINT_MISMATCH). Readers hold no key: they rely on the
 * signed root and on each entry being checked against its leaf as it is read.
 */
export class LeafIndex {
  private handle: FileHandle | null = null;

  constructor(private readonly ledgerDir: string) {}

  static forLedger(ledgerPath: string): LeafIndex {
    return new LeafIndex(dirname(ledgerPath));
  }

  get path(): string {
    return join(this.ledgerDir, LEAVES_NAME);
  }

  /** The stored leaves (whole 32-byte records only); empty when missing, a link, a FIFO or unreadable. */
  async read(): Promise<Buffer> {
    const bytes = await readRegular(this.path, Number.MAX_SAFE_INTEGER);
    return bytes.subarray(0, bytes.length - (bytes.length % LEAF_SIZE));
  }

  /** Appends leaves at the end of the first `at` records (cutting anything after them). Not fsynced: see sync(). */
  async writeFrom(at: number, leaves: readonly Buffer[]): Promise<void> {
    const fh = await this.writable();
    const buf = Buffer.concat(leaves);
    // Never extend the index with zeros: a gap would be leaves nobody computed.
    if ((await fh.stat()).size < at * LEAF_SIZE) throw new Error(`the leaf index holds fewer than ${at} leaves`);
    await fh.truncate(at * LEAF_SIZE);
    let written = 0;
    while (written < buf.length) written += (await fh.write(buf, written, buf.length - written, at * LEAF_SIZE + written)).bytesWritten;
  }

  /** Appends one batch's leaves at record `at` (the ledger size before the batch). */
  async append(at: number, leaves: readonly Buffer[]): Promise<void> {
    await this.writeFrom(at, leaves);
  }

  /** Makes the leaves durable (at each checkpoint: between them, a lost leaf is re-hashed from its entry). */
  async sync(): Promise<void> {
    await this.handle?.datasync();
  }

  /** Writes the stamp for the ledger file as it is now. */
  async writeStamp(identity: FileIdentity, key: Buffer): Promise<void> {
    const body = stampBody(identity);
    const mac = createHmac('sha256', stampKey(key)).update(canonicalBytes(body)).digest('hex');
    const fh = await open(join(this.ledgerDir, STAMP_NAME), constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o640);
    try {
      if (!(await fh.stat()).isFile()) return;
      const bytes = canonicalBytes({ ...body, mac });
      await fh.truncate(0);
      await fh.write(bytes, 0, bytes.length, 0);
    } finally {
      await fh.close();
    }
  }

  /** Empties the stamp (the file was changed by someone else since this writer last wrote it). */
  async clearStamp(): Promise<void> {
    const fh = await open(join(this.ledgerDir, STAMP_NAME), constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o640).catch(() => null);
    if (fh === null) return;
    try {
      if ((await fh.stat()).isFile()) await fh.truncate(0);
    } finally {
      await fh.close();
    }
  }

  /** True when the stamp authenticates (under `key`) exactly this file identity. */
  async stampMatches(identity: FileIdentity, key: Buffer): Promise<boolean> {
    const bytes = await readRegular(join(this.ledgerDir, STAMP_NAME), MAX_STAMP_BYTES);
    if (bytes.length === 0) return false;
    try {
      const v = parseCanonical(bytes);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
      const { mac, ...rest } = v;
      if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
      const body = canonicalBytes(stampBody(identity));
      const expected = createHmac('sha256', stampKey(key)).update(body).digest();
      return timingSafeEqual(expected, Buffer.from(mac, 'hex')) && canonicalBytes(rest).equals(body);
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = null;
  }

  private async writable(): Promise<FileHandle> {
    if (this.handle !== null) return this.handle;
    const fh = await open(this.path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o640);
    if (!(await fh.stat()).isFile()) {
      await fh.close();
      throw new Error(`${this.path} is not a regular file`);
    }
    this.handle = fh;
    return fh;
  }
}

function stampKey(intentKey: Buffer): Buffer {
  return createHmac('sha256', intentKey).update(STAMP_KEY_LABEL).digest();
}

function stampBody(id: FileIdentity): { [k: string]: string | number } {
  return { format: STAMP_FORMAT, version: 1, dev: id.dev.toString(), ino: id.ino.toString(), size: id.size.toString(), ctime_ns: id.ctimeNs.toString() };
}

async function readRegular(path: string, max: number): Promise<Buffer> {
  let fh: FileHandle;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > max) return Buffer.alloc(0);
    return await fh.readFile();
  } catch {
    return Buffer.alloc(0);
  }
  finally {
    await fh.close();
  }
}
