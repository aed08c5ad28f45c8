import { open, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { LedgerError } from './errors.js';

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
  ) {}

  /**
   * Opens the file and scans it once, calling `onLine` for every complete line in order.
   * A final line without its newline (a write cut by power loss) is not an entry: it is
   * reported as `tornTail` bytes and, when opened for writing, moved aside to a side file.
   */
  static async open(
    path: string,
    mode: 'read' | 'write',
    onLine: (line: Buffer, index: number) => void,
  ): Promise<LedgerFile> {
    const handle = await open(path, mode === 'write' ? 'r+' : 'r');
    try {
      const offsets: number[] = [];
      const end = await scanLines(handle, (line, offset) => {
        offsets.push(offset);
        onLine(line, offsets.length - 1);
      });
      const size = (await handle.stat()).size;
      const torn = size - end;
      if (torn > 0 && mode === 'write') {
        await preserveTornTail(handle, path, end, torn);
      }
      return new LedgerFile(path, handle, offsets, end, torn);
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

  /** Appends lines (without their newlines) and fsyncs. On failure the file is cut back. */
  async append(lines: readonly Buffer[]): Promise<void> {
    if (lines.length === 0) return;
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
        const r = await this.handle.write(buf, written, buf.length - written, this.end + written);
        written += r.bytesWritten;
      }
      await this.handle.datasync();
    } catch (cause) {
      // Leave no partial entry behind: the ledger is exactly what it was before this call.
      await this.handle.truncate(this.end).catch(() => undefined);
      await this.handle.datasync().catch(() => undefined);
      throw new LedgerError('LEDGER_WRITE_FAILED', `could not append to the ledger ${this.path}: ${String(cause)}`, { cause });
    }
    this.offsets.push(...newOffsets);
    this.end = pos;
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
      onLine(Buffer.from(data.subarray(start, nl)), dataOffset + start);
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
