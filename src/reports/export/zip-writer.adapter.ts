import { createReadStream } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/**
 * A deterministic, store-only ZIP writer (PKWARE APPNOTE.TXT 6.3.10), enough to hand a bag over
 * as one file. No compression (evidence is mostly JPEG; and stored members are what every
 * reader, forensic tool and court IT department can open), fixed timestamps (1980-01-01 00:00,
 * the DOS epoch) and fixed attributes, so the same files give the same bytes. ZIP64 (§4.5.3,
 * §4.3.14–4.3.16) is used where a size, an offset or the member count outgrows the classic fields.
 * Files are streamed twice (CRC-32, then the bytes), never held in memory.
 */
export interface ZipMember {
  /** The name inside the archive, '/'-separated, ASCII (bag paths are). */
  name: string;
  /** Where the bytes are on disk. */
  file: string;
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const DOS_DATE_1980_01_01 = (0 << 9) | (1 << 5) | 1;
const VERSION_STORED = 10; // 1.0: stored members
const VERSION_ZIP64 = 45; // 4.5: ZIP64 extensions
const MADE_BY_UNIX = 3 << 8;
const FILE_MODE = 0o100644;

interface Written {
  name: Buffer;
  crc: number;
  size: number;
  offset: number;
}

/** Writes `members` (in the order given) to `out`, which must not exist. */
export async function writeStoredZip(
  out: string,
  members: readonly ZipMember[],
  opts: { forceZip64?: boolean } = {},
): Promise<void> {
  for (const m of members) {
    if (!/^[\x20-\x7e]+$/.test(m.name))
      throw new Error(`zip member name must be printable ASCII: ${m.name}`);
  }
  const fh = await open(out, 'wx');
  try {
    let offset = 0;
    const put = async (b: Buffer): Promise<void> => {
      await fh.write(b);
      offset += b.length;
    };
    const written: Written[] = [];
    for (const m of members) {
      const name = Buffer.from(m.name, 'ascii');
      const { size } = await stat(m.file);
      const crc = await crcOf(m.file);
      const w: Written = { name, crc, size, offset };
      await put(localHeader(w, opts.forceZip64 === true || size >= MAX32));
      offset += await copyInto(fh, m.file, size);
      written.push(w);
    }
    const cdStart = offset;
    for (const w of written) await put(centralHeader(w, opts.forceZip64 === true));
    await put(endRecords(written.length, cdStart, offset - cdStart, opts.forceZip64 === true));
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function crcOf(file: string): Promise<number> {
  let crc = 0;
  for await (const chunk of createReadStream(file)) crc = crc32(chunk as Buffer, crc);
  return crc;
}

async function copyInto(fh: FileHandle, file: string, expected: number): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(file)) {
    await fh.write(chunk as Buffer);
    n += (chunk as Buffer).length;
  }
  if (n !== expected) throw new Error(`${file} changed size while being zipped`);
  return n;
}

/** §4.3.7 local file header; with ZIP64 both sizes go to the extra field (§4.5.3). */
function localHeader(w: Written, zip64: boolean): Buffer {
  const extra = zip64 ? zip64Extra([w.size, w.size]) : Buffer.alloc(0);
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_STORED, 4);
  h.writeUInt16LE(0, 6); // flags: no data descriptor, ASCII names
  h.writeUInt16LE(0, 8); // method 0: stored
  h.writeUInt16LE(0, 10); // time 00:00:00
  h.writeUInt16LE(DOS_DATE_1980_01_01, 12);
  h.writeUInt32LE(w.crc >>> 0, 14);
  h.writeUInt32LE(zip64 ? MAX32 : w.size, 18);
  h.writeUInt32LE(zip64 ? MAX32 : w.size, 22);
  h.writeUInt16LE(w.name.length, 26);
  h.writeUInt16LE(extra.length, 28);
  return Buffer.concat([h, w.name, extra]);
}

