// The object store's writer (FsObjectStore.openWriter: ZIP members and other streamed intake): an
// object holds exactly the bytes it was given, under their digest, and a chunk that is all zeros
// is left as a hole, the file's size set at the end.
import { createHash, randomBytes } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FsObjectStore } from '../../src/store/fs-store.adapter.js';
import { makeTempDir } from '../support/tmp.js';

const KiB = 1024;

describe('the object store writer', () => {
  it('stores the bytes it was given, zero chunks as holes, small and large, in the middle and at the end', async () => {
    const root = join(await makeTempDir('object-writer'), 'objects');
    await FsObjectStore.create(root);
    const store = new FsObjectStore(root);
    const probe = join(root, 'probe');
    const fh = await open(probe, 'w');
    await fh.truncate(4 * 1024 * KiB);
    await fh.close();
    const holes = (await stat(probe)).blocks * 512 < 1024 * KiB;

    const zeros = (n: number) => Buffer.alloc(n);
    const data = (n: number) => Buffer.concat([Buffer.from([0x5a]), randomBytes(n - 1)]);
    const layouts: Record<string, Buffer[]> = {
      'zeros between data': [data(10), zeros(512 * KiB), zeros(512 * KiB), data(64 * KiB + 3)],
      'ends in zeros': [data(5 * KiB), zeros(1024 * KiB), zeros(300)],
      'zeros only': [zeros(200 * KiB), zeros(1)],
      'a zero chunk of one byte between data': [data(7), zeros(1), data(9)],
      'a chunk with zeros but for its last byte': [
        Buffer.concat([zeros(256 * KiB), Buffer.from([1])]),
      ],
      empty: [],
    };
    for (const [name, chunks] of Object.entries(layouts)) {
      const bytes = Buffer.concat(chunks);
      const w = await store.openWriter();
      for (const c of chunks) await w.write(c);
      const stored = await w.finish();
      const digest = createHash('sha256').update(bytes).digest('hex');
      expect(stored, name).toEqual({ sha256: digest, size: bytes.length, existed: false });
      const back = await readFile(store.pathOf(digest));
      expect(back.equals(bytes), name).toBe(true);
      if (!holes) continue;
      const allocated = (await stat(store.pathOf(digest))).blocks * 512;
      const nonZero = chunks
        .filter((c) => c.some((b) => b !== 0))
        .reduce((n, c) => n + c.length, 0);
      // What holds data, rounded up to blocks at each edge; none of the zero chunks.
      expect(allocated, `${name}: ${allocated} bytes allocated`).toBeLessThanOrEqual(
        nonZero + 2 * 4 * KiB * chunks.length,
      );
    }
    if (!holes)
      console.warn(
        '[object-store-writer] this file system keeps no holes: sizes on disk not checked',
      );
  });
});
