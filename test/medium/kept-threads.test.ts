// The process's kept worker threads (src/store/kept-threads.adapter.ts): a thread given back is
// lent again rather than a new one started; a thread that failed or was ended is not; no more
// than four idle threads are kept per source; an idle thread does not keep a process alive; and
// the two users, verification's hashing and intake's copy-in, reuse them with correct answers,
// also after a run that stopped with an answer still owed.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { CopyInPool } from '../../src/ingest/copy-in.adapter.js';
import { hashFiles, type FileDigest } from '../../src/store/hash-files.adapter.js';
import { end, giveBack, idleThreads, lendThread, threadsStarted } from '../../src/store/kept-threads.adapter.js';
import { REPO_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

/** Answers each message with [its thread id, the message]; throws on 'boom'. */
const ECHO = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', (m) => { if (m === 'boom') throw new Error('boom'); parentPort.postMessage([threadId, m]); });
`;

/** A lent ECHO thread, given back (or, when it failed, dropped) once it has answered. */
function lend(): { worker: Worker; ask: (message: string) => Promise<[number, string]> } {
  let awaiting: { resolve: (a: [number, string]) => void; reject: (e: Error) => void } | null = null;
  const listeners = {
    message: (answer: [number, string]) => {
      giveBack(ECHO, worker, listeners);
      awaiting?.resolve(answer);
    },
    error: (e: Error) => {
      giveBack(ECHO, worker, listeners);
      awaiting?.reject(e);
    },
  };
  const worker = lendThread(ECHO, listeners);
  return {
    worker,
    ask: (message) =>
      new Promise((resolve, reject) => {
        awaiting = { resolve, reject };
        worker.postMessage(message);
      }),
  };
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('kept worker threads', () => {
  it('lends a thread given back again, and starts another only when none is idle', async () => {
    const [first] = await lend().ask('a');
    expect(idleThreads(ECHO)).toBe(1);
    const [again, echoed] = await lend().ask('b');
    expect(again).toBe(first);
    expect(echoed).toBe('b');
    const [x, y] = await Promise.all([lend().ask('c'), lend().ask('d')]);
    expect(new Set([x[0], y[0]]).size).toBe(2);
    expect(idleThreads(ECHO)).toBe(2);
  });

  it('never lends again a thread that failed or was ended', async () => {
    while (idleThreads(ECHO) > 0) await end(lend().worker);
    const [failed] = await lend().ask('a');
    await expect(lend().ask('boom')).rejects.toThrow('boom');
    expect(idleThreads(ECHO)).toBe(0);
    const [next] = await lend().ask('b');
    expect(next).not.toBe(failed);
    await end(lend().worker);
    expect(idleThreads(ECHO)).toBe(0);
  });

  it('keeps at most four idle threads per source', async () => {
    const lent = Array.from({ length: 6 }, () => lend());
    await Promise.all(lent.map((l, i) => l.ask(String(i))));
    expect(idleThreads(ECHO)).toBe(4);
  });

  it('an idle kept thread does not keep a process alive', async () => {
    const compiled = join(REPO_ROOT, 'dist/src/store/kept-threads.adapter.js');
    expect(existsSync(compiled), `${compiled} is missing: run npm run build first`).toBe(true);
    const script = `
      import { lendThread, giveBack, idleThreads } from ${JSON.stringify(compiled)};
      const source = "require('node:worker_threads').parentPort.on('message', (m) => require('node:worker_threads').parentPort.postMessage(m));";
      const listeners = {
        message: (m) => { giveBack(source, w, listeners); console.log('answer', m, 'idle', idleThreads(source)); },
        error: (e) => { throw e; },
      };
      const w = lendThread(source, listeners);
      w.postMessage(7);
    `;
    // A file, not -e: a worker inherits --input-type=module, under which its CommonJS source fails.
    const file = join(await makeTempDir('kept-threads'), 'lend-and-give-back.mjs');
    await writeFile(file, script);
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    expect(r.signal, 'the process had to be killed: the idle thread kept it alive').toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('answer 7 idle 1');
  });

  it('verification hashing reuses its threads, with right answers after a run that stopped with an answer owed', async () => {
    const dir = await makeTempDir('kept-threads');
    const files = new Map<string, Buffer>();
    for (let i = 0; i < 200; i++) {
      const bytes = randomBytes(1 + ((i * 7919) % 70_000));
      const path = join(dir, `f${i}`);
      await writeFile(path, bytes);
      files.set(path, bytes);
    }
    const hashAll = async (): Promise<FileDigest[]> => {
      const out: FileDigest[] = [];
      await hashFiles(files.keys(), (d) => out.push(d));
      return out;
    };
    const check = (digests: FileDigest[]): void => {
      expect(digests).toHaveLength(files.size);
      expect(new Set(digests.map((d) => d.path)).size, 'every file once').toBe(files.size);
      for (const d of digests) expect(d.sha256, d.path).toBe(sha256(files.get(d.path)!));
    };
    check(await hashAll());
    const before = threadsStarted();
    check(await hashAll());
    expect(threadsStarted(), 'a second run started threads').toBe(before);
    // A consumer that fails on the first answer: the other thread still owes one.
    await expect(
      hashFiles(files.keys(), () => {
        throw new Error('consumer failed');
      }),
    ).rejects.toThrow('consumer failed');
    check(await hashAll());
  });

  it("intake's copy-in reuses its threads from one intake to the next", async () => {
    const dir = await makeTempDir('kept-threads');
    const bytes = randomBytes(100_000);
    await writeFile(join(dir, 'src'), bytes);
    const copyOnce = async (n: number): Promise<string> => {
      const pool = new CopyInPool(2);
      const [a, b] = await Promise.all([
        pool.copy(Buffer.from(join(dir, 'src')), join(dir, `tmp-${n}-a`)),
        pool.hash(Buffer.from(join(dir, 'src'))),
      ]);
      await pool.close();
      expect(b).toBe(a.sha256);
      return a.sha256;
    };
    expect(await copyOnce(1)).toBe(sha256(bytes));
    const before = threadsStarted();
    expect(await copyOnce(2)).toBe(sha256(bytes));
    expect(threadsStarted(), 'a second intake started threads').toBe(before);
  });
});