/** §4.3.12 central directory header; the ZIP64 extra holds only the fields that overflowed. */
function centralHeader(w: Written, force: boolean): Buffer {
  const bigSize = force || w.size >= MAX32;
  const bigOffset = force || w.offset >= MAX32;
  const extra = zip64Extra([
    ...(bigSize ? [w.size, w.size] : []),
    ...(bigOffset ? [w.offset] : []),
  ]);
  const zip64 = bigSize || bigOffset;
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(MADE_BY_UNIX | VERSION_ZIP64, 4);
  h.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_STORED, 6);
  h.writeUInt16LE(0, 8);
  h.writeUInt16LE(0, 10);
  h.writeUInt16LE(0, 12);
  h.writeUInt16LE(DOS_DATE_1980_01_01, 14);
  h.writeUInt32LE(w.crc >>> 0, 16);
  h.writeUInt32LE(bigSize ? MAX32 : w.size, 20);
  h.writeUInt32LE(bigSize ? MAX32 : w.size, 24);
  h.writeUInt16LE(w.name.length, 28);
  h.writeUInt16LE(extra.length, 30);
  h.writeUInt16LE(0, 32); // comment length
  h.writeUInt16LE(0, 34); // disk number start
  h.writeUInt16LE(0, 36); // internal attributes
  h.writeUInt32LE((FILE_MODE << 16) >>> 0, 38); // external attributes: Unix mode in the high half
  h.writeUInt32LE(bigOffset ? MAX32 : w.offset, 42);
  return Buffer.concat([h, w.name, extra]);
}

/** §4.5.3: header ID 0x0001, then the 8-byte values in the order the spec fixes. */
function zip64Extra(values: readonly number[]): Buffer {
  if (values.length === 0) return Buffer.alloc(0);
  const b = Buffer.alloc(4 + 8 * values.length);
  b.writeUInt16LE(0x0001, 0);
  b.writeUInt16LE(8 * values.length, 2);
  values.forEach((v, i) => b.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
  return b;
}

/** §4.3.16 end of central directory, preceded when needed by the ZIP64 record and locator (§4.3.14–15). */
function endRecords(count: number, cdStart: number, cdSize: number, force: boolean): Buffer {
  const zip64 = force || count >= MAX16 || cdStart >= MAX32 || cdSize >= MAX32;
  const parts: Buffer[] = [];
  if (zip64) {
    const rec = Buffer.alloc(56);
    rec.writeUInt32LE(0x06064b50, 0);
    rec.writeBigUInt64LE(44n, 4); // size of the remaining record
    rec.writeUInt16LE(MADE_BY_UNIX | VERSION_ZIP64, 12);
    rec.writeUInt16LE(VERSION_ZIP64, 14);
    rec.writeUInt32LE(0, 16); // this disk
    rec.writeUInt32LE(0, 20); // disk with the central directory
    rec.writeBigUInt64LE(BigInt(count), 24);
    rec.writeBigUInt64LE(BigInt(count), 32);
    rec.writeBigUInt64LE(BigInt(cdSize), 40);
    rec.writeBigUInt64LE(BigInt(cdStart), 48);
    const loc = Buffer.alloc(20);
    loc.writeUInt32LE(0x07064b50, 0);
    loc.writeUInt32LE(0, 4);
    loc.writeBigUInt64LE(BigInt(cdStart + cdSize), 8); // where the ZIP64 record starts
    loc.writeUInt32LE(1, 16); // total disks
    parts.push(rec, loc);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(zip64 ? MAX16 : count, 8);
  end.writeUInt16LE(zip64 ? MAX16 : count, 10);
  end.writeUInt32LE(zip64 ? MAX32 : cdSize, 12);
  end.writeUInt32LE(zip64 ? MAX32 : cdStart, 16);
  end.writeUInt16LE(0, 20); // comment length
  parts.push(end);
  return Buffer.concat(parts);
}
