// Intake of plain files on worker threads: each worker reads a source file, hashes it, writes it
// to a temporary file in the store and fsyncs that file, all with synchronous calls and one
// reused buffer. SHA-256 is the bulk of intake's CPU; on the main thread it capped intake below
// sha256sum on two cores. The main thread then links the temporary file into place
// (FsObjectStore.adopt), so the write-once rule and the crash points are unchanged. A file a
// resumed delivery already holds is only read and hashed here (`hash`), under the same rules.
// A read of 1 MiB that is all zeros is not written: the temporary file gets a hole there (as
// `cp --sparse=auto` makes), and its size is set at the end, so a disk image that is mostly empty
// is stored without writing gigabytes of zeros. A hole reads back as zeros on every file system
// (POSIX), so the object's bytes, and the SHA-256 that names them and that verify recomputes, are
// those of the source.
import type { Worker } from 'node:worker_threads';
import { StoreError } from '../store/index.js';
import { end, giveBack, lendThread, type UserListeners } from '../store/kept-threads.adapter.js';
import type { Identity } from './intake-guard.adapter.js';
import { SourceError } from './source-reader.adapter.js';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const buf = Buffer.allocUnsafe(${1 << 20});
const zeros = Buffer.alloc(${1 << 20});
function fail(stage, op, e, pos) {
  return { stage, op, code: String((e && e.code) || e), pos };
}
// O_NOFOLLOW: never through a link in the last component; O_NONBLOCK: a FIFO swapped in cannot
// hang the thread. The descriptor must be the very file the walk lstat'd (dev, ino).
const SOURCE_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
parentPort.on('message', ({ id, src, tmp, sniff, dev, ino }) => {
  let sfd = -1, dfd = -1, out;
  try {
    try { sfd = fs.openSync(Buffer.from(src.buffer, src.byteOffset, src.byteLength), SOURCE_FLAGS); }
    catch (e) { out = { id, error: fail('source', e && e.code === 'ELOOP' ? 'replaced' : 'open', e, 0) }; return; }
    const before = fs.fstatSync(sfd, { bigint: true });
    if (dev !== null && (String(before.dev) !== dev || String(before.ino) !== ino)) {
      out = { id, error: { stage: 'source', op: 'replaced', code: 'REPLACED', pos: 0 } }; return;
    }
    if (!before.isFile()) { out = { id, error: { stage: 'source', op: 'type', code: 'NOT_REGULAR', pos: 0 } }; return; }
    // No tmp: hash only (a file already received is recognised by its digest, not stored again).
    if (tmp !== null) {
      try { dfd = fs.openSync(tmp, 'wx', 0o644); }
      catch (e) { out = { id, error: fail('store', 'open', e, 0) }; return; }
    }
    const h = createHash('sha256');
    let pos = 0, head = null, written = 0;
    for (;;) {
      let n;
      try { n = fs.readSync(sfd, buf, 0, buf.length, pos); }
      catch (e) { out = { id, error: fail('source', 'read', e, pos) }; return; }
      if (n === 0) break;
      if (head === null) head = Buffer.from(buf.subarray(0, Math.min(n, sniff)));
      h.update(buf.subarray(0, n));
      let off = 0;
      if (dfd >= 0 && buf.compare(zeros, 0, n, 0, n) !== 0) {
        try { while (off < n) off += fs.writeSync(dfd, buf, off, n - off, pos + off); }
        catch (e) { out = { id, error: fail('store', 'write', e, pos) }; return; }
        written = pos + n;
      }
      pos += n;
    }
    if (dfd >= 0 && written < pos) {
      // The file ends in zeros that were not written: its size, with a hole to the end.
      try { fs.ftruncateSync(dfd, pos); }
      catch (e) { out = { id, error: fail('store', 'write', e, pos) }; return; }
    }
    if (dfd >= 0) {
      try { fs.fsyncSync(dfd); }
      catch (e) { out = { id, error: fail('store', 'fsync', e, pos) }; return; }
    }
    const after = fs.fstatSync(sfd, { bigint: true });
    const changed = after.size !== BigInt(pos) || before.size !== BigInt(pos) || after.mtimeNs !== before.mtimeNs;
    out = { id, ok: { sha256: h.digest('hex'), size: pos, head: head || Buffer.alloc(0), changed, mtimeMs: Number(before.mtimeMs) } };
  } catch (e) {
    out = { id, error: fail('store', 'unexpected', e, 0) };
  } finally {
    if (sfd >= 0) fs.closeSync(sfd);
    if (dfd >= 0) fs.closeSync(dfd);
    if (out && out.error && dfd >= 0) { try { fs.unlinkSync(tmp); } catch {} }
    parentPort.postMessage(out);
  }
});
`;

/** Bytes kept for sniffing: what file-type needs to recognise every format it knows. */
const SNIFF_BYTES = 4100;

/** What a worker read (and, for `copy`, stored): the digest is always that of those bytes. */
export interface CopiedIn {
  sha256: string;
  size: number;
  /** The file's size or modification time moved while it was read. */
  changed: boolean;
  /** Up to 4,100 leading bytes, for type sniffing. */
  head: Buffer;
  mtimeMs: number;
}

interface WorkerError {
  stage: 'source' | 'store';
  op: string;
  code: string;
  pos: number;
}
type Reply = { id: number; ok: Omit<CopiedIn, 'head'> & { head: Uint8Array } } | { id: number; error: WorkerError };

export class CopyInPool {
  /**
   * Lent on demand, up to `threads`: a one-file delivery uses one thread, not two. The threads
   * are the process's kept ones (store/kept-threads.adapter.ts), started once per process.
   */
  private readonly workers: { worker: Worker; busy: number; listeners: UserListeners<Reply> }[] = [];
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: unknown) => void }>();
  private nextId = 0;

  constructor(private readonly threads = 2) {}

  private slot(): { worker: Worker; busy: number } {
    const idle = this.workers.find((w) => w.busy === 0);
    if (idle !== undefined) return idle;
    if (this.workers.length < this.threads) {
      const listeners: UserListeners<Reply> = {
        message: (r: Reply) => {
          const p = this.pending.get(r.id);
          this.pending.delete(r.id);
          p?.resolve(r);
        },
        error: (e) => {
          for (const p of this.pending.values()) p.reject(e);
          this.pending.clear();
        },
      };
      const worker = lendThread(WORKER_SOURCE, listeners);
      const slot = { worker, busy: 0, listeners };
      this.workers.push(slot);
      return slot;
    }
    return this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
  }

  /**
   * Copies `rawPath` into `tmp` (created, written, fsynced) and says what was copied; refuses
   * (SOURCE_REPLACED) when the path no longer names the file with identity `expected`.
   */
  copy(rawPath: Buffer, tmp: string, expected: Identity | null = null): Promise<CopiedIn> {
    return this.run(rawPath, tmp, expected);
  }

  /**
   * Reads and hashes `rawPath` without storing it (to recognise a file already received), under
   * the same rules: not through a link, only the file the walk found, only a regular file.
   */
  async hash(rawPath: Buffer, expected: Identity | null = null): Promise<string> {
    return (await this.run(rawPath, null, expected)).sha256;
  }

  private async run(rawPath: Buffer, tmp: string | null, expected: Identity | null): Promise<CopiedIn> {
    const slot = this.slot();
    const id = ++this.nextId;
    slot.busy++;
    let reply: Reply;
    try {
      reply = await new Promise<Reply>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        slot.worker.postMessage({
          id,
          src: rawPath,
          tmp,
          sniff: SNIFF_BYTES,
          dev: expected === null ? null : String(expected.dev),
          ino: expected === null ? null : String(expected.ino),
        });
      });
    } finally {
      slot.busy--;
    }
    if ('error' in reply) throw toError(reply.error, tmp ?? '');
    const { head, ...rest } = reply.ok;
    return { ...rest, head: Buffer.from(head.buffer, head.byteOffset, head.byteLength) };
  }

  /**
   * Gives the threads back to the process when no answer is outstanding, and ends them when one
   * is (an intake that stopped with copies in flight).
   */
  async close(): Promise<void> {
    const settled = this.pending.size === 0;
    const workers = this.workers.splice(0);
    if (settled) for (const w of workers) giveBack(WORKER_SOURCE, w.worker, w.listeners);
    else await Promise.all(workers.map((w) => end(w.worker)));
  }
}

/** The errors intake reports for a source (source-reader.adapter) or the store (fs-store.adapter). */
function toError(e: WorkerError, tmp: string): Error {
  if (e.stage === 'source') {
    if (e.op === 'type') return new SourceError('SOURCE_NOT_REGULAR', 'not a regular file');
    if (e.op === 'replaced')
      return new SourceError(
        'SOURCE_REPLACED',
        'the path no longer names the file the walk found (a link or another file was put in its place); nothing was read',
      );
    if (e.op === 'open')
      return e.code === 'ENOENT'
        ? new SourceError('SOURCE_VANISHED', 'vanished before it could be read')
        : new SourceError('SOURCE_UNREADABLE', `unreadable (${e.code})`);
    return new SourceError('SOURCE_UNREADABLE', `read failed at byte ${e.pos} (${e.code})`);
  }
  if (e.code === 'ENOSPC' || e.code === 'EDQUOT')
    return new StoreError('STORE_OUT_OF_SPACE', `the object store is out of space (writing ${tmp})`);
  return new StoreError('STORE_WRITE_FAILED', `could not write to the object store (${tmp}): ${e.code}`);
}
