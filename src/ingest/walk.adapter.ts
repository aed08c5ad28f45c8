import type { Stats } from 'node:fs';
import { lstat, readdir, readlink, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { ProblemCode } from './report.js';

/** A regular file found under one of the roots. Paths are raw bytes: names need not be UTF-8. */
export interface FoundFile {
  kind: 'file';
  rawPath: Buffer;
  relativeRaw: Buffer;
  stats: Stats;
  viaSymlink: boolean;
}

export interface WalkProblem {
  kind: 'problem';
  rawPath: Buffer;
  code: ProblemCode;
  message: string;
}

const SEP = Buffer.from('/');

/**
 * Walks files and folders in a stable order (raw byte order of names). Symbolic links are
 * followed and said so; broken links, loops, and anything that is not a regular file or a
 * folder (FIFOs, sockets, devices: reading them could block or never end) are reported.
 */
export async function* walkRoots(roots: readonly string[]): AsyncGenerator<FoundFile | WalkProblem> {
  for (const root of roots) {
    const abs = Buffer.from(resolve(root));
    const rootName = Buffer.from(basename(resolve(root)));
    yield* walkPath(abs, rootName, new Set(), false, true);
  }
}

async function* walkPath(
  path: Buffer,
  relative: Buffer,
  ancestors: Set<string>,
  viaSymlink: boolean,
  isRoot: boolean,
): AsyncGenerator<FoundFile | WalkProblem> {
  let link: Stats;
  try {
    link = await lstat(path);
  } catch (e) {
    yield problemFromError(path, e);
    return;
  }
  let st = link;
  let throughLink = viaSymlink;
  if (link.isSymbolicLink()) {
    throughLink = true;
    try {
      st = await stat(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const target = await readlink(path).then(String, () => '?');
      if (code === 'ELOOP') {
        yield { kind: 'problem', rawPath: path, code: 'INGEST_SYMLINK_LOOP', message: `symbolic link loop (→ ${target})` };
      } else if (code === 'ENOENT') {
        yield { kind: 'problem', rawPath: path, code: 'INGEST_BROKEN_SYMLINK', message: `broken symbolic link (→ ${target})` };
      } else {
        yield problemFromError(path, e);
      }
      return;
    }
  }
  if (st.isFile()) {
    yield { kind: 'file', rawPath: path, relativeRaw: relative, stats: st, viaSymlink: throughLink };
    return;
  }
  if (!st.isDirectory()) {
    yield { kind: 'problem', rawPath: path, code: 'INGEST_NOT_REGULAR_FILE', message: `not a regular file (${describeType(st)}); not read` };
    return;
  }
  const key = `${st.dev}:${st.ino}`;
  if (ancestors.has(key)) {
    yield { kind: 'problem', rawPath: path, code: 'INGEST_SYMLINK_LOOP', message: 'folder loop through a symbolic link: this folder contains itself' };
    return;
  }
  let names: Buffer[];
  try {
    names = (await readdir(path, { encoding: 'buffer' })).sort((a, b) => Buffer.compare(a, b));
  } catch (e) {
    yield problemFromError(path, e);
    return;
  }
  const inner = new Set(ancestors).add(key);
  for (const name of names) {
    const child = Buffer.concat([path, SEP, name]);
    const childRel = isRoot ? name : Buffer.concat([relative, SEP, name]);
    yield* walkPath(child, childRel, inner, throughLink, false);
  }
}

function problemFromError(path: Buffer, e: unknown): WalkProblem {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { kind: 'problem', rawPath: path, code: 'INGEST_VANISHED', message: 'vanished before it could be read' };
  return { kind: 'problem', rawPath: path, code: 'INGEST_UNREADABLE', message: `unreadable (${code ?? String(e)})` };
}

function describeType(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'unknown type';
}
