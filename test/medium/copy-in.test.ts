// Intake's worker-thread copy: the bytes, digest, size and sniffing head it reports, its hash-only
// read of a file already received, and the error codes intake reports for the cases that can be
// made here.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CopyInPool } from '../../src/ingest/copy-in.adapter.js';
import { makeTempDir } from '../support/tmp.js';

describe('CopyInPool', () => {
  const pool = new CopyInPool(2);
  afterAll(() => pool.close());

  it('copies, hashes and reports size, head and no change, for files small and large, in parallel', async () => {
    const dir = await makeTempDir('copy-in');
    const sizes = [0, 1, 4099, 4100, 4101, (1 << 20) + 7, 5 * (1 << 20)];
    const results = await Promise.all(
      sizes.map(async (n, i) => {
        const bytes = randomBytes(n);
        const src = join(dir, `src-${i}`);
        await writeFile(src, bytes);
        const copied = await pool.copy(Buffer.from(src), join(dir, `tmp-${i}`));
        return { bytes, copied, stored: await readFile(join(dir, `tmp-${i}`)) };
      }),
    );
    for (const { bytes, copied, stored } of results) {
      expect(copied.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(copied.size).toBe(bytes.length);
      expect(copied.head.equals(bytes.subarray(0, 4100))).toBe(true);
      expect(copied.changed).toBe(false);
      expect(stored.equals(bytes)).toBe(true);
    }
  });

  it('reads names that are not UTF-8, given as raw bytes', async () => {
    const dir = await makeTempDir('copy-in');
    const raw = Buffer.concat([Buffer.from(join(dir, 'caf')), Buffer.from([0xe9]), Buffer.from('.jpg')]);
    await writeFile(raw, 'latin-1 name');
    const copied = await pool.copy(raw, join(dir, 'tmp'));
    expect(copied.size).toBe(12);
  });

  it('hashes without storing (a file already received): the digest a copy reports, nothing written', async () => {
    const dir = await makeTempDir('copy-in');
    const sizes = [0, 4100, (1 << 20) + 7, 3 * (1 << 20)];
    for (const [i, n] of sizes.entries()) {
      const bytes = randomBytes(n);
      await writeFile(join(dir, `src-${i}`), bytes);
    }
    const before = (await readdir(dir)).sort();
    const digests = await Promise.all(sizes.map((_, i) => pool.hash(Buffer.from(join(dir, `src-${i}`)))));
    expect((await readdir(dir)).sort()).toEqual(before);
    for (const [i, digest] of digests.entries()) {
      const bytes = await readFile(join(dir, `src-${i}`));
      expect(digest).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect((await pool.copy(Buffer.from(join(dir, `src-${i}`)), join(dir, `tmp-${i}`))).sha256).toBe(digest);
    }
    await expect(pool.hash(Buffer.from(join(dir, 'gone')))).rejects.toMatchObject({ code: 'SOURCE_VANISHED' });
    await mkdir(join(dir, 'folder'));
    await expect(pool.hash(Buffer.from(join(dir, 'folder')))).rejects.toMatchObject({ code: 'SOURCE_NOT_REGULAR' });
  });

  it('flags a file whose size moved while it was read (a /proc file: stat says 0 bytes, the read gives more)', async () => {
    const dir = await makeTempDir('copy-in');
    const copied = await pool.copy(Buffer.from('/proc/self/status'), join(dir, 'tmp'));
    expect(copied.size).toBeGreaterThan(0);
    expect(copied.changed).toBe(true);
    // The digest is that of the bytes stored.
    const stored = await readFile(join(dir, 'tmp'));
    expect(stored.length).toBe(copied.size);
    expect(copied.sha256).toBe(createHash('sha256').update(stored).digest('hex'));
  });

  it('says vanished, not regular, or store failure, with the codes intake reports', async () => {
    const dir = await makeTempDir('copy-in');
    await expect(pool.copy(Buffer.from(join(dir, 'gone')), join(dir, 't1'))).rejects.toMatchObject({ code: 'SOURCE_VANISHED' });
    await mkdir(join(dir, 'folder'));
    await expect(pool.copy(Buffer.from(join(dir, 'folder')), join(dir, 't2'))).rejects.toMatchObject({ code: 'SOURCE_NOT_REGULAR' });
    await writeFile(join(dir, 'src'), 'x');
    await writeFile(join(dir, 'taken'), 'already here');
    await expect(pool.copy(Buffer.from(join(dir, 'src')), join(dir, 'taken'))).rejects.toMatchObject({ code: 'STORE_WRITE_FAILED' });
    expect(await readFile(join(dir, 'taken'), 'utf8')).toBe('already here'); // never overwritten
  });

  it('stores a read of 1 MiB of zeros as a hole, and ends a file that ends in zeros at its size: the same bytes and digest', async () => {
    const dir = await makeTempDir('copy-in');
    const MiB = 1 << 20;
    const piece = (n: number) =>
      Buffer.concat([Buffer.from([0xff]), randomBytes(n - 2), Buffer.from([0xff])]);
    const layouts: Record<string, Buffer[]> = {
      // data, three empty MiB, data across a MiB boundary, then zeros to the end (a trailing hole)
      mixed: [piece(100), Buffer.alloc(3 * MiB - 100 + 40), piece(MiB), Buffer.alloc(2 * MiB + 5)],
      // zeros only, not a whole number of reads
      zeros: [Buffer.alloc(2 * MiB + 5)],
      // a zero MiB between two reads with data: nothing lost at either edge
      gap: [piece(MiB), Buffer.alloc(MiB), piece(MiB)],
      // zeros with one byte set at the very end
      last: [Buffer.alloc(2 * MiB), Buffer.from([1])],
    };
    // Whether this file system keeps holes (tmpfs, ext4, xfs do): a 4 MiB file made by truncate.
    const probe = join(dir, 'probe');
    const fh = await open(probe, 'w');
    await fh.truncate(4 * MiB);
    await fh.close();
    const holes = (await stat(probe)).blocks * 512 < MiB;
    for (const [name, parts] of Object.entries(layouts)) {
      const bytes = Buffer.concat(parts);
      const src = join(dir, `src-${name}`);
      await writeFile(src, bytes);
      const copied = await pool.copy(Buffer.from(src), join(dir, `tmp-${name}`));
      const stored = join(dir, `tmp-${name}`);
      expect(copied.sha256, name).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(copied.size, name).toBe(bytes.length);
      const back = await readFile(stored);
      expect(back.length, name).toBe(bytes.length);
      expect(back.equals(bytes), name).toBe(true);
      if (!holes) continue;
      // Only the reads that hold a byte other than zero take room.
      let withData = 0;
      for (let at = 0; at < bytes.length; at += MiB)
        if (bytes.subarray(at, at + MiB).some((b) => b !== 0)) withData++;
      const used = (await stat(stored)).blocks * 512;
      expect(used, `${name}: ${used} bytes allocated`).toBeLessThanOrEqual(
        withData * MiB + 64 * 1024,
      );
      expect(used, name).toBeLessThan(bytes.length);
    }
    if (!holes)
      console.warn('[copy-in] this file system keeps no holes: the sizes on disk were not checked');
  });
});
