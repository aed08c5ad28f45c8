/**
 * Streaming reader for ZIP archives handed over by sources, on yauzl.
 *
 * Everything in the archive is attacker-controlled: the central directory, names, sizes, CRCs,
 * offsets and the compressed data. yauzl parses the end records and the central directory
 * (APPNOTE 6.3.10 §4.3.12–4.3.16, ZIP64 §4.3.14–4.3.15) through a reader over our own file
 * handle; member bytes are then read from that handle, inflated and checked here, so that every
 * limit (declared sizes, actual bytes, CRC) is enforced in one place.
 *
 * The central directory is read once at open and kept as small records, because overlap
 * detection (Fifield, "A better zip bomb", WOOT 2019) needs all entries at once.
 */
import { constants } from 'node:fs';
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import { CustodyError } from '../core/index.js';
import {
  decodeZipName,
  describeHostilePath,
  isDirectoryName,
  type ZipNameEncoding,
} from './zip-names.js';

export type ZipErrorCode =
  | 'ZIP_UNREADABLE' // the file cannot be opened or read at all
  | 'ZIP_CORRUPT' // not a ZIP, or its end records / central directory are malformed
  | 'ZIP_TRUNCATED' // the archive ends before its own structures do
  | 'ZIP_UNSUPPORTED' // multi-disk archives, strong encryption (APPNOTE §7)
  | 'ZIP_TOO_MANY_ENTRIES'
  | 'ZIP_MEMBER_CORRUPT' // member data: bad local header, inflate error, size mismatch, short read
  | 'ZIP_MEMBER_SKIPPED' // openMember on a member that has a skipReason
  | 'ZIP_MEMBER_ABORTED' // the consumer destroyed the stream before its end
  | 'ZIP_CLOSED'
  | 'ZIP_BAD_ARGUMENT';

export class ZipError extends CustodyError<ZipErrorCode> {}

export interface ZipLimits {
  maxEntries: number;
  /** Sum of declared uncompressed sizes of the members we extract. */
  maxTotalUncompressed: number;
  maxMemberUncompressed: number;
  /** Uncompressed / compressed, applied only when uncompressed > ratioMinBytes. */
  maxRatio: number;
  ratioMinBytes: number;
}

const GiB = 1024 ** 3;
export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({
  maxEntries: 1_000_000,
  maxTotalUncompressed: 64 * GiB,
  maxMemberUncompressed: 16 * GiB,
  maxRatio: 200,
  ratioMinBytes: 64 * 1024 ** 2,
});

/** Every flag a member can carry; stable codes, listed in this order in `ZipMemberInfo.flags`. */
export const ZIP_MEMBER_FLAGS = [
  'zip-slip-path',
  'absolute-path',
  'nul-in-name',
  'empty-name',
  'name-not-utf8',
  'unicode-path-field',
  'duplicate-name',
  'local-name-mismatch',
  'encrypted',
  'directory-with-data',
  'size-mismatch',
  'unsupported-method',
  'local-header-invalid',
  'overlapping-entry',
  'bomb-member-size',
  'bomb-ratio',
  'bomb-total-size',
] as const;
export type ZipMemberFlag = (typeof ZIP_MEMBER_FLAGS)[number];

export interface ZipMemberInfo {
  index: number;
  path: string;
  pathRaw: Buffer;
  pathEncoding: ZipNameEncoding;
  isDirectory: boolean;
  encrypted: boolean;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
  /** Literal DOS date and time, 'YYYY-MM-DDTHH:MM:SS' in the writer's local time; '' if invalid. */
  dosTime: string;
  /** From the NTFS (0x000a) or extended-timestamp (0x5455) extra field, RFC 3339 UTC with ms. */
  mtimeUtc: string | null;
  flags: string[];
  skipReason: string | null;
}

export interface ZipMemberRead {
  stream: Readable;
  done: Promise<{ bytes: number; crcOk: boolean }>;
}

