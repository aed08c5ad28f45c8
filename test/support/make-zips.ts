/**
 * ZIP generators for tests. Every archive is built byte by byte here (APPNOTE 6.3.10 §4.3:
 * local headers, central directory, end of central directory), so tests can write exactly the
 * hostile structures they need: lying sizes, bad CRCs, overlapping records, raw legacy names.
 */
import { spawnSync } from 'node:child_process';
import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntrySpec {
  /** A string is written as UTF-8; a Buffer is written byte for byte. */
  name: string | Uint8Array;
  /** Uncompressed content. */
  data?: Uint8Array;
  /** 0 stored (default), 8 deflated, anything else is written as given with `compressed`. */
  method?: number;
  /** Extra general-purpose bits (bit 0 encrypted, bit 11 UTF-8, ...). */
  flags?: number;
  /** Replaces the compressed bytes (e.g. a corrupted or pre-made deflate stream). */
  compressed?: Uint8Array;
  /** Overrides of what the headers declare. */
  crc32?: number;
  uncompressedSize?: number;
  compressedSize?: number;
  dosDate?: number;
  dosTime?: number;
  /** Extra field written in both the local header and the central directory. */
  extra?: Uint8Array;
  /** Name written in the local header when it should differ from the central directory. */
  localName?: Uint8Array;
}

export interface BuildZipOptions {
  comment?: Uint8Array;
  /** Write ZIP64 structures: 0xFFFFFFFF in the classic fields, the 0x0001 extra, EOCD64 + locator. */
  zip64?: boolean;
  /** Extra central-directory records that point at the local header of entry `of` (overlap). */
  aliases?: { of: number; name: string }[];
  /** Overrides the entry count the EOCD declares. */
  declaredEntryCount?: number;
}

interface Written {
  spec: ZipEntrySpec;
  name: Buffer;
  crc: number;
  usize: number;
  csize: number;
  offset: number;
  method: number;
  flags: number;
}

const DEFAULT_DOS_DATE = ((2024 - 1980) << 9) | (3 << 5) | 15; // 2024-03-15
const DEFAULT_DOS_TIME = (13 << 11) | (45 << 5) | (30 >> 1); // 13:45:30

export function buildZip(entries: ZipEntrySpec[], options: BuildZipOptions = {}): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  const written: Written[] = [];
  for (const spec of entries) {
    const data = Buffer.from(spec.data ?? new Uint8Array());
    const method = spec.method ?? 0;
    const body = Buffer.from(spec.compressed ?? (method === 8 ? deflateRawSync(data) : data));
    const name =
      typeof spec.name === 'string' ? Buffer.from(spec.name, 'utf8') : Buffer.from(spec.name);
    const w: Written = {
      spec,
      name,
      crc: spec.crc32 ?? crc32(data),
      usize: spec.uncompressedSize ?? data.length,
      csize: spec.compressedSize ?? body.length,
      offset,
      method,
      flags: spec.flags ?? 0,
    };
    const local = localHeader(w, options.zip64 === true);
    parts.push(local, body);
    offset += local.length + body.length;
    written.push(w);
  }
  const records = [...written];
  for (const alias of options.aliases ?? []) {
    const target = written[alias.of];
    if (target === undefined) throw new Error(`alias of missing entry ${alias.of}`);
    records.push({ ...target, name: Buffer.from(alias.name, 'utf8') });
  }
  const cdStart = offset;
  for (const w of records) {
    const record = centralRecord(w, options.zip64 === true);
    parts.push(record);
    offset += record.length;
  }
  const count = options.declaredEntryCount ?? records.length;
  parts.push(endRecords(count, cdStart, offset - cdStart, options));
  return Buffer.concat(parts);
}

