// Worker threads kept for the life of the process, one set per worker source (the plain
// JavaScript a `new Worker(source, { eval: true })` runs). Starting a thread costs ~50-70 ms of
// CPU here (Node boots a new isolate and its internal modules), and every intake and every
// verification started two, even for a handful of files. A server or a test process that runs
// many of them now starts each kind of thread once.
//
// A thread is lent to one user at a time, with that user's 'message' and 'error' listeners; the
// thread is referenced while lent (the process waits for the answers it is owed) and unreferenced
// while idle (an idle thread never keeps a CLI command's process alive). The user returns it
// only when no answer is outstanding, so the next user never receives a reply meant for another;
// on any other path the user ends it (`end`). A thread that failed or exited is never lent again.
// Only stateless workers belong here: each message must carry everything its answer depends on.
import { Worker } from 'node:worker_threads';

/** Idle threads kept per source: more than the cores would only hold memory. */
const MAX_IDLE = 4;

const idle = new Map<string, Worker[]>();
const dead = new WeakSet<Worker>();
let started = 0;

function start(source: string): Worker {
  const worker = new Worker(source, { eval: true });
  started++;
  const forget = (): void => {
    dead.add(worker);
    const list = idle.get(source);
    const at = list?.indexOf(worker) ?? -1;
    if (list !== undefined && at >= 0) list.splice(at, 1);
  };
  // The keeper's own listeners stay for the thread's life: an 'error' with no listener would
  // be thrown in the main thread, and a thread that failed is not lent again.
  worker.on('error', forget);
  worker.on('exit', forget);
  return worker;
}

/**
 * Lends an idle thread running `source`, or starts one, with the user's listeners on it. Give it
 * back with `giveBack` or `end`.
 */
export function lendThread<T>(source: string, userListeners: UserListeners<T>): Worker {
  const worker = idle.get(source)?.pop() ?? start(source);
  worker.ref();
  worker.on('message', userListeners.message);
  worker.on('error', userListeners.error);
  return worker;
}

/**
 * Takes back a lent thread on which no answer is outstanding: the user's listeners are removed
 * and it waits, unreferenced, for the next user. A failed thread, or one past the idle limit, is
 * ended instead.
 */
export function giveBack<T>(source: string, worker: Worker, userListeners: UserListeners<T>): void {
  worker.off('message', userListeners.message);
  worker.off('error', userListeners.error);
  const list = idle.get(source) ?? [];
  if (dead.has(worker) || list.length >= MAX_IDLE) {
    void end(worker);
    return;
  }
  worker.unref();
  list.push(worker);
  idle.set(source, list);
}

/** Ends a lent thread (an answer may be outstanding, or the user failed): it is not lent again. */
export async function end(worker: Worker): Promise<void> {
  dead.add(worker);
  await worker.terminate();
}

/** A user's listeners on a lent thread: added when it is lent, removed when it is given back. */
export interface UserListeners<T> {
  message: (value: T) => void;
  error: (error: Error) => void;
}

/** How many threads this process has started, of every source (tests). */
export function threadsStarted(): number {
  return started;
}

/** The idle threads kept for `source` (tests). */
export function idleThreads(source: string): number {
  return idle.get(source)?.length ?? 0;
}
