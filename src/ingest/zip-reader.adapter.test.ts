import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildZip,
  deflateZeros,
  extendedTimestampExtra,
  hasPython,
  ntfsTimestampExtra,
  unicodePathExtra,
  writePythonZip64,
  type ZipEntrySpec,
} from '../../test/support/make-zips.js';
import { ZipReader, type ZipMemberInfo, type ZipMemberRead } from './zip-reader.adapter.js';

let dir = '';
let counter = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'custody-zip-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeTemp(bytes: Uint8Array): Promise<string> {
  const path = join(dir, `${++counter}.zip`);
  await writeFile(path, bytes);
  return path;
}

async function openZip(
  bytes: Uint8Array,
  limits?: Parameters<typeof ZipReader.open>[1],
): Promise<ZipReader> {
  return ZipReader.open(await writeTemp(bytes), limits);
}

async function listMembers(reader: ZipReader): Promise<ZipMemberInfo[]> {
  const out: ZipMemberInfo[] = [];
  for await (const m of reader.members()) out.push(m);
  return out;
}

async function drain(
  read: ZipMemberRead,
): Promise<{ data: Buffer; bytes: number; crcOk: boolean }> {
  const chunks: Buffer[] = [];
  for await (const chunk of read.stream) chunks.push(chunk as Buffer);
  return { data: Buffer.concat(chunks), ...(await read.done) };
}

async function withReader<T>(
  reader: ZipReader,
  body: (r: ZipReader, members: ZipMemberInfo[]) => T | Promise<T>,
): Promise<T> {
  try {
    return await body(reader, await listMembers(reader));
  } finally {
    await reader.close();
  }
}

function member(members: ZipMemberInfo[], i: number): ZipMemberInfo {
  const m = members[i];
  if (m === undefined) throw new Error(`no member #${i}`);
  return m;
}

const TEXT = Buffer.from(
  Array.from(
    { length: 2000 },
    (_, i) => `line ${i}: witness statement ${(i * 7919) % 1000}\n`,
  ).join(''),
);

