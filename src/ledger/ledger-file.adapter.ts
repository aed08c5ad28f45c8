import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { LedgerError } from './errors.js';
import type { FileIdentity } from './leaf-index.adapter.js';
import { sameFile } from './ledger-lock.adapter.js';
import { hint } from '../core/index.js';

const CHUNK = 1 << 20;

/**
 * The ledger on disk: one canonical-JSON entry per line, append-only, fsynced per batch.
 * Canonical JSON never contains a raw newline, so "\n" is an unambiguous separator.
 * The file has no update and no delete: only `append`.
 */
export class LedgerFile {
  private constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
    private readonly offsets: number[],
    private end: number,
    readonly tornTail: number,
    /** SHA-256 of the last complete line as this process last read or wrote it. */
    private lastLine: Buffer,
    /** The file's identity when this process opened it or last wrote it (see unchangedSinceKnown). */
    private known: FileIdentity,
  ) {}

  /**
   * Opens the file and scans it once, calling `onLine` for every complete line in order. The
   * line is a view into the scan's buffer, valid only during the call: copy what you keep.
   * A final line without its newline (a write cut by power loss) is not an entry: it is
   * reported as `tornTail` bytes and, when opened for writing, moved aside to a side file.
   */
  static async open(
    path: string,
    mode: 'read' | 'write',
    onLine: (line: Buffer, index: number) => void,
    /** Called once the file is open, before the scan: what the kernel says about it. */
    beforeScan?: (identity: FileIdentity) => Promise<void>,
  ): Promise<LedgerFile> {
    // A writer opens with O_APPEND, so no write of ours can land anywhere but the end, and
    // never follows a link in place of the ledger.
    const flags = (mode === 'write' ? constants.O_RDWR | constants.O_APPEND : constants.O_RDONLY) | constants.O_NOFOLLOW | constants.O_NONBLOCK;
    const handle = await open(path, flags);
    try {
      if (!(await handle.stat()).isFile()) throw new LedgerError('LEDGER_NOT_REGULAR', `${path} is not a regular file (a FIFO, a device or a folder in the ledger's place)`);
      let known = await identityOf(handle);
      if (beforeScan !== undefined) await beforeScan(known);
      const offsets: number[] = [];
      const end = await scanLines(handle, (line, offset) => {
        offsets.push(offset);
        onLine(line, offsets.length - 1);
      });
      // Only the last line's digest is kept (assertUnchanged): read it once, not every line.
      let lastLine = lineDigest(Buffer.alloc(0));
      const lastStart = offsets.at(-1);
      if (lastStart !== undefined) {
        const buf = Buffer.alloc(end - lastStart - 1);
        await handle.read(buf, 0, buf.length, lastStart);
        lastLine = lineDigest(buf);
      }
      const size = (await handle.stat()).size;
      const torn = size - end;
      if (torn > 0 && mode === 'write') {
        await preserveTornTail(handle, path, end, torn);
        known = await identityOf(handle);
      }
      return new LedgerFile(path, handle, offsets, end, torn, lastLine, known);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  static async create(path: string): Promise<void> {
    await writeFile(path, '', { flag: 'wx', mode: 0o644 });
  }

  get length(): number {
    return this.offsets.length;
  }

  /**
   * The file's identity, when nobody but this process has written to it since it opened it or
   * last wrote it (the kernel's ctime would have moved); null otherwise. See LeafIndex's stamp.
   */
  async unchangedSinceKnown(): Promise<FileIdentity | null> {
    const now = await identityOf(this.handle);
    const k = this.known;
    return now.dev === k.dev && now.ino === k.ino && now.size === k.size && now.ctimeNs === k.ctimeNs && (await sameFile(this.handle, this.path)) ? now : null;
  }

  /**
   * For a reader: takes in the entries appended since it opened or last refreshed, reading only
   * the new bytes. A final line without its newline is an append in progress: left for the next
   * refresh. Refuses (LEDGER_CHANGED_UNDER_READER) when what it had read was replaced, cut or edited.
   */
  async refresh(onLine: (line: Buffer, index: number) => void): Promise<number> {
    const st = await this.handle.stat();
    let why: string | null = null;
    if (!(await sameFile(this.handle, this.path))) why = 'the ledger file was replaced or removed';
    else if (st.size < this.end) why = `the ledger is ${st.size} bytes long, this reader had read ${this.end}`;
    else if (this.offsets.length > 0) {
      const start = this.offsets[this.offsets.length - 1] ?? 0;
      const buf = Buffer.alloc(this.end - start);
      await this.handle.read(buf, 0, buf.length, start);
      if (!lineDigest(buf.subarray(0, buf.length - 1)).equals(this.lastLine)) why = `the last entry this reader had read (${this.offsets.length - 1}) was edited`;
    }
    if (why !== null) throw new LedgerError('LEDGER_CHANGED_UNDER_READER', `${why}; open the archive again`, { details: hint({ remedy: ['verify'] }) });
    if (st.size === this.end) return 0;
    const buf = Buffer.alloc(st.size - this.end);
    const { bytesRead } = await this.handle.read(buf, 0, buf.length, this.end);
    const data = buf.subarray(0, bytesRead);
    let start = 0;
    let added = 0;
    for (;;) {
      const nl = data.indexOf(10, start);
      if (nl < 0) break;
      const line = Buffer.from(data.subarray(start, nl));
      this.offsets.push(this.end + start);
      this.lastLine = lineDigest(line);
      onLine(line, this.offsets.length - 1);
      added++;
      start = nl + 1;
    }
    this.end += start;
    return added;
  }

  /**
   * A writer never writes blind: the file must still be the one it opened, as long as it last
   * left it, ending with the line it last read or wrote. Anything else means another process
   * (or a person) changed the ledger under this writer: stop before writing a byte.
   */
  async assertUnchanged(): Promise<void> {
    const st = await this.handle.stat();
    let why: string | null = null;
    if (!(await sameFile(this.handle, this.path))) why = 'the ledger file was replaced or removed';
    else if (st.size !== this.end) why = `the ledger is ${st.size} bytes long, this writer left it at ${this.end}`;
    else if (this.offsets.length > 0) {
      const start = this.offsets[this.offsets.length - 1] ?? 0;
      const buf = Buffer.alloc(this.end - start);
      await this.handle.read(buf, 0, buf.length, start);
      if (!lineDigest(buf.subarray(0, buf.length - 1)).equals(this.lastLine)) why = `the last entry (${this.offsets.length - 1}) was edited`;
    }
    if (why !== null) {
      throw new LedgerError('LEDGER_CHANGED_UNDER_WRITER', `${why} while this command was writing it; nothing more was written`, { details: hint({ remedy: ['verify'] }) });
    }
  }

  /** Appends lines (without their newlines) and fsyncs. On failure the file is cut back. */
  async append(lines: readonly Buffer[]): Promise<void> {
    if (lines.length === 0) return;
    await this.assertUnchanged();
    const parts: Buffer[] = [];
    const newOffsets: number[] = [];
    let pos = this.end;
    for (const line of lines) {
      newOffsets.push(pos);
      parts.push(line, NEWLINE);
      pos += line.length + 1;
    }
    const buf = Buffer.concat(parts);
    try {
      let written = 0;
      while (written < buf.length) {
        const r = await this.handle.write(buf, written, buf.length - written, null); // O_APPEND: at the end
        written += r.bytesWritten;
      }
      await this.handle.datasync();
      this.known = await identityOf(this.handle);
    } catch (cause) {
      // Leave no partial entry behind: the ledger is exactly what it was before this call.
      await this.handle.truncate(this.end).catch(() => undefined);
      await this.handle.datasync().catch(() => undefined);
      throw new LedgerError('LEDGER_WRITE_FAILED', `could not append to the ledger ${this.path}: ${String(cause)}`, { cause });
    }
    this.offsets.push(...newOffsets);
    this.end = pos;
    this.lastLine = lineDigest(lines[lines.length - 1] ?? Buffer.alloc(0));
  }

  /**
   * Cuts the ledger back to its first `size` entries, returning the exact bytes removed. Only
   * for setting aside an unauthenticated tail (`custody tail --set-aside`), which first saves
   * those bytes to a side file and then records the act in the ledger.
   */
  async truncateTo(size: number): Promise<Buffer> {
    if (!Number.isSafeInteger(size) || size < 0 || size > this.offsets.length) {
      throw new LedgerError('LEDGER_BAD_RANGE', `cannot cut the ledger back to ${size} entries (it has ${this.offsets.length})`);
    }
    await this.assertUnchanged();
    const cut = size === this.offsets.length ? this.end : (this.offsets[size] ?? this.end);
    const removed = Buffer.alloc(this.end - cut);
    await this.handle.read(removed, 0, removed.length, cut);
    await this.handle.truncate(cut);
    await this.handle.datasync();
    this.known = await identityOf(this.handle);
    this.offsets.length = size;
    this.end = cut;
    if (size > 0) {
      const start = this.offsets[size - 1] ?? 0;
      const last = Buffer.alloc(cut - start);
      await this.handle.read(last, 0, last.length, start);
      this.lastLine = lineDigest(last.subarray(0, last.length - 1));
    } else this.lastLine = lineDigest(Buffer.alloc(0));
    return removed;
  }

  /** Reads the exact bytes of entries [from, to). */
  async readRange(from: number, to: number): Promise<Buffer[]> {
    if (from < 0 || to > this.offsets.length || from > to) {
      throw new LedgerError('LEDGER_BAD_RANGE', `no entries ${from}..${to} in a ledger of ${this.offsets.length}`);
    }
    if (from === to) return [];
    const start = this.offsets[from] ?? 0;
    const stop = to === this.offsets.length ? this.end : (this.offsets[to] ?? this.end);
    const buf = Buffer.alloc(stop - start);
    await this.handle.read(buf, 0, buf.length, start);
    const out: Buffer[] = [];
    for (let i = from; i < to; i++) {
      const a = (this.offsets[i] ?? 0) - start;
      const b = (i + 1 === this.offsets.length ? this.end : (this.offsets[i + 1] ?? this.end)) - start;
      out.push(buf.subarray(a, b - 1));
    }
    return out;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

const NEWLINE = Buffer.from('\n');

async function identityOf(handle: FileHandle): Promise<FileIdentity> {
  const st = await handle.stat({ bigint: true });
  return { dev: st.dev, ino: st.ino, size: st.size, ctimeNs: st.ctimeNs };
}

function lineDigest(line: Buffer): Buffer {
  return createHash('sha256').update(line).digest();
}

async function scanLines(
  handle: FileHandle,
  onLine: (line: Buffer, offset: number) => void,
): Promise<number> {
  const chunk = Buffer.allocUnsafe(CHUNK);
  let carry: Buffer = Buffer.alloc(0);
  let carryOffset = 0;
  let pos = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK, pos);
    if (bytesRead === 0) break;
    let data = chunk.subarray(0, bytesRead);
    let dataOffset = pos;
    if (carry.length > 0) {
      data = Buffer.concat([carry, data]);
      dataOffset = carryOffset;
    }
    let start = 0;
    for (;;) {
      const nl = data.indexOf(10, start);
      if (nl < 0) break;
      onLine(data.subarray(start, nl), dataOffset + start); // a view: see LedgerFile.open
      start = nl + 1;
    }
    carry = Buffer.from(data.subarray(start));
    carryOffset = dataOffset + start;
    pos += bytesRead;
  }
  return pos - carry.length; // end of the last complete line
}

async function preserveTornTail(handle: FileHandle, path: string, end: number, torn: number): Promise<void> {
  const tail = Buffer.alloc(torn);
  await handle.read(tail, 0, torn, end);
  const side = `${path}.torn-${end}`;
  await writeFile(`${side}.tmp`, tail);
  await rename(`${side}.tmp`, side);
  await handle.truncate(end);
  await handle.datasync();
}
