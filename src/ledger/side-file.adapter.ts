import { mkdir, open, rename } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Writes `bytes` to `<archive>/ledger/set-aside/<name>` durably (temp file, fsync, rename,
 * directory fsync), never over an existing file, and returns the path relative to the archive.
 */
export async function keepSideFile(archiveDir: string, name: string, bytes: Buffer): Promise<string> {
  const dir = join(archiveDir, 'ledger', 'set-aside');
  await mkdir(dir, { recursive: true, mode: 0o750 });
  const final = join(dir, name);
  const tmp = `${final}.tmp-${process.pid}`;
  const fh = await open(tmp, 'wx', 0o440);
  try {
    await fh.writeFile(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
  const exists = await open(final, 'r').then(
    async (h) => {
      await h.close();
      return true;
    },
    () => false,
  );
  if (exists) throw new Error(`${final} already exists`);
  await rename(tmp, final);
  const dh = await open(dir, 'r');
  try {
    await dh.sync();
  } finally {
    await dh.close();
  }
  return relative(archiveDir, final);
}
