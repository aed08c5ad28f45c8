// Intake's worker-thread copy: the bytes, digest, size and sniffing head it reports, its hash-only
// read of a file already received, and the error codes intake reports for the cases that can be
// made here.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
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
});