function localHeader(w: Written, zip64: boolean): Buffer {
  const name = Buffer.from(w.spec.localName ?? w.name);
  const extra = Buffer.concat([
    zip64 ? zip64Extra([w.usize, w.csize]) : Buffer.alloc(0),
    Buffer.from(w.spec.extra ?? []),
  ]);
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(zip64 ? 45 : 20, 4);
  h.writeUInt16LE(w.flags, 6);
  h.writeUInt16LE(w.method, 8);
  h.writeUInt16LE(w.spec.dosTime ?? DEFAULT_DOS_TIME, 10);
  h.writeUInt16LE(w.spec.dosDate ?? DEFAULT_DOS_DATE, 12);
  h.writeUInt32LE(w.crc, 14);
  h.writeUInt32LE(zip64 ? 0xffffffff : w.csize, 18);
  h.writeUInt32LE(zip64 ? 0xffffffff : w.usize, 22);
  h.writeUInt16LE(name.length, 26);
  h.writeUInt16LE(extra.length, 28);
  return Buffer.concat([h, name, extra]);
}

function centralRecord(w: Written, zip64: boolean): Buffer {
  const extra = Buffer.concat([
    zip64 ? zip64Extra([w.usize, w.csize, w.offset]) : Buffer.alloc(0),
    Buffer.from(w.spec.extra ?? []),
  ]);
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE((3 << 8) | 63, 4); // made by: Unix, spec 6.3
  h.writeUInt16LE(zip64 ? 45 : 20, 6);
  h.writeUInt16LE(w.flags, 8);
  h.writeUInt16LE(w.method, 10);
  h.writeUInt16LE(w.spec.dosTime ?? DEFAULT_DOS_TIME, 12);
  h.writeUInt16LE(w.spec.dosDate ?? DEFAULT_DOS_DATE, 14);
  h.writeUInt32LE(w.crc, 16);
  h.writeUInt32LE(zip64 ? 0xffffffff : w.csize, 20);
  h.writeUInt32LE(zip64 ? 0xffffffff : w.usize, 24);
  h.writeUInt16LE(w.name.length, 28);
  h.writeUInt16LE(extra.length, 30);
  h.writeUInt32LE(zip64 ? 0xffffffff : w.offset, 42);
  return Buffer.concat([h, w.name, extra]);
}