describe('ZipReader: well-formed archives', () => {
  it('round-trips stored and deflated members bit for bit, with sizes and CRC', async () => {
    const binary = randomBytes(70_000);
    const zip = buildZip([
      { name: 'docs/', data: Buffer.alloc(0) },
      { name: 'docs/statement.txt', data: TEXT, method: 8 },
      { name: 'photo.raw', data: binary },
      { name: 'empty.txt', data: Buffer.alloc(0), method: 8 },
    ]);
    await withReader(await openZip(zip), async (reader, members) => {
      expect(reader.entryCount).toBe(4);
      expect(reader.isZip64).toBe(false);
      expect(members.map((m) => m.path)).toEqual([
        'docs/',
        'docs/statement.txt',
        'photo.raw',
        'empty.txt',
      ]);
      expect(member(members, 0)).toMatchObject({ isDirectory: true, flags: [], skipReason: null });
      const text = member(members, 1);
      expect(text).toMatchObject({
        index: 1,
        method: 8,
        uncompressedSize: TEXT.length,
        crc32: crc32(TEXT),
        encrypted: false,
        pathEncoding: 'utf8',
        dosTime: '2024-03-15T13:45:30',
        mtimeUtc: null,
      });
      expect(text.compressedSize).toBeLessThan(TEXT.length);
      expect(await drain(await reader.openMember(text))).toEqual({
        data: TEXT,
        bytes: TEXT.length,
        crcOk: true,
      });
      expect(await drain(await reader.openMember(member(members, 2)))).toEqual({
        data: binary,
        bytes: 70_000,
        crcOk: true,
      });
      expect(await drain(await reader.openMember(member(members, 3)))).toEqual({
        data: Buffer.alloc(0),
        bytes: 0,
        crcOk: true,
      });
      // raw: the deflated bytes exactly as stored
      expect((await drain(await reader.openMember(text, { raw: true }))).data).toEqual(
        deflateRawSync(TEXT),
      );
    });
  });

  it('reads the archive comment and an empty archive (just the EOCD)', async () => {
    const zip = buildZip([], { comment: Buffer.from('handed over 2024-03-15') });
    expect(zip.length).toBe(22 + 22);
    await withReader(await openZip(zip), (reader, members) => {
      expect(reader.entryCount).toBe(0);
      expect(members).toEqual([]);
      expect(reader.comment.toString()).toBe('handed over 2024-03-15');
    });
  });

  it('reads times: literal DOS time, extended timestamp (0x5455), NTFS (0x000a), invalid DOS date', async () => {
    const zip = buildZip([
      { name: 'ut.txt', data: Buffer.from('a'), extra: extendedTimestampExtra(1_700_000_000) },
      { name: 'ntfs.txt', data: Buffer.from('b'), extra: ntfsTimestampExtra(1_700_000_000_123) },
      { name: 'zero.txt', data: Buffer.from('c'), dosDate: 0, dosTime: 0 },
      { name: 'feb30.txt', data: Buffer.from('d'), dosDate: ((2023 - 1980) << 9) | (2 << 5) | 30 },
    ]);
    await withReader(await openZip(zip), (_reader, members) => {
      expect(members.map((m) => [m.dosTime, m.mtimeUtc])).toEqual([
        ['2024-03-15T13:45:30', '2023-11-14T22:13:20.000Z'],
        ['2024-03-15T13:45:30', '2023-11-14T22:13:20.123Z'],
        ['', null],
        ['', null],
      ]);
    });
  });

  it('reads a ZIP64 archive built here (0xFFFFFFFF fields, 0x0001 extra, EOCD64 and locator)', async () => {
    const zip = buildZip(
      [
        { name: 'a.txt', data: TEXT, method: 8 },
        { name: 'b.bin', data: Buffer.from('zip64 member') },
      ],
      { zip64: true },
    );
    await withReader(await openZip(zip), async (reader, members) => {
      expect(reader.isZip64).toBe(true);
      expect(members.map((m) => [m.path, m.uncompressedSize, m.flags])).toEqual([
        ['a.txt', TEXT.length, []],
        ['b.bin', 12, []],
      ]);
      expect((await drain(await reader.openMember(member(members, 0)))).data).toEqual(TEXT);
      expect((await drain(await reader.openMember(member(members, 1)))).data.toString()).toBe(
        'zip64 member',
      );
    });
  });

  it.skipIf(!hasPython())(
    'reads a ZIP64 archive written by python zipfile (65,537 entries; skipped when python3 is missing)',
    async () => {
      const path = join(dir, 'python-zip64.zip');
      writePythonZip64(path, 65_537);
      await withReader(await ZipReader.open(path), async (reader, members) => {
        expect(reader.isZip64).toBe(true);
        expect(reader.entryCount).toBe(65_539);
        expect(members).toHaveLength(65_539);
        expect(member(members, 65_538)).toMatchObject({
          path: 'empty/65536',
          dosTime: '2020-01-02T03:04:06',
          flags: [],
        });
        const first = await drain(await reader.openMember(member(members, 0)));
        expect(first.data.toString()).toBe('written by python zipfile\n'.repeat(100));
        const big = await drain(await reader.openMember(member(members, 1)));
        expect(big).toMatchObject({ bytes: 256 * 64, crcOk: true });
        expect(
          big.data.equals(
            Buffer.alloc(256 * 64, Buffer.from(Array.from({ length: 256 }, (_, i) => i))),
          ),
        ).toBe(true);
      });
    },
    60_000,
  );
});

