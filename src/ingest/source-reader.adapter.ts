import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { CustodyError } from '../core/index.js';
import { PROC_FD, type IntakeGuard, type RefusalCode } from './intake-guard.adapter.js';

export type SourceErrorCode =
  | 'SOURCE_VANISHED'
  | 'SOURCE_UNREADABLE'
  | 'SOURCE_NOT_REGULAR'
  /** The path no longer names the file the walk saw (a link or another file swapped in). */
  | 'SOURCE_REPLACED'
  | RefusalCode;
export class SourceError extends CustodyError<SourceErrorCode> {}

/**
 * How a source is opened: never through a link in the last component (O_NOFOLLOW), and never
 * blocking (O_NONBLOCK), so a FIFO swapped in after the walk cannot hang intake. Links in
 * folders above do pass O_NOFOLLOW: the descriptor's identity is compared with the walk's.
 */
const SOURCE_OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * A small file named by the operator (a source's manifest), read under the same rules as a
 * delivery: not through a link, not a special file, not the archive's own, not kernel state.
 */
export async function readSmallFile(path: string, guard: IntakeGuard): Promise<Buffer> {
  const fh = await openSource(Buffer.from(path)).catch((e: unknown) => {
    if (e instanceof SourceError && e.code === 'SOURCE_REPLACED')
      throw new SourceError('SOURCE_NOT_REGULAR', `${path} is a symbolic link: name the file itself`);
    throw e;
  });
  try {
    const st = await fh.stat({ bigint: true });
    if (!st.isFile()) throw new SourceError('SOURCE_NOT_REGULAR', `${path} is not a regular file`);
    const refused = await guard.check(st, PROC_FD === null ? path : `${PROC_FD}/${fh.fd}`, PROC_FD !== null);
    if (refused !== null) throw new SourceError(refused.code, `${path}: ${refused.message}`);
    return await fh.readFile();
  } catch (e) {
    if (e instanceof SourceError) throw e;
    throw new SourceError('SOURCE_UNREADABLE', `cannot read ${path} (${code(e)})`, { cause: e });
  } finally {
    await fh.close();
  }
}

async function openSource(rawPath: Buffer): Promise<FileHandle> {
  try {
    return await open(rawPath, SOURCE_OPEN_FLAGS);
  } catch (e) {
    if (code(e) === 'ENOENT') throw new SourceError('SOURCE_VANISHED', 'vanished before it could be read', { cause: e });
    if (code(e) === 'ELOOP') throw replacedError(e);
    throw new SourceError('SOURCE_UNREADABLE', `unreadable (${code(e)})`, { cause: e });
  }
}

function replacedError(cause?: unknown): SourceError {
  return new SourceError(
    'SOURCE_REPLACED',
    'the path no longer names the file the walk found (a link or another file was put in its place); nothing was read',
    cause === undefined ? {} : { cause },
  );
}

function code(e: unknown): string {
  return String((e as NodeJS.ErrnoException).code ?? e);
}
