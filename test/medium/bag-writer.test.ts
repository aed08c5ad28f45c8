// A bag's copy of an object (BagWriter.copyFile): the bytes and digest of its source, with a chunk
// of zeros left as a hole and the size set at the end, as the store keeps them.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BagWriter } from '../../src/reports/export/bag-writer.adapter.js';
import { makeTempDir } from '../support/tmp.js';

const MiB = 1 << 20;

describe('BagWriter.copyFile', () => {
  it('copies a file and a stream with runs of zeros: the same bytes and digest, the zeros as holes where the file system keeps them', async () => {
    const dir = await makeTempDir('bag-writer');
    await mkdir(join(dir, 'archive'));
    const bag = await BagWriter.create(join(dir, 'bag'), join(dir, 'archive'));
    const probe = join(dir, 'probe');
    const fh = await open(probe, 'w');
    await fh.truncate(4 * MiB);
    await fh.close();
    const holes = (await stat(probe)).blocks * 512 < MiB;

    const data = (n: number) => Buffer.concat([Buffer.from([0xa5]), randomBytes(n - 1)]);
    const chunks = [
      data(MiB),
      Buffer.alloc(MiB),
      Buffer.alloc(MiB),
      data(100),
      Buffer.alloc(2 * MiB),
    ];
    const bytes = Buffer.concat(chunks);
    const digest = createHash('sha256').update(bytes).digest('hex');
    const source = join(dir, 'source.raw');
    await writeFile(source, bytes);

    const fromFile = await bag.copyFile('data/from-file.raw', source, null);
    const fromStream = await bag.copyFile(
      'data/from-stream.raw',
      () => Promise.resolve(Readable.from(chunks)),
      digest,
    );
    expect([fromFile, fromStream]).toEqual([digest, digest]);
    for (const name of ['from-file.raw', 'from-stream.raw']) {
      const path = join(bag.dir, 'data', name);
      expect((await readFile(path)).equals(bytes), name).toBe(true);
      // Read back in 1 MiB parts, the file holds data in two of them; the stream's chunks are
      // as given. Written in full, it would take all of its 5 MiB.
      if (holes)
        expect((await stat(path)).blocks * 512, name).toBeLessThanOrEqual(2 * MiB + 64 * 1024);
    }
    if (!holes)
      console.warn('[bag-writer] this file system keeps no holes: sizes on disk not checked');

    // A stream whose bytes are not the digest the ledger names is still refused.
    await expect(
      bag.copyFile(
        'data/wrong.raw',
        () => Promise.resolve(Readable.from([Buffer.alloc(10)])),
        digest,
      ),
    ).rejects.toMatchObject({ code: 'EXPORT_OBJECT_UNREADABLE' });
  });
});