describe('ZipReader: names', () => {
  const ARABIC_1256 = Buffer.from([0xca, 0xde, 0xd1, 0xed, 0xd1, 0x2e, 0x70, 0x64, 0x66]); // تقرير.pdf
  const CP437 = Buffer.from([
    0x4d, 0x81, 0x6c, 0x6c, 0x65, 0x72, 0x2f, 0x47, 0x72, 0x94, 0xe1, 0x65,
  ]); // Müller/Größe

  it('decodes windows-1256, CP437 and flagged UTF-8 names and keeps the exact raw bytes', async () => {
    const zip = buildZip([
      { name: ARABIC_1256, data: Buffer.from('1') },
      { name: CP437, data: Buffer.from('2') },
      { name: 'شهادة-٢٠٢٤.txt', flags: 0x800, data: Buffer.from('3') },
    ]);
    await withReader(await openZip(zip), async (reader, members) => {
      expect(members.map((m) => [m.path, m.pathEncoding, m.flags])).toEqual([
        ['تقرير.pdf', 'windows-1256', ['name-not-utf8']],
        ['Müller/Größe', 'cp437', ['name-not-utf8']],
        ['شهادة-٢٠٢٤.txt', 'utf8', []],
      ]);
      expect(member(members, 0).pathRaw).toEqual(ARABIC_1256);
      expect(member(members, 1).pathRaw).toEqual(CP437);
      expect(member(members, 2).pathRaw).toEqual(Buffer.from('شهادة-٢٠٢٤.txt'));
      expect((await drain(await reader.openMember(member(members, 0)))).data.toString()).toBe('1');
    });
  });

  it('flags hostile names but still reads them', async () => {
    const names = [
      '../../etc/passwd',
      '/abs',
      'C:\\Windows\\win.ini',
      'a\\..\\..\\b',
      'x\0.jpg',
      'dup.txt',
      'dup.txt',
    ];
    const zip = buildZip(names.map((name, i) => ({ name, data: Buffer.from(`content ${i}`) })));
    await withReader(await openZip(zip), async (reader, members) => {
      expect(members.map((m) => [m.path, m.flags])).toEqual([
        ['../../etc/passwd', ['zip-slip-path']],
        ['/abs', ['absolute-path']],
        ['C:\\Windows\\win.ini', ['absolute-path']],
        ['a\\..\\..\\b', ['zip-slip-path']],
        ['x\0.jpg', ['nul-in-name']],
        ['dup.txt', []],
        ['dup.txt', ['duplicate-name']],
      ]);
      for (const m of members) {
        expect(m.skipReason).toBeNull();
        expect((await drain(await reader.openMember(m))).data.toString()).toBe(
          `content ${m.index}`,
        );
      }
    });
  });

  it('uses a valid Unicode Path field (0x7075) for display and flags a directory that carries data', async () => {
    const raw = Buffer.from([0x4d, 0x81, 0x6c, 0x6c, 0x65, 0x72, 0x2e, 0x74, 0x78, 0x74]); // Müller.txt in CP437
    const zip = buildZip([
      { name: raw, data: Buffer.from('m'), extra: unicodePathExtra(raw, 'Müller-✓.txt') },
      { name: 'folder/', data: Buffer.from('hidden inside a directory entry') },
    ]);
    await withReader(await openZip(zip), async (reader, members) => {
      expect(members.map((m) => [m.path, m.pathEncoding, m.isDirectory, m.flags])).toEqual([
        ['Müller-✓.txt', 'utf8', false, ['name-not-utf8', 'unicode-path-field']],
        ['folder/', 'utf8', true, ['directory-with-data']],
      ]);
      expect(member(members, 0).pathRaw).toEqual(raw);
      const hidden = await drain(await reader.openMember(member(members, 1)));
      expect(hidden.data.toString()).toBe('hidden inside a directory entry');
    });
  });

  it('flags a local header whose name differs from the central directory', async () => {
    const zip = buildZip([
      { name: 'innocent.txt', localName: Buffer.from('other.exe'), data: Buffer.from('x') },
    ]);
    await withReader(await openZip(zip), (_reader, members) => {
      expect(member(members, 0).flags).toEqual(['local-name-mismatch']);
    });
  });
});

describe('ZipReader: encrypted and unsupported members', () => {
  it('keeps an encrypted member as its raw, still encrypted bytes', async () => {
    const ciphertext = randomBytes(12 + 500); // 12-byte ZipCrypto header + "data"
    const zip = buildZip([
      {
        name: 'secret.pdf',
        flags: 0x1,
        method: 8,
        compressed: ciphertext,
        uncompressedSize: 4000,
        crc32: 0x12345678,
      },
      { name: 'after.txt', data: Buffer.from('next') },
    ]);
    await withReader(await openZip(zip), async (reader, members) => {
      const secret = member(members, 0);
      expect(secret).toMatchObject({
        encrypted: true,
        flags: ['encrypted'],
        skipReason: null,
        compressedSize: 512,
      });
      expect(await drain(await reader.openMember(secret))).toEqual({
        data: ciphertext,
        bytes: 512,
        crcOk: true,
      });
      expect((await drain(await reader.openMember(member(members, 1)))).data.toString()).toBe(
        'next',
      );
    });
  });

  it('skips an unsupported method, whose raw bytes stay available', async () => {
    const zip = buildZip([
      { name: 'x.bz2', method: 12, compressed: Buffer.from('BZh9...'), uncompressedSize: 100 },
    ]);
    await withReader(await openZip(zip), async (reader, members) => {
      const m = member(members, 0);
      expect(m.flags).toEqual(['unsupported-method']);
      expect(m.skipReason).toMatch(/method 12 \(bzip2\)/);
      await expect(reader.openMember(m)).rejects.toMatchObject({ code: 'ZIP_MEMBER_SKIPPED' });
      expect((await drain(await reader.openMember(m, { raw: true }))).data.toString()).toBe(
        'BZh9...',
      );
    });
  });
});

