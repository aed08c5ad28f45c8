import { end, giveBack, lendThread, type UserListeners } from './kept-threads.adapter.js';

export interface FileDigest {
  path: string;
  sha256: string | null;
  size: number;
  /** Permission bits of the file hashed (fstat), or null when it was not. */
  mode: number | null;
  /** Why it was not hashed: an errno code, or NOT_REGULAR (a FIFO, a device, a folder). */
  error: string | null;
}

// The worker is plain JavaScript evaluated from this string so that it runs the same from
// compiled code and from TypeScript sources under test. It reads each file into one reused
// buffer (first-touch page faults are expensive on these machines) and hashes it.
// Every open is bounded: O_NOFOLLOW (a link is refused with ELOOP, never followed to /dev/zero or
// to a copy elsewhere), O_NONBLOCK (a FIFO cannot block the open), and fstat must say "regular
// file" before a byte is read (a device or FIFO is never read).
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { openSync, readSync, closeSync, fstatSync, constants } = require('node:fs');
const { createHash } = require('node:crypto');
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const buf = Buffer.allocUnsafe(4 << 20);
parentPort.on('message', (paths) => {
  const out = [];
  for (const path of paths) {
    let fd = -1;
    try {
      fd = openSync(path, FLAGS);
      const st = fstatSync(fd);
      if (!st.isFile()) {
        out.push({ path, sha256: null, size: 0, mode: null, error: 'NOT_REGULAR' });
        continue;
      }
      const h = createHash('sha256');
      let size = 0;
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, null);
        if (n === 0) break;
        h.update(buf.subarray(0, n));
        size += n;
      }
      out.push({ path, sha256: h.digest('hex'), size, mode: st.mode & 0o7777, error: null });
    } catch (e) {
      out.push({ path, sha256: null, size: 0, mode: null, error: String(e && e.code || e) });
    } finally {
      if (fd >= 0) closeSync(fd);
    }
  }
  parentPort.postMessage(out);
});
`;

/**
 * Hashes files on `threads` worker threads (both cores by default; the process's kept threads,
 * kept-threads.adapter.ts), in batches. Results come back in no particular order.
 */
export async function hashFiles(
  paths: AsyncIterable<string> | Iterable<string>,
  onResult: (d: FileDigest) => void,
  threads = 2,
): Promise<void> {
  const iterator = (Symbol.asyncIterator in paths ? paths[Symbol.asyncIterator]() : toAsync(paths));
  let exhausted = false;
  const nextBatch = async (): Promise<string[]> => {
    const batch: string[] = [];
    while (!exhausted && batch.length < 16) {
      const r = await iterator.next();
      if (r.done === true) exhausted = true;
      else batch.push(r.value);
    }
    return batch;
  };
  // Each thread answers the one batch it was sent before it is sent another.
  const lent = Array.from({ length: threads }, () => {
    const listeners: BatchListeners = {
      answer: null,
      fail: null,
      message: (results: FileDigest[]) => listeners.answer?.(results),
      error: (e: Error) => listeners.fail?.(e),
    };
    return { worker: lendThread(WORKER_SOURCE, listeners), listeners };
  });
  let settled = false;
  try {
    await Promise.all(
      lent.map(async ({ worker, listeners }) => {
        for (;;) {
          const batch = await nextBatch();
          if (batch.length === 0) return;
          const results = await new Promise<FileDigest[]>((resolve, reject) => {
            listeners.answer = resolve;
            listeners.fail = reject;
            worker.postMessage(batch);
          });
          listeners.answer = null;
          listeners.fail = null;
          for (const r of results) onResult(r);
        }
      }),
    );
    settled = true;
  } finally {
    // After a failure another thread may still owe an answer: those threads are ended, not kept.
    if (settled) for (const { worker, listeners } of lent) giveBack(WORKER_SOURCE, worker, listeners);
    else await Promise.all(lent.map(({ worker }) => end(worker)));
  }
}

/** A lent thread's listeners, which hand its answer to the batch awaiting it. */
type BatchListeners = UserListeners<FileDigest[]> & {
  answer: ((r: FileDigest[]) => void) | null;
  fail: ((e: Error) => void) | null;
};

async function* toAsync<T>(it: Iterable<T>): AsyncGenerator<T> {
  for (const x of it) yield await Promise.resolve(x);
}

/** hashFiles, reporting how many files have been hashed so far as `stage` (a verification's progress). */
export function countingHashFiles(
  report: ((stage: string, done: number, total?: number) => void) | undefined,
  stage = 'hashing objects',
): (paths: AsyncIterable<string>, onResult: (d: FileDigest) => void) => Promise<void> {
  if (report === undefined) return (p, cb) => hashFiles(p, cb);
  let n = 0;
  return (p, cb) =>
    hashFiles(p, (d) => {
      report(stage, ++n);
      cb(d);
    });
}
