import { createHash } from 'node:crypto';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { CustodyError } from '../core/errors.js';

export type SourceErrorCode = 'SOURCE_VANISHED' | 'SOURCE_UNREADABLE' | 'SOURCE_NOT_REGULAR';
export class SourceError extends CustodyError<SourceErrorCode> {}

export interface SourceCopy {
  size: number;
  /** The file's size or modification time moved while it was read. */
  changed: boolean;
  /** Up to 4,100 leading bytes, for type sniffing. */
  head: Buffer;
  mtimeMs: number;
}

/** Bytes kept for sniffing: what file-type needs to recognise every format it knows. */
export const SNIFF_BYTES = 4100;

/**
 * Streams a source file through `sink` with one reused buffer (first-touch page faults are
 * expensive here, so no per-file allocation). Records whether the file changed underneath us:
 * the digest we keep is always that of the bytes we stored.
 */
export async function copySource(
  rawPath: Buffer,
  buffer: Buffer,
  sink: (chunk: Buffer) => Promise<void>,
): Promise<SourceCopy> {
  const fh = await openSource(rawPath);
  try {
    const before = await fh.stat();
    if (!before.isFile()) throw new SourceError('SOURCE_NOT_REGULAR', 'not a regular file');
    let pos = 0;
    let head: Buffer | null = null;
    for (;;) {
      const { bytesRead } = await fh.read(buffer, 0, buffer.length, pos).catch((e: unknown) => {
        throw new SourceError('SOURCE_UNREADABLE', `read failed at byte ${pos} (${code(e)})`, { cause: e });
      });
      if (bytesRead === 0) break;
      head ??= Buffer.from(buffer.subarray(0, Math.min(bytesRead, SNIFF_BYTES)));
      await sink(buffer.subarray(0, bytesRead));
      pos += bytesRead;
    }
    const after = await fh.stat();
    const changed = after.size !== pos || before.size !== pos || after.mtimeMs !== before.mtimeMs;
    return { size: pos, changed, head: head ?? Buffer.alloc(0), mtimeMs: before.mtimeMs };
  } finally {
    await fh.close();
  }
}

/** SHA-256 of a source file without storing it (to recognise files already received). */
export async function hashSource(rawPath: Buffer, buffer: Buffer): Promise<string> {
  const h = createHash('sha256');
  await copySource(rawPath, buffer, (chunk) => {
    h.update(chunk);
    return Promise.resolve();
  });
  return h.digest('hex');
}

export async function readSmallFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    throw new SourceError(code(e) === 'ENOENT' ? 'SOURCE_VANISHED' : 'SOURCE_UNREADABLE', `cannot read ${path} (${code(e)})`, { cause: e });
  }
}

async function openSource(rawPath: Buffer): Promise<FileHandle> {
  try {
    return await open(rawPath, 'r');
  } catch (e) {
    if (code(e) === 'ENOENT') throw new SourceError('SOURCE_VANISHED', 'vanished before it could be read', { cause: e });
    throw new SourceError('SOURCE_UNREADABLE', `unreadable (${code(e)})`, { cause: e });
  }
}

function code(e: unknown): string {
  return String((e as NodeJS.ErrnoException).code ?? e);
}