describe('ZipReader: damaged archives', () => {
  const sample = (): Buffer =>
    buildZip([
      { name: 'a.txt', data: TEXT, method: 8 },
      { name: 'b.txt', data: TEXT.subarray(0, 5000) },
    ]);

  it('refuses a file cut short (last 100 bytes, or in the middle) at open, saying it is truncated', async () => {
    const zip = sample();
    for (const cut of [zip.subarray(0, zip.length - 100), zip.subarray(0, zip.length >> 1)]) {
      const error = await openZip(cut).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({
        code: 'ZIP_TRUNCATED',
        message: expect.stringMatching(/truncated/) as unknown,
      });
    }
  });

  it('refuses a file that is not a ZIP, and an empty file, with ZIP_CORRUPT', async () => {
    await expect(openZip(Buffer.from('%PDF-1.7\n'.repeat(50)))).rejects.toMatchObject({
      code: 'ZIP_CORRUPT',
      message: expect.stringMatching(/not a ZIP archive/) as unknown,
    });
    await expect(openZip(Buffer.alloc(0))).rejects.toMatchObject({ code: 'ZIP_CORRUPT' });
  });

  it('refuses a central directory that declares more entries than it holds', async () => {
    const zip = buildZip([{ name: 'a', data: Buffer.from('a') }], { declaredEntryCount: 3 });
    await expect(openZip(zip)).rejects.toMatchObject({ code: 'ZIP_CORRUPT' });
  });

  it('refuses too many entries at open', async () => {
    const zip = buildZip([1, 2, 3].map((i) => ({ name: `${i}.txt`, data: Buffer.from('x') })));
    await expect(openZip(zip, { maxEntries: 2 })).rejects.toMatchObject({
      code: 'ZIP_TOO_MANY_ENTRIES',
    });
  });

  it('reports a flipped byte in deflated data, and the next member still reads', async () => {
    const zip = buildZip([
      { name: 'a.txt', data: TEXT, method: 8 },
      { name: 'b.txt', data: Buffer.from('intact') },
    ]);
    const dataStart = 30 + 'a.txt'.length;
    zip[dataStart + 200] = (zip[dataStart + 200] ?? 0) ^ 0xff;
    await withReader(await openZip(zip), async (reader, members) => {
      const outcome = await drain(await reader.openMember(member(members, 0))).then(
        (r) => r.crcOk,
        (e: unknown) => (e as { code?: string }).code,
      );
      expect([false, 'ZIP_MEMBER_CORRUPT']).toContain(outcome);
      expect((await drain(await reader.openMember(member(members, 1)))).data.toString()).toBe(
        'intact',
      );
    });
  });

  it('surfaces a deflate error as ZIP_MEMBER_CORRUPT on the stream and on done', async () => {
    const zip = buildZip([
      {
        name: 'bad.txt',
        method: 8,
        compressed: Buffer.from([0xff, 0xff, 0xff, 0xff]),
        uncompressedSize: 10,
      },
      { name: 'good.txt', data: Buffer.from('good') },
    ]);
    await withReader(await openZip(zip), async (reader, members) => {
      const read = await reader.openMember(member(members, 0));
      await expect(drain(read)).rejects.toMatchObject({ code: 'ZIP_MEMBER_CORRUPT' });
      await expect(read.done).rejects.toMatchObject({ code: 'ZIP_MEMBER_CORRUPT' });
      expect((await drain(await reader.openMember(member(members, 1)))).data.toString()).toBe(
        'good',
      );
    });
  });

  it('reports a CRC mismatch on a stored member as crcOk: false, bytes intact', async () => {
    const data = Buffer.from('the bytes as received');
    const zip = buildZip([{ name: 'a.txt', data, crc32: crc32(data) ^ 1 }]);
    await withReader(await openZip(zip), async (reader, members) => {
      expect(await drain(await reader.openMember(member(members, 0)))).toEqual({
        data,
        bytes: data.length,
        crcOk: false,
      });
    });
  });

  it('refuses data longer than the declared size instead of truncating it silently', async () => {
    const zip = buildZip([
      { name: 'deflated.txt', data: TEXT, method: 8, uncompressedSize: 1000 },
      { name: 'stored.txt', data: Buffer.from('0123456789'), uncompressedSize: 4 },
      { name: 'short.txt', data: TEXT, method: 8, uncompressedSize: TEXT.length + 1 },
      { name: 'ok.txt', data: Buffer.from('ok') },
    ]);
    await withReader(await openZip(zip), async (reader, members) => {
      expect(member(members, 1).flags).toEqual(['size-mismatch']);
      for (const i of [0, 1, 2]) {
        await expect(drain(await reader.openMember(member(members, i)))).rejects.toMatchObject({
          code: 'ZIP_MEMBER_CORRUPT',
        });
      }
      expect((await drain(await reader.openMember(member(members, 3)))).data.toString()).toBe('ok');
    });
  });

  it('skips a member whose local header is missing', async () => {
    const zip = buildZip([{ name: 'a.txt', data: Buffer.from('a') }]);
    zip.writeUInt32LE(0x11111111, 0);
    await withReader(await openZip(zip), async (reader, members) => {
      expect(member(members, 0).flags).toEqual(['local-header-invalid']);
      await expect(reader.openMember(member(members, 0))).rejects.toMatchObject({
        code: 'ZIP_MEMBER_CORRUPT',
      });
    });
  });
});