export interface OpenMemberOptions {
  /** Stream the stored bytes as they are (no inflate, no CRC): for opaque items. Allowed for skipped members. */
  raw?: boolean;
}

/** One central-directory entry, kept small: 1,000,000 of them stay in memory. */
interface MemberRecord {
  index: number;
  path: string;
  pathRaw: Buffer;
  pathEncoding: ZipNameEncoding;
  generalPurposeBitFlag: number;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
  dosDate: number;
  dosTime: number;
  mtimeMs: number | null;
  localHeaderOffset: number;
  /** Start of the member's data, from its local header; -1 when that header is unusable. */
  dataStart: number;
  flags: number;
  skipReason: string | null;
}

const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const WINDOW = 64 * 1024;

export class ZipReader {
  private closed = false;
  private readonly active = new Set<Readable>();

  private constructor(
    private readonly file: FileHandle,
    private readonly records: readonly MemberRecord[],
    readonly entryCount: number,
    readonly isZip64: boolean,
    readonly comment: Buffer,
    /** Size of the ZIP file itself, in bytes. */
    readonly fileSize: number,
  ) {}

  /**
   * Bytes extracting every member would write, as the central directory declares them: the
   * uncompressed size of members to inflate, the stored size of opaque (encrypted) ones.
   * Members already skipped (limits, overlap, unsupported method) and folders count nothing.
   * The stream of each member stops at its declared size, so the bytes written never exceed this.
   */
  declaredExtractedBytes(): number {
    let total = 0;
    for (const r of this.records) {
      if (r.skipReason !== null || isDirectoryName(r.path)) continue;
      total += isEncrypted(r) ? r.compressedSize : r.uncompressedSize;
    }
    return total;
  }

