// copySource against a real file system: a file that changes while it is read is flagged, and
// what intake records is always the digest of the bytes it actually handed to the store.
import { createHash } from 'node:crypto';
import { appendFile, open, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copySource, hashSource, SourceError } from '../../src/ingest/source-reader.adapter.js';
import { seededBytes, seededRandom } from '../support/seeded-bytes.js';
import { makeTempDir } from '../support/tmp.js';

const CHUNK = 64 * 1024;

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A sink like the store's writer: hashes each chunk as it comes, keeps a copy to compare. */
function recordingSink(onChunk: (index: number) => Promise<void>) {
  const hash = createHash('sha256');
  const copies: Buffer[] = [];
  let digest: string | null = null;
  return {
    sink: async (chunk: Buffer): Promise<void> => {
      hash.update(chunk);
      copies.push(Buffer.from(chunk)); // the reader reuses its buffer: copy, as a store must
      await onChunk(copies.length - 1);
    },
    digest: () => (digest ??= hash.digest('hex')),
    bytes: () => Buffer.concat(copies),
  };
}

/** A file of `size` bytes whose mtime lies in the past, so any write moves it (coarse kernel clocks). */
async function oldFile(
  dir: string,
  name: string,
  size: number,
): Promise<{ path: string; bytes: Buffer }> {
  const path = join(dir, name);
  const bytes = seededBytes(seededRandom(size), size);
  await writeFile(path, bytes);
  const past = new Date(Date.now() - 3_600_000);
  await utimes(path, past, past);
  return { path, bytes };
}

describe('copySource on a file that changes while it is read', () => {
  it('flags a file that grows during the read; the digest is that of the bytes passed on', async () => {
    const dir = await makeTempDir('source-reader');
    const { path, bytes: original } = await oldFile(dir, 'growing.bin', 3 * CHUNK + 123);
    const added = Buffer.from('appended while the first chunk was being stored\n'.repeat(100));
    const rec = recordingSink(async (i) => {
      if (i === 0) await appendFile(path, added);
    });

    const copy = await copySource(Buffer.from(path), Buffer.allocUnsafe(CHUNK), rec.sink);

    expect(copy.changed).toBe(true);
    const passed = rec.bytes();
    expect(copy.size).toBe(passed.length);
    expect(rec.digest()).toBe(sha256(passed));
    // The reader went on to the end of the grown file: what was passed on is the file as it now is.
    expect(passed.equals(Buffer.concat([original, added]))).toBe(true);
    expect(rec.digest()).not.toBe(sha256(original));
    expect(copy.head.equals(original.subarray(0, copy.head.length))).toBe(true);
  });

  it('flags a file rewritten in place (same size, new mtime) and keeps the digest of what was read', async () => {
    const dir = await makeTempDir('source-reader');
    const { path, bytes: original } = await oldFile(dir, 'rewritten.bin', 4 * CHUNK);
    const patch = Buffer.alloc(CHUNK, 0xee);
    const rec = recordingSink(async (i) => {
      if (i !== 0) return;
      const fh = await open(path, 'r+');
      try {
        await fh.write(patch, 0, patch.length, 2 * CHUNK); // a part not read yet
      } finally {
        await fh.close();
      }
    });

    const copy = await copySource(Buffer.from(path), Buffer.allocUnsafe(CHUNK), rec.sink);

    expect(copy.changed).toBe(true);
    expect(copy.size).toBe(original.length);
    const passed = rec.bytes();
    expect(rec.digest()).toBe(sha256(passed));
    expect(passed.equals(await readFile(path))).toBe(true);
    expect(passed.equals(original)).toBe(false);
  });

  it('does not flag a file left alone', async () => {
    const dir = await makeTempDir('source-reader');
    const { path, bytes } = await oldFile(dir, 'still.bin', 2 * CHUNK + 1);
    const rec = recordingSink(() => Promise.resolve());
    const copy = await copySource(Buffer.from(path), Buffer.allocUnsafe(CHUNK), rec.sink);
    expect(copy.changed).toBe(false);
    expect(rec.digest()).toBe(sha256(bytes));
    expect(await hashSource(Buffer.from(path), Buffer.allocUnsafe(CHUNK))).toBe(sha256(bytes));
  });

  it('throws SOURCE_VANISHED for a path that is gone', async () => {
    const dir = await makeTempDir('source-reader');
    const missing = Buffer.from(join(dir, 'not-there.bin'));
    const error = await copySource(missing, Buffer.allocUnsafe(CHUNK), () =>
      Promise.resolve(),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).code).toBe('SOURCE_VANISHED');
  });
});
