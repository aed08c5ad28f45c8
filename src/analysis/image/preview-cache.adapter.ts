// The derived previews of an image object: `derived/previews/<ab>/<sha256>.<size>[.blurred].webp`
// in the archive folder, apart from the evidence. Made by `analyze` (256 px) or on first request
// (`preview`, `report --include-images`, `export --blur-images`), and removed with the object's
// bytes by `purge`: a preview of withdrawn content is that content.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, readdir, readFile, unlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { decodeForAnalysis, writePreviews } from './image-decode.adapter.js';
import { previewDir, previewPaths, type PreviewPaths } from './preview-paths.js';

export { previewPaths, type PreviewPaths } from './preview-paths.js';

/** Preview sizes Custody makes (px on the long edge). */
export const PREVIEW_SIZES = [256, 1280] as const;

/**
 * The object's previews of `size`, made now from its stored bytes if either is missing. The one
 * get-or-make for every caller. Throws what the decoder throws on bytes it cannot read.
 */
export async function ensurePreviews(
  archiveDir: string,
  /** The object's bytes, read only when a preview must be made (the store's bounded read). */
  readObject: () => Promise<Buffer>,
  sha256: string,
  size: number,
  orientation: number | null,
): Promise<PreviewPaths> {
  const paths = previewPaths(archiveDir, sha256, size);
  if (!existsSync(paths.plain) || !existsSync(paths.blurred)) {
    const decoded = await decodeForAnalysis(await readObject(), size === 1280 ? 1280 : undefined);
    await writePreviews(decoded.raster, orientation, size, paths);
  }
  return paths;
}

/** A preview file's bytes (a path from ensurePreviews). */
export function readPreview(path: string): Promise<Buffer> {
  return readFile(path);
}

/** A removed preview file: its path relative to the archive folder and its SHA-256 (null: not a regular file). */
export interface RemovedPreview {
  path: string;
  sha256: string | null;
}

/** The object's preview files (every size and variant, and leftovers of interrupted writes). */
export async function listPreviews(archiveDir: string, sha256: string): Promise<string[]> {
  const dir = previewDir(archiveDir, sha256);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names.filter((n) => n.startsWith(`${sha256}.`)).sort().map((n) => join(dir, n));
}

/**
 * Deletes every preview of the object and returns what it removed (relative path and digest), for
 * the deletion entry. A file that vanishes meanwhile is simply not listed.
 */
export async function removePreviews(archiveDir: string, sha256: string): Promise<RemovedPreview[]> {
  const removed: RemovedPreview[] = [];
  for (const path of await listPreviews(archiveDir, sha256)) {
    let sha: string | null = null;
    try {
      // Never follow or read what is not a plain file (a planted link or FIFO): just remove it.
      if ((await lstat(path)).isFile()) sha = createHash('sha256').update(await readFile(path)).digest('hex');
      await unlink(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    removed.push({ path: relative(archiveDir, path), sha256: sha });
  }
  return removed;
}
