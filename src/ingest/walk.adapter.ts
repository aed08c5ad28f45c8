import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, readdir, readlink } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { identityKey, PROC_FD, type Identity, type IntakeGuard } from './intake-guard.adapter.js';
import type { ProblemCode } from './report.js';

/** A regular file found under one of the roots. Paths are raw bytes: names need not be UTF-8. */
export interface FoundFile {
  kind: 'file';
  rawPath: Buffer;
  relativeRaw: Buffer;
  /** What the walk saw (lstat): the read must open this very file, or nothing is read. */
  identity: Identity;
  mtimeMs: number;
}

/** A symbolic link: never followed. Its target is text the delivery holds, kept as such. */
export interface FoundLink {
  kind: 'link';
  rawPath: Buffer;
  relativeRaw: Buffer;
  target: Buffer;
  mtimeMs: number;
}

export interface WalkProblem {
  kind: 'problem';
  rawPath: Buffer;
  code: ProblemCode;
  message: string;
}

export type WalkEvent = FoundFile | FoundLink | WalkProblem;

const SEP = Buffer.from('/');
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

interface Child {
  path: Buffer;
  relative: Buffer;
  st: BigIntStats;
  /** Decided while the parent folder was open; null when intake may go on. */
  problem: WalkProblem | null;
  target: Buffer | null;
}

/**
 * Walks files and folders in a stable order (raw byte order of names), reading only what the
 * delivery holds. Symbolic links are never followed, not even a root named on the command line:
 * each is reported as a link with its target text. Anything that is not a regular file, a folder
 * or a link (FIFOs, sockets, devices: reading them could block or never end), anything on a
 * pseudo file system and anything that belongs to the archive is reported and not read.
 *
 * A folder is opened (O_DIRECTORY | O_NOFOLLOW) and checked against its lstat before its entries
 * are listed and lstat'd through /proc/self/fd/N, so a folder swapped for a link mid-walk cannot
 * lead the walk elsewhere; each file's identity then binds the later read to this very file.
 */
export async function* walkRoots(roots: readonly string[], guard: IntakeGuard): AsyncGenerator<WalkEvent> {
  for (const root of roots) {
    const abs = Buffer.from(resolve(root));
    const rootName = Buffer.from(basename(resolve(root)));
    let child: Child;
    try {
      const st = await lstat(abs, { bigint: true });
      child = { path: abs, relative: rootName, st, problem: await refusal(guard, abs, st), target: null };
      if (child.problem === null && st.isSymbolicLink()) child.target = await readlink(abs, { encoding: 'buffer' });
    } catch (e) {
      yield problemFromError(abs, e);
      continue;
    }
    yield* visit(child, guard, new Set(), true);
  }
}

async function* visit(c: Child, guard: IntakeGuard, ancestors: Set<string>, isRoot: boolean): AsyncGenerator<WalkEvent> {
  if (c.problem !== null) {
    yield c.problem;
    return;
  }
  const mtimeMs = Number(c.st.mtimeMs);
  if (c.st.isSymbolicLink()) {
    yield { kind: 'link', rawPath: c.path, relativeRaw: c.relative, target: c.target ?? Buffer.alloc(0), mtimeMs };
    return;
  }
  if (c.st.isFile()) {
    yield { kind: 'file', rawPath: c.path, relativeRaw: c.relative, identity: { dev: c.st.dev, ino: c.st.ino }, mtimeMs };
    return;
  }
  if (!c.st.isDirectory()) {
    yield { kind: 'problem', rawPath: c.path, code: 'INGEST_NOT_REGULAR_FILE', message: `not a regular file (${describeType(c.st)}); not read` };
    return;
  }
  const key = identityKey(c.st);
  if (ancestors.has(key)) {
    yield { kind: 'problem', rawPath: c.path, code: 'INGEST_SYMLINK_LOOP', message: 'folder loop (a mount inside itself): this folder contains itself; not read again' };
    return;
  }
  let children: Child[];
  try {
    children = await listFolder(c, guard, isRoot);
  } catch (e) {
    yield e instanceof ReplacedError ? replaced(c.path) : problemFromError(c.path, e);
    return;
  }
  const inner = new Set(ancestors).add(key);
  for (const child of children) yield* visit(child, guard, inner, false);
}

class ReplacedError extends Error {}

/** Opens the folder without following a link, checks it is the one lstat saw, then lists it. */
async function listFolder(dir: Child, guard: IntakeGuard, isRoot: boolean): Promise<Child[]> {
  const fh = await open(dir.path, DIR_FLAGS).catch((e: unknown) => {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') throw new ReplacedError();
    throw e;
  });
  try {
    const st = await fh.stat({ bigint: true });
    if (st.dev !== dir.st.dev || st.ino !== dir.st.ino) throw new ReplacedError();
    // Through the open descriptor, where the kernel offers it: no path component can be swapped.
    const base = PROC_FD === null ? dir.path : Buffer.from(`${PROC_FD}/${fh.fd}`);
    const names = (await readdir(base, { encoding: 'buffer' })).sort((a, b) => Buffer.compare(a, b));
    const out: Child[] = [];
    for (const name of names) {
      const path = Buffer.concat([dir.path, SEP, name]);
      const relative = isRoot ? name : Buffer.concat([dir.relative, SEP, name]);
      const probe = Buffer.concat([base, SEP, name]);
      try {
        const cst = await lstat(probe, { bigint: true });
        const problem = await refusal(guard, path, cst, probe);
        const target = problem === null && cst.isSymbolicLink() ? await readlink(probe, { encoding: 'buffer' }) : null;
        out.push({ path, relative, st: cst, problem, target });
      } catch (e) {
        out.push({ path, relative, st: dir.st, problem: problemFromError(path, e), target: null });
      }
    }
    return out;
  } finally {
    await fh.close();
  }
}

async function refusal(guard: IntakeGuard, path: Buffer, st: BigIntStats, probe: Buffer = path): Promise<WalkProblem | null> {
  const r = await guard.check(st, probe);
  return r === null ? null : { kind: 'problem', rawPath: path, code: r.code, message: r.message };
}

function replaced(path: Buffer): WalkProblem {
  return { kind: 'problem', rawPath: path, code: 'INGEST_FILE_REPLACED', message: 'the folder was replaced (by a link or another folder) while it was walked; not read' };
}

function problemFromError(path: Buffer, e: unknown): WalkProblem {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { kind: 'problem', rawPath: path, code: 'INGEST_VANISHED', message: 'vanished before it could be read' };
  return { kind: 'problem', rawPath: path, code: 'INGEST_UNREADABLE', message: `unreadable (${code ?? String(e)})` };
}

function describeType(st: BigIntStats): string {
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'unknown type';
}
