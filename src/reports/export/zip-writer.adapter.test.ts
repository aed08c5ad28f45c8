import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStoredZip, type ZipMember } from './zip-writer.adapter.js';

interface ReadMember {
  name: string;
  bytes: Buffer;
  crc: number;
  method: number;
}

/** Every member through yauzl (a strict reader that checks sizes; CRC checked here). */
function readZip(path: string): Promise<ReadMember[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      path,
      { lazyEntries: true, strictFileNames: true, validateEntrySizes: true },
      (err, zip) => {
        if (err !== null) return reject(err);
        const out: ReadMember[] = [];
        zip.on('entry', (e: yauzl.Entry) => {
          zip.openReadStream(e, (err2, stream) => {
            if (err2 !== null) return reject(err2);
            const chunks: Buffer[] = [];
            stream.on('data', (c: Buffer) => chunks.push(c));
            stream.on('end', () => {
              out.push({
                name: e.fileName,
                bytes: Buffer.concat(chunks),
                crc: e.crc32,
                method: e.compressionMethod,
              });
              zip.readEntry();
            });
          });
        });
        zip.on('end', () => resolve(out));
        zip.on('error', reject);
        zip.readEntry();
      },
    );
  });
}

describe('writeStoredZip', () => {
  let dir: string;
  let members: ZipMember[];
  const contents = new Map<string, Buffer>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'custody-zip-'));
    await mkdir(join(dir, 'in'));
    contents.set('bag/bagit.txt', Buffer.from('BagIt-Version: 1.0\n'));
    contents.set('bag/data/items/empty', Buffer.alloc(0));
    contents.set('bag/data/items/random.bin', randomBytes(300_000));
    members = [...contents.keys()].map((name, i) => ({ name, file: join(dir, 'in', String(i)) }));
    for (const [i, [, bytes]] of [...contents].entries())
      await writeFile(join(dir, 'in', String(i)), bytes);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('stores every member bit for bit with its CRC-32, in the order given', async () => {
    const out = join(dir, 'a.zip');
    await writeStoredZip(out, members);
    const read = await readZip(out);
    expect(read.map((m) => m.name)).toEqual([...contents.keys()]);
    for (const m of read) {
      expect(m.method).toBe(0);
      expect(m.bytes.equals(contents.get(m.name) ?? Buffer.alloc(1))).toBe(true);
      expect(m.crc).toBe(crc32(m.bytes));
    }
  });

  it('is deterministic: the same files give the same bytes', async () => {
    await writeStoredZip(join(dir, 'b1.zip'), members);
    await writeStoredZip(join(dir, 'b2.zip'), members);
    expect((await readFile(join(dir, 'b1.zip'))).equals(await readFile(join(dir, 'b2.zip')))).toBe(
      true,
    );
  });

  it('writes ZIP64 records that yauzl, Python and Info-ZIP accept', async () => {
    const out = join(dir, 'z64.zip');
    await writeStoredZip(out, members, { forceZip64: true });
    const read = await readZip(out);
    expect(read.map((m) => m.bytes.length)).toEqual([...contents.values()].map((b) => b.length));
    const py = execFileSync('python3', [
      '-c',
      'import sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); print(z.testzip()); print(len(z.namelist()))',
      out,
    ]);
    expect(py.toString()).toBe('None\n3\n');
    execFileSync('unzip', ['-tq', out]);
    execFileSync('unzip', ['-tq', join(dir, 'a.zip')]);
  });

  it('refuses to overwrite and refuses non-ASCII names', async () => {
    await expect(writeStoredZip(join(dir, 'a.zip'), members)).rejects.toThrow(/EEXIST/);
    await expect(
      writeStoredZip(join(dir, 'c.zip'), [{ name: 'bag/é', file: members[0]?.file ?? '' }]),
    ).rejects.toThrow(/ASCII/);
  });
});