  /** Reads the whole central directory; throws ZipError when it cannot. */
  static async open(path: string, limits: Partial<ZipLimits> = {}): Promise<ZipReader> {
    const effective = checkLimits({ ...DEFAULT_ZIP_LIMITS, ...limits });
    let file: FileHandle;
    try {
      // Never through a link, never blocking on a FIFO put in the file's place.
      file = await openFile(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (cause) {
      throw new ZipError('ZIP_UNREADABLE', `cannot open ${path}: ${String(cause)}`, {
        cause,
        details: { path },
      });
    }
    try {
      const st = await file.stat();
      if (!st.isFile())
        throw new ZipError('ZIP_UNREADABLE', `${path} is not a regular file`, { details: { path } });
      const size = st.size;
      const cache = new WindowedFile(file, size);
      const zipfile = await openCentralDirectory(cache, size, path);
      try {
        return await ZipReader.readAll(file, cache, zipfile, effective, path);
      } finally {
        zipfile.close();
      }
    } catch (e) {
      await file.close();
      throw e;
    }
  }

  private static async readAll(
    file: FileHandle,
    cache: WindowedFile,
    zipfile: yauzl.ZipFile,
    limits: ZipLimits,
    path: string,
  ): Promise<ZipReader> {
    const count = zipfile.entryCount;
    if (count > limits.maxEntries) {
      throw new ZipError(
        'ZIP_TOO_MANY_ENTRIES',
        `${path} declares ${count} entries, above the limit of ${limits.maxEntries}`,
        {
          details: { path, entryCount: count, maxEntries: limits.maxEntries },
        },
      );
    }
    if (count * 46 > cache.size) {
      throw new ZipError(
        'ZIP_CORRUPT',
        `${path} declares ${count} entries, more than its ${cache.size} bytes can hold`,
        {
          details: { path, entryCount: count },
        },
      );
    }
    const { records, sawZip64Extra } = await readRecords(zipfile, path);
    await inspectLocalHeaders(cache, records);
    applyLimits(records, limits);
    // With decodeStrings: false yauzl hands the comment over as the raw Buffer.
    const comment = Buffer.from(zipfile.comment as unknown as Buffer);
    const isZip64 = sawZip64Extra || (await hasZip64Locator(cache, comment.length));
    return new ZipReader(file, records, records.length, isZip64, comment, cache.size);
  }

  /** Members in central-directory order. */
  // eslint-disable-next-line @typescript-eslint/require-await -- AsyncGenerator is the contract; the records are already in memory
  async *members(): AsyncGenerator<ZipMemberInfo> {
    for (const r of this.records) yield toInfo(r);
  }

  /** Throws (rejects) ZIP_MEMBER_SKIPPED for a member with a skipReason unless `raw` is asked for. */
  openMember(m: ZipMemberInfo, options: OpenMemberOptions = {}): Promise<ZipMemberRead> {
    return new Promise((resolve) => resolve(this.startMember(m, options)));
  }

  private startMember(m: ZipMemberInfo, options: OpenMemberOptions): ZipMemberRead {
    const r = this.records[m.index];
    if (r === undefined || !r.pathRaw.equals(m.pathRaw)) {
      throw new ZipError('ZIP_BAD_ARGUMENT', `member #${m.index} does not belong to this archive`);
    }
    if (this.closed) throw new ZipError('ZIP_CLOSED', 'the archive has been closed');
    const label = `member #${r.index} (${JSON.stringify(r.path)})`;
    if (r.dataStart < 0)
      throw new ZipError('ZIP_MEMBER_CORRUPT', `${label}: ${r.skipReason ?? 'unreadable'}`);
    const raw = options.raw === true || isEncrypted(r);
    if (r.skipReason !== null && options.raw !== true) {
      throw new ZipError('ZIP_MEMBER_SKIPPED', `${label} is not extracted: ${r.skipReason}`);
    }
    const source = new RangeStream(this.file, r.dataStart, r.compressedSize);
    const read = checkMember(source, {
      inflate: !raw && r.method === 8,
      expectedBytes: raw ? r.compressedSize : r.uncompressedSize,
      crc32: raw ? null : r.crc32,
      label,
    });
    this.active.add(read.stream);
    read.stream.once('close', () => this.active.delete(read.stream));
    return read;
  }

  /** Closes the file; streams still open are destroyed (their `done` rejects with ZIP_MEMBER_ABORTED). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.active) s.destroy();
    await this.file.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Opening: end records and central directory, through yauzl.

/** Positional reads over our file handle, served from a 64 KiB window (the central directory is sequential). */
class WindowedFile {
  private window = Buffer.alloc(0);
  private windowStart = 0;

  constructor(
    readonly handle: FileHandle,
    readonly size: number,
  ) {}

  /** Exactly `length` bytes at `position`, or null past the end of the file. */
  async read(position: number, length: number): Promise<Buffer | null> {
    if (position < 0 || length < 0 || position + length > this.size) return null;
    const offset = position - this.windowStart;
    if (offset >= 0 && offset + length <= this.window.length)
      return this.window.subarray(offset, offset + length);
    const want = Math.min(Math.max(length, WINDOW), this.size - position);
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await this.handle.read(buffer, 0, want, position);
    if (bytesRead < length) return null; // the file shrank under us
    if (want <= WINDOW) {
      this.window = buffer.subarray(0, bytesRead);
      this.windowStart = position;
    }
    return buffer.subarray(0, length);
  }
}

/** yauzl's documented extension point; our handle stays ours (close is a no-op here). */
class HandleReader extends yauzl.RandomAccessReader {
  constructor(private readonly file: WindowedFile) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return new RangeStream(this.file.handle, start, end - start);
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null, bytesRead?: number) => void,
  ): void {
    this.file.read(position, length).then(
      (bytes) => {
        if (bytes === null) return callback(null, 0);
        bytes.copy(buffer, offset);
        callback(null, bytes.length);
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
    );
  }

  override close(callback: (err: Error | null) => void): void {
    setImmediate(() => callback(null));
  }
}

const YAUZL_OPTIONS: yauzl.Options = {
  lazyEntries: true,
  decodeStrings: false,
  // Sizes are enforced by our own byte counting (checkMember) instead: yauzl's check would refuse the
  // whole archive at open for one stored entry whose two sizes disagree.
  validateEntrySizes: false,
  autoClose: false,
  strictFileNames: false,
};

async function openCentralDirectory(
  file: WindowedFile,
  size: number,
  path: string,
): Promise<yauzl.ZipFile> {
  try {
    return await new Promise<yauzl.ZipFile>((resolve, reject) => {
      yauzl.fromRandomAccessReader(new HandleReader(file), size, YAUZL_OPTIONS, (err, zipfile) =>
        err ? reject(err) : resolve(zipfile),
      );
    });
  } catch (cause) {
    const startsLikeZip = (await file.read(0, 4))?.readUInt32LE(0) === LOCAL_HEADER_SIGNATURE;
    throw toOpenError(cause, path, startsLikeZip);
  }
}

function toOpenError(cause: unknown, path: string, startsLikeZip: boolean): ZipError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const details = { path, reason };
  if (/multi-disk|strong encryption/.test(reason)) {
    return new ZipError('ZIP_UNSUPPORTED', `${path} uses an unsupported ZIP feature: ${reason}`, {
      cause,
      details,
    });
  }
  if (/signature not found/.test(reason)) {
    return startsLikeZip
      ? new ZipError(
          'ZIP_TRUNCATED',
          `${path} starts like a ZIP but has no end-of-central-directory record: the file is truncated`,
          { cause, details },
        )
      : new ZipError(
          'ZIP_CORRUPT',
          `${path} is not a ZIP archive (no end-of-central-directory record)`,
          { cause, details },
        );
  }
  if (/unexpected EOF/.test(reason)) {
    return new ZipError(
      'ZIP_TRUNCATED',
      `the central directory of ${path} runs past the end of the file: truncated or corrupt`,
      { cause, details },
    );
  }
  return new ZipError('ZIP_CORRUPT', `cannot read the central directory of ${path}: ${reason}`, {
    cause,
    details,
  });
}

async function readRecords(
  zipfile: yauzl.ZipFile,
  path: string,
): Promise<{ records: MemberRecord[]; sawZip64Extra: boolean }> {
  const records: MemberRecord[] = [];
  let sawZip64Extra = false;
  try {
    for await (const entry of zipfile.eachEntry()) {
      records.push(toRecord(entry, records.length));
      if (entry.extraFields.some((f) => f.id === 0x0001)) sawZip64Extra = true;
    }
  } catch (cause) {
    throw toOpenError(cause, path, true);
  }
  return { records, sawZip64Extra };
}

function toRecord(entry: yauzl.Entry, index: number): MemberRecord {
  const pathRaw = Buffer.from(entry.fileNameRaw); // a copy: the entry's buffer also holds extra and comment
  const unicodeField = entry.extraFields.find((f) => f.id === 0x7075)?.data;
  const name = decodeZipName(pathRaw, entry.generalPurposeBitFlag, unicodeField);
  const record: MemberRecord = {
    index,
    path: name.path,
    pathRaw,
    pathEncoding: name.encoding,
    generalPurposeBitFlag: entry.generalPurposeBitFlag,
    method: entry.compressionMethod,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    crc32: entry.crc32,
    dosDate: entry.lastModFileDate,
    dosTime: entry.lastModFileTime,
    mtimeMs: readExtraMtime(entry.extraFields),
    localHeaderOffset: entry.relativeOffsetOfLocalHeader,
    dataStart: -1,
    flags: 0,
    skipReason: null,
  };
  const nameFlags = describeHostilePath(name.path);
  if (name.fromUnicodePathField)
    nameFlags.push(...describeHostilePath(name.rawDecoded), 'unicode-path-field');
  if (name.fromUnicodePathField || name.encoding !== 'utf8') nameFlags.push('name-not-utf8');
  for (const f of nameFlags) addFlag(record, f as ZipMemberFlag);
  if (isEncrypted(record)) addFlag(record, 'encrypted');
  if (isDirectoryName(name.path) && record.uncompressedSize > 0)
    addFlag(record, 'directory-with-data');
  if (
    !isEncrypted(record) &&
    record.method === 0 &&
    record.compressedSize !== record.uncompressedSize
  ) {
    addFlag(record, 'size-mismatch');
  }
  return record;
}

async function hasZip64Locator(file: WindowedFile, commentLength: number): Promise<boolean> {
  const locator = await file.read(file.size - 22 - commentLength - 20, 4);
  return locator?.readUInt32LE(0) === ZIP64_LOCATOR_SIGNATURE;
}

// ---------------------------------------------------------------------------------------------
// Local headers, overlap and limits: decided once at open, so that skipReason is stable.

/** Finds each member's data (APPNOTE §4.3.7) and skips members whose local data ranges overlap. */
async function inspectLocalHeaders(file: WindowedFile, records: MemberRecord[]): Promise<void> {
  const byOffset = [...records].sort(
    (a, b) => a.localHeaderOffset - b.localHeaderOffset || a.index - b.index,
  );
  let reach = 0;
  let reachOwner: MemberRecord | null = null;
  for (const r of byOffset) {
    const header = await file.read(r.localHeaderOffset, 30);
    if (header === null || header.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE) {
      skip(
        r,
        'local-header-invalid',
        `there is no local file header at offset ${r.localHeaderOffset}`,
      );
      continue;
    }
    const nameLength = header.readUInt16LE(26);
    const dataStart = r.localHeaderOffset + 30 + nameLength + header.readUInt16LE(28);
    if (dataStart + r.compressedSize > file.size) {
      skip(
        r,
        'local-header-invalid',
        `its data (${r.compressedSize} bytes at offset ${dataStart}) runs past the end of the file`,
      );
      continue;
    }
    r.dataStart = dataStart;
    const localName = await file.read(r.localHeaderOffset + 30, nameLength);
    if (localName === null || !localName.equals(r.pathRaw)) addFlag(r, 'local-name-mismatch');
    if (r.localHeaderOffset < reach && reachOwner !== null) {
      skip(
        r,
        'overlapping-entry',
        `its data overlaps that of member #${reachOwner.index} (${JSON.stringify(reachOwner.path)}), the construction of overlapping-entry zip bombs`,
      );
      continue;
    }
    reach = dataStart + r.compressedSize;
    reachOwner = r;
  }
}

function applyLimits(records: MemberRecord[], limits: ZipLimits): void {
  const seen = new Set<string>();
  let total = 0;
  for (const r of records) {
    if (seen.has(r.path)) addFlag(r, 'duplicate-name');
    else seen.add(r.path);
    const raw = isEncrypted(r);
    if (!raw && r.method !== 0 && r.method !== 8) {
      skip(
        r,
        'unsupported-method',
        `compression method ${r.method}${methodName(r.method)} is not supported`,
      );
    }
    const bytes = raw ? r.compressedSize : r.uncompressedSize;
    if (bytes > limits.maxMemberUncompressed) {
      skip(
        r,
        'bomb-member-size',
        `it declares ${bytes} bytes, above the limit of ${limits.maxMemberUncompressed} bytes per member`,
      );
    }
    if (
      !raw &&
      r.method === 8 &&
      bytes > limits.ratioMinBytes &&
      bytes > limits.maxRatio * r.compressedSize
    ) {
      const ratio =
        r.compressedSize === 0 ? 'unbounded' : `${Math.round(bytes / r.compressedSize)}:1`;
      skip(
        r,
        'bomb-ratio',
        `it declares ${bytes} bytes from ${r.compressedSize} compressed (ratio ${ratio}), above the limit of ${limits.maxRatio}:1`,
      );
    }
    if (r.skipReason !== null) continue;
    if (total + bytes > limits.maxTotalUncompressed) {
      skip(
        r,
        'bomb-total-size',
        `extracting it would bring the archive to ${total + bytes} bytes, above the limit of ${limits.maxTotalUncompressed} bytes`,
      );
      continue;
    }
    total += bytes;
  }
}

const METHOD_NAMES: Readonly<Record<number, string>> = {
  1: 'shrink',
  6: 'implode',
  9: 'deflate64',
  12: 'bzip2',
  14: 'lzma',
  93: 'zstd',
  95: 'xz',
  98: 'ppmd',
  99: 'aes',
};
function methodName(method: number): string {
  const name = METHOD_NAMES[method];
  return name === undefined ? '' : ` (${name})`;
}

function checkLimits(limits: ZipLimits): ZipLimits {
  for (const [key, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || !(value >= 0) || (key === 'maxRatio' && value === 0)) {
      throw new ZipError(
        'ZIP_BAD_ARGUMENT',
        `ZIP limit ${key} must be a positive number, got ${String(value)}`,
      );
    }
  }
  return limits;
}

function isEncrypted(r: MemberRecord): boolean {
  return (r.generalPurposeBitFlag & 0x1) !== 0; // APPNOTE §4.4.4 bit 0
}

function addFlag(r: MemberRecord, flag: ZipMemberFlag): void {
  r.flags |= 1 << ZIP_MEMBER_FLAGS.indexOf(flag);
}

/** Flags the member; the first reason given is the one reported. */
function skip(r: MemberRecord, flag: ZipMemberFlag, reason: string): void {
  addFlag(r, flag);
  r.skipReason ??= `${reason}; the member is not extracted`;
}

function toInfo(r: MemberRecord): ZipMemberInfo {
  return {
    index: r.index,
    path: r.path,
    pathRaw: Buffer.from(r.pathRaw),
    pathEncoding: r.pathEncoding,
    isDirectory: isDirectoryName(r.path),
    encrypted: isEncrypted(r),
    method: r.method,
    compressedSize: r.compressedSize,
    uncompressedSize: r.uncompressedSize,
    crc32: r.crc32,
    dosTime: formatDosDateTime(r.dosDate, r.dosTime),
    mtimeUtc: r.mtimeMs === null ? null : new Date(r.mtimeMs).toISOString(),
    flags: ZIP_MEMBER_FLAGS.filter((_, i) => (r.flags & (1 << i)) !== 0),
    skipReason: r.skipReason,
  };
}

// ---------------------------------------------------------------------------------------------
// Times.

/** MS-DOS date and time as written (APPNOTE §4.4.6), no zone; '' when a field is out of range. */
export function formatDosDateTime(date: number, time: number): string {
  const year = 1980 + (date >> 9);
  const month = (date >> 5) & 0xf;
  const day = date & 0x1f;
  const hour = time >> 11;
  const minute = (time >> 5) & 0x3f;
  const second = (time & 0x1f) * 2;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return '';
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${year}-${p(month)}-${p(day)}T${p(hour)}:${p(minute)}:${p(second)}`;
}

const MAX_DATE_MS = 8.64e15; // ECMA-262 §21.4.1.1

/**
 * Modification time from the extra fields, in Unix ms: NTFS (0x000a, 100 ns ticks since 1601,
 * APPNOTE §4.5.5) is preferred for its precision, then Info-ZIP extended timestamp (0x5455).
 */
function readExtraMtime(fields: readonly yauzl.ExtraField[]): number | null {
  let ntfs: number | null = null;
  let unix: number | null = null;
  for (const f of fields) {
    if (f.id === 0x000a && ntfs === null) ntfs = readNtfsMtime(f.data);
    if (f.id === 0x5455 && unix === null && f.data.length >= 5 && ((f.data[0] ?? 0) & 1) !== 0) {
      unix = f.data.readInt32LE(1) * 1000;
    }
  }
  const ms = ntfs ?? unix;
  return ms !== null && Math.abs(ms) <= MAX_DATE_MS ? ms : null;
}

function readNtfsMtime(data: Buffer): number | null {
  let pos = 4; // reserved
  while (pos + 4 <= data.length) {
    const tag = data.readUInt16LE(pos);
    const size = data.readUInt16LE(pos + 2);
    pos += 4;
    if (pos + size > data.length) return null;
    if (tag === 1 && size >= 8) {
      const ticks = data.readBigUInt64LE(pos);
      return ticks === 0n ? null : Number((ticks - 116_444_736_000_000_000n) / 10_000n);
    }
    pos += size;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Member data.

/**
 * Positional reads of [start, start + length). Not `FileHandle.createReadStream`: destroying that
 * stream closes the shared handle even with autoClose: false.
 */
class RangeStream extends Readable {
  private position: number;
  private readonly end: number;

  constructor(
    private readonly file: FileHandle,
    start: number,
    length: number,
  ) {
    super({ highWaterMark: WINDOW });
    this.position = start;
    this.end = start + length;
  }

  override _read(): void {
    const length = Math.min(WINDOW, this.end - this.position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafe(length);
    this.file.read(buffer, 0, length, this.position).then(
      ({ bytesRead }) => {
        if (this.destroyed) return;
        if (bytesRead === 0) return this.destroy(new Error('unexpected end of file'));
        this.position += bytesRead;
        this.push(buffer.subarray(0, bytesRead));
      },
      (err: unknown) => this.destroy(err instanceof Error ? err : new Error(String(err))),
    );
  }
}

interface MemberPlan {
  inflate: boolean;
  /** Bytes the stream must yield exactly: the declared size, so a lie cannot truncate or overflow. */
  expectedBytes: number;
  /** Central-directory CRC-32 to compare with, or null for raw bytes. */
  crc32: number | null;
  label: string;
}

/** source -> [inflate] -> checker; every failure becomes ZIP_MEMBER_CORRUPT on the checker. */
function checkMember(source: Readable, plan: MemberPlan): ZipMemberRead {
  let bytes = 0;
  let crc = 0;
  const corrupt = (message: string, cause?: unknown): ZipError =>
    new ZipError('ZIP_MEMBER_CORRUPT', `${plan.label}: ${message}`, { cause, details: { bytes } });
  const checker = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      bytes += chunk.length;
      if (bytes > plan.expectedBytes)
        return callback(corrupt(`more data than the declared ${plan.expectedBytes} bytes`));
      if (plan.crc32 !== null) crc = crc32(chunk, crc);
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      if (bytes < plan.expectedBytes)
        return callback(corrupt(`only ${bytes} of the declared ${plan.expectedBytes} bytes`));
      callback();
    },
  });
  const inflater = plan.inflate ? createInflateRaw() : null;
  const fail = (err: Error): void => {
    checker.destroy(err instanceof ZipError ? err : corrupt(err.message, err));
  };
  source.on('error', fail);
  if (inflater === null) source.pipe(checker);
  else source.pipe(inflater.on('error', fail)).pipe(checker);
  checker.once('close', () => {
    source.destroy();
    inflater?.destroy();
  });
  const done = new Promise<{ bytes: number; crcOk: boolean }>((resolve, reject) => {
    checker.once('end', () => resolve({ bytes, crcOk: plan.crc32 === null || crc === plan.crc32 }));
    checker.on('error', reject);
    checker.once('close', () =>
      reject(
        new ZipError('ZIP_MEMBER_ABORTED', `${plan.label}: the stream was closed before its end`),
      ),
    );
  });
  void done.catch(() => undefined); // callers that only consume the stream must not crash the process
  return { stream: checker, done };
}