function zip64Extra(values: number[]): Buffer {
  const b = Buffer.alloc(4 + 8 * values.length);
  b.writeUInt16LE(0x0001, 0);
  b.writeUInt16LE(8 * values.length, 2);
  values.forEach((v, i) => b.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
  return b;
}

function endRecords(
  count: number,
  cdStart: number,
  cdSize: number,
  options: BuildZipOptions,
): Buffer {
  const comment = Buffer.from(options.comment ?? []);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  const zip64 = options.zip64 === true;
  eocd.writeUInt16LE(zip64 ? 0xffff : count, 8);
  eocd.writeUInt16LE(zip64 ? 0xffff : count, 10);
  eocd.writeUInt32LE(zip64 ? 0xffffffff : cdSize, 12);
  eocd.writeUInt32LE(zip64 ? 0xffffffff : cdStart, 16);
  eocd.writeUInt16LE(comment.length, 20);
  if (!zip64) return Buffer.concat([eocd, comment]);
  const eocd64 = Buffer.alloc(56);
  eocd64.writeUInt32LE(0x06064b50, 0);
  eocd64.writeBigUInt64LE(44n, 4);
  eocd64.writeUInt16LE(45, 12);
  eocd64.writeUInt16LE(45, 14);
  eocd64.writeBigUInt64LE(BigInt(count), 24);
  eocd64.writeBigUInt64LE(BigInt(count), 32);
  eocd64.writeBigUInt64LE(BigInt(cdSize), 40);
  eocd64.writeBigUInt64LE(BigInt(cdStart), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(cdStart + cdSize), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([eocd64, locator, eocd, comment]);
}

/** Info-ZIP extended timestamp (0x5455), central-directory form: flags=1, mtime in Unix seconds. */
export function extendedTimestampExtra(unixSeconds: number): Buffer {
  const b = Buffer.alloc(9);
  b.writeUInt16LE(0x5455, 0);
  b.writeUInt16LE(5, 2);
  b.writeUInt8(1, 4);
  b.writeInt32LE(unixSeconds, 5);
  return b;
}

/** NTFS extra field (0x000a) with tag 1: mtime, atime, ctime in 100 ns ticks since 1601. */
export function ntfsTimestampExtra(unixMs: number): Buffer {
  const ticks = BigInt(unixMs) * 10_000n + 116_444_736_000_000_000n;
  const b = Buffer.alloc(36);
  b.writeUInt16LE(0x000a, 0);
  b.writeUInt16LE(32, 2);
  b.writeUInt16LE(1, 8);
  b.writeUInt16LE(24, 10);
  for (let i = 0; i < 3; i++) b.writeBigUInt64LE(ticks, 12 + 8 * i);
  return b;
}

/** Info-ZIP Unicode Path extra field (0x7075) for `raw`, carrying `unicode` as UTF-8. */
export function unicodePathExtra(raw: Uint8Array, unicode: string): Buffer {
  const name = Buffer.from(unicode, 'utf8');
  const b = Buffer.alloc(9 + name.length);
  b.writeUInt16LE(0x7075, 0);
  b.writeUInt16LE(5 + name.length, 2);
  b.writeUInt8(1, 4);
  b.writeUInt32LE(crc32(raw), 5);
  name.copy(b, 9);
  return b;
}

/**
 * `size` zeros as one raw deflate stream, without deflating them all: 1 MiB of zeros is deflated
 * once and ended with a full flush (its blocks are not final, end on a byte boundary and refer to
 * nothing before them), and that segment is repeated; the rest is one more such segment, and an
 * empty final block ends the stream (RFC 1951: blocks follow one another, and only the last is
 * marked final). Any inflater reads it as `size` zeros; deflate caps out near 1:1032, so 200 MiB
 * become about 200 KiB. Deflating the zeros themselves took most of the bomb tests' time.
 */
export function deflateZeros(size: number): Promise<{ compressed: Buffer; crc: number }> {
  const step = 1 << 20;
  const zeros = Buffer.alloc(Math.min(size, step));
  const segment = (n: number): Buffer =>
    deflateRawSync(zeros.subarray(0, n), { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  const whole = Math.floor(size / step);
  const rest = size % step;
  const parts: Buffer[] = [];
  let crc = 0;
  if (whole > 0) {
    const full = segment(step);
    for (let i = 0; i < whole; i++) {
      parts.push(full);
      crc = crc32(zeros, crc);
    }
  }
  if (rest > 0) {
    parts.push(segment(rest));
    crc = crc32(zeros.subarray(0, rest), crc);
  }
  parts.push(deflateRawSync(Buffer.alloc(0), { level: 9 })); // the final block, empty
  return Promise.resolve({ compressed: Buffer.concat(parts), crc });
}

/** True when `python3` with its zipfile module can be run (used for independent ZIP64 archives). */
export function hasPython(): boolean {
  const r = spawnSync('python3', ['-c', 'import zipfile'], { stdio: 'ignore' });
  return r.status === 0;
}

/**
 * A ZIP64 archive written by Python's zipfile, an independent writer: more than 65,535 entries
 * force the ZIP64 end records (APPNOTE §4.4.1.4); `big.bin` also has a ZIP64 local header.
 */
export function writePythonZip64(path: string, emptyEntries: number): void {
  const script = `
import sys, zipfile
path, n = sys.argv[1], int(sys.argv[2])
with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('first.txt', b'written by python zipfile\\n' * 100)
    with z.open('big.bin', 'w', force_zip64=True) as f:
        f.write(bytes(range(256)) * 64)
    for i in range(n):
        info = zipfile.ZipInfo('empty/%d' % i, (2020, 1, 2, 3, 4, 6))
        z.writestr(info, b'', zipfile.ZIP_STORED)
`;
  const r = spawnSync('python3', ['-c', script, path, String(emptyEntries)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 zipfile failed: ${r.stderr}`);
}