describe('ZipReader: bombs', () => {
  it('skips overlapping entries (two central-directory records on one local header)', async () => {
    const zip = buildZip(
      [
        { name: 'kernel.txt', data: TEXT, method: 8 },
        { name: 'other.txt', data: Buffer.from('o') },
      ],
      {
        aliases: [
          { of: 0, name: 'copy-1.txt' },
          { of: 0, name: 'copy-2.txt' },
        ],
      },
    );
    await withReader(await openZip(zip), async (reader, members) => {
      expect(members.map((m) => [m.path, m.flags])).toEqual([
        ['kernel.txt', []],
        ['other.txt', []],
        ['copy-1.txt', ['local-name-mismatch', 'overlapping-entry']],
        ['copy-2.txt', ['local-name-mismatch', 'overlapping-entry']],
      ]);
      expect(member(members, 2).skipReason).toMatch(/overlaps that of member #0/);
      await expect(reader.openMember(member(members, 2))).rejects.toMatchObject({
        code: 'ZIP_MEMBER_SKIPPED',
      });
      expect((await drain(await reader.openMember(member(members, 0)))).data).toEqual(TEXT);
    });
  });

  it('skips a 200 MiB ratio bomb on its declared sizes, without inflating it', async () => {
    const size = 200 * 1024 ** 2;
    const { compressed, crc } = await deflateZeros(size);
    const zip = buildZip([
      { name: 'zeros.bin', method: 8, compressed, crc32: crc, uncompressedSize: size },
      { name: 'note.txt', data: Buffer.from('fine') },
    ]);
    const path = await writeTemp(zip);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    await withReader(await ZipReader.open(path), async (reader, members) => {
      const bomb = member(members, 0);
      expect(bomb.flags).toEqual(['bomb-ratio']);
      expect(bomb.skipReason).toMatch(/ratio \d+:1.*limit of 200:1/);
      await expect(reader.openMember(bomb)).rejects.toMatchObject({ code: 'ZIP_MEMBER_SKIPPED' });
      expect((await drain(await reader.openMember(member(members, 1)))).data.toString()).toBe(
        'fine',
      );
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(32 * 1024 ** 2);
  }, 30_000);

  it('stops inflating at the declared size when a bomb lies about it', async () => {
    const { compressed, crc } = await deflateZeros(100 * 1024 ** 2);
    const zip = buildZip([
      { name: 'liar.bin', method: 8, compressed, crc32: crc, uncompressedSize: 1024 ** 2 },
    ]);
    await withReader(await openZip(zip), async (reader, members) => {
      expect(member(members, 0).flags).toEqual([]);
      const started = performance.now();
      const read = await reader.openMember(member(members, 0));
      await expect(drain(read)).rejects.toMatchObject({
        code: 'ZIP_MEMBER_CORRUPT',
        message: expect.stringMatching(/more data than the declared 1048576 bytes/) as unknown,
      });
      expect(performance.now() - started).toBeLessThan(500);
    });
  }, 30_000);

  it('skips members over the per-member and total limits', async () => {
    const entries: ZipEntrySpec[] = [1, 2, 3, 4].map((i) => ({
      name: `${i}.bin`,
      data: Buffer.alloc(i * 1000, i),
    }));
    const zip = buildZip(entries);
    const limits = { maxMemberUncompressed: 3500, maxTotalUncompressed: 4500 };
    await withReader(await openZip(zip, limits), async (reader, members) => {
      expect(members.map((m) => [m.flags, m.skipReason === null])).toEqual([
        [[], true],
        [[], true],
        [['bomb-total-size'], false],
        [['bomb-member-size'], false],
      ]);
      await expect(reader.openMember(member(members, 2))).rejects.toMatchObject({
        code: 'ZIP_MEMBER_SKIPPED',
      });
    });
  });

  it('refuses nonsense limits', async () => {
    await expect(openZip(buildZip([]), { maxRatio: Number.NaN })).rejects.toMatchObject({
      code: 'ZIP_BAD_ARGUMENT',
    });
  });
});

describe('ZipReader: lifecycle', () => {
  it('refuses members after close and members of another archive', async () => {
    const a = await openZip(buildZip([{ name: 'a', data: Buffer.from('a') }]));
    const b = await openZip(buildZip([{ name: 'b', data: Buffer.from('b') }]));
    const [ma] = await listMembers(a);
    if (ma === undefined) throw new Error('no member');
    await expect(b.openMember(ma)).rejects.toMatchObject({ code: 'ZIP_BAD_ARGUMENT' });
    await b.close();
    await a.close();
    await expect(a.openMember(ma)).rejects.toMatchObject({ code: 'ZIP_CLOSED' });
  });

  it('rejects done with ZIP_MEMBER_ABORTED when the consumer destroys the stream', async () => {
    await withReader(
      await openZip(buildZip([{ name: 'a', data: TEXT, method: 8 }])),
      async (reader, members) => {
        const read = await reader.openMember(member(members, 0));
        read.stream.destroy();
        await expect(read.done).rejects.toMatchObject({ code: 'ZIP_MEMBER_ABORTED' });
      },
    );
  });

  it('reports a missing file as ZIP_UNREADABLE', async () => {
    await expect(ZipReader.open(join(dir, 'missing.zip'))).rejects.toMatchObject({
      code: 'ZIP_UNREADABLE',
    });
  });
});

describe('ZipReader: what extraction would write', () => {
  it('declaredExtractedBytes sums the members to extract (opaque ones at their stored size), not skipped ones or folders', async () => {
    const zip = buildZip([
      { name: 'a.txt', data: TEXT, method: 8 },
      { name: 'folder/' },
      { name: 'sealed.bin', data: Buffer.from('plain'), compressed: randomBytes(40), flags: 0x1 },
      { name: 'odd.bin', data: Buffer.from('x'), method: 12, compressed: randomBytes(10) },
    ]);
    const reader = await openZip(zip);
    await withReader(reader, (r) => {
      expect(r.fileSize).toBe(zip.length);
      expect(r.declaredExtractedBytes()).toBe(TEXT.length + 40); // bzip2 member skipped
    });
  });

  it('refuses to open a FIFO or a link in place of the archive', async () => {
    const { symlink } = await import('node:fs/promises');
    const { spawnSync } = await import('node:child_process');
    const target = await writeTemp(buildZip([{ name: 'a.txt', data: TEXT }]));
    const linked = join(dir, 'linked.zip');
    await symlink(target, linked);
    await expect(ZipReader.open(linked)).rejects.toMatchObject({ code: 'ZIP_UNREADABLE' });
    const fifo = join(dir, 'fifo.zip');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    await expect(ZipReader.open(fifo)).rejects.toMatchObject({ code: 'ZIP_UNREADABLE' });
  });
});
