// The file-system side of the BagIt validator: a bag as a directory on disk. The validator
// (validate.ts) is pure and sees the bag only through the BagSource port implemented here.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readFile, readdir } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { BagEntry, BagSource, HashAlgorithm } from './source.js';

/** Whole-file reads are for tag files; anything bigger is refused rather than loaded. */
export const MAX_TAG_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A BagSource over the directory `dir`. Symbolic links are listed as 'other' and never followed,
 * so a link cannot pull a file from outside the bag into the validation.
 *
 * @example
 *   const result = await validateBag(await openBagDir('exports/case-12'));
 */
export async function openBagDir(dir: string): Promise<BagSource> {
  const root = resolve(dir);
  const info = await lstat(root);
  if (!info.isDirectory()) throw new Error(`${dir} is not a directory`);
  const inside = (path: string): string => {
    const full = resolve(root, path);
    if (!full.startsWith(root + sep)) throw new Error(`path ${JSON.stringify(path)} leaves the bag`);
    return full;
  };
  const regularFile = async (path: string): Promise<string | undefined> => {
    const full = inside(path);
    const st = await lstat(full).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return undefined;
      throw e;
    });
    return st?.isFile() ? full : undefined;
  };
  return {
    location: root,
    list: () => walk(root, ''),
    async read(path) {
      const full = await regularFile(path);
      if (full === undefined) return undefined;
      const { size } = await lstat(full);
      if (size > MAX_TAG_FILE_BYTES) throw new Error(`${path} is larger than ${MAX_TAG_FILE_BYTES} bytes`);
      return readFile(full);
    },
    async digest(path, algorithms) {
      const full = await regularFile(path);
      return full === undefined ? undefined : digestStream(createReadStream(full), algorithms);
    },
    close: () => Promise.resolve(),
  };
}

/** Lowercase hex digests of a byte stream, every algorithm in one pass. */
export async function digestStream(
  stream: AsyncIterable<Buffer | string>,
  algorithms: readonly HashAlgorithm[],
): Promise<Map<HashAlgorithm, string>> {
  const hashes = algorithms.map((a) => [a, createHash(a)] as const);
  for await (const chunk of stream) for (const [, h] of hashes) h.update(chunk);
  return new Map(hashes.map(([a, h]) => [a, h.digest('hex')]));
}

async function walk(root: string, prefix: string): Promise<BagEntry[]> {
  const out: BagEntry[] = [];
  const dirents = await readdir(join(root, prefix), { withFileTypes: true });
  for (const d of dirents) {
    const path = prefix === '' ? d.name : `${prefix}/${d.name}`;
    if (d.isDirectory()) {
      out.push({ path, size: 0, kind: 'dir' });
      out.push(...(await walk(root, path)));
    } else if (d.isFile()) {
      out.push({ path, size: (await lstat(join(root, path))).size, kind: 'file' });
    } else {
      out.push({ path, size: 0, kind: 'other' });
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
