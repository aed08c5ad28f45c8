import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TrustedCheckpointInput } from './archive-verify.service.js';

/** A C2SP checkpoint is a few hundred bytes; anything much larger is not one. */
const MAX_CHECKPOINT_BYTES = 64 * 1024;

/**
 * Reads the trusted checkpoints named on the command line: each a file, or a folder whose every
 * regular file is one (a publication folder written by `custody checkpoint --publish`, or
 * CUSTODY_PUBLISH_CHECKPOINTS). Untrusted input: opened without following links or blocking,
 * only regular files, bounded in size; an unreadable one is returned with its error.
 */
export async function readTrustedCheckpoints(names: readonly string[]): Promise<TrustedCheckpointInput[]> {
  const out: TrustedCheckpointInput[] = [];
  for (const name of names) {
    const st = await stat(name).catch(() => null);
    if (st?.isDirectory() === true) {
      const files = (await readdir(name)).filter((n) => !n.startsWith('.') && !n.includes('.tmp-')).sort();
      for (const f of files) out.push(await readOne(join(name, f)));
    } else out.push(await readOne(name));
  }
  return out;
}

async function readOne(name: string): Promise<TrustedCheckpointInput> {
  try {
    const fh = await open(name, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const st = await fh.stat();
      if (!st.isFile()) return { name, text: null, error: 'not a regular file' };
      if (st.size > MAX_CHECKPOINT_BYTES) return { name, text: null, error: `${st.size} bytes: too large for a checkpoint` };
      return { name, text: (await fh.readFile()).toString('utf8'), error: null };
    } finally {
      await fh.close();
    }
  } catch (e) {
    return { name, text: null, error: (e as Error).message };
  }
}
