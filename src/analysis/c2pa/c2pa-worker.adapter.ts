import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  WASM_WORKER_SOURCE,
  type WasmWorkerData,
  type WasmWorkerReply,
} from './wasm-worker.source.js';

/** What one read on the reader's thread came to. */
export type C2paWorkerOutcome =
  WasmWorkerReply | { kind: 'timeout' } | { kind: 'died'; message: string };

/**
 * The port C2paReaderAdapter hands bytes to: c2pa-rs on a worker thread in production, a counting
 * fake in tests (which asserts that a file without any trace of C2PA never reaches it).
 */
export interface C2paWorkerPort {
  /** One read; never throws (a hang is 'timeout', a crash 'died'). The bytes are copied. */
  ask(bytes: Uint8Array, mediaType: string, timeoutMs: number): Promise<C2paWorkerOutcome>;
  /** Ends the current thread (after a trap, or to give back WASM memory); the next ask starts one. */
  recycle(): void;
  /** Ends the thread. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * c2pa-rs settings (its docs/settings.md). c2pa-rs ignores unknown keys, so a misspelt one would
 * fail silently: the tests check the effects (a remote manifest is not fetched, an untrusted signer
 * is reported as such).
 */
const READER_SETTINGS = JSON.stringify({
  verify: {
    verify_after_reading: true,
    verify_trust: true,
    verify_timestamp_trust: true,
    ocsp_fetch: false,
    remote_manifest_fetch: false,
  },
});

/** c2pa-rs (@contentauth/c2pa-wasm) on one worker thread, started on first use. */
export class WasmC2paWorker implements C2paWorkerPort {
  #worker: Worker | null = null;

  ask(bytes: Uint8Array, mediaType: string, timeoutMs: number): Promise<C2paWorkerOutcome> {
    const worker = this.#spawn();
    return new Promise<C2paWorkerOutcome>((resolve) => {
      const settle = (outcome: C2paWorkerOutcome): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (m: unknown): void => settle(parseReply(m));
      const onError = (e: Error): void => {
        this.#kill(worker);
        settle({ kind: 'died', message: e.message });
      };
      const onExit = (code: number): void =>
        settle({ kind: 'died', message: `thread exited with code ${code}` });
      const timer = setTimeout(() => {
        this.#kill(worker);
        settle({ kind: 'timeout' });
      }, timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      // An exact copy (new buffer; Buffer#slice would share memory), transferred: cloning a view
      // would copy its whole backing buffer, and transferring the caller's would detach it.
      const copy = new Uint8Array(bytes);
      worker.postMessage({ bytes: copy, mediaType }, [copy.buffer]);
    });
  }

  recycle(): void {
    this.#kill();
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (worker !== null) await worker.terminate();
  }

  #spawn(): Worker {
    if (this.#worker !== null) return this.#worker;
    const require = createRequire(import.meta.url);
    const workerData: WasmWorkerData = {
      glueUrl: pathToFileURL(require.resolve('@contentauth/c2pa-wasm')).href,
      wasmPath: require.resolve('@contentauth/c2pa-wasm/c2pa.wasm'),
      settings: READER_SETTINGS,
    };
    const worker = new Worker(WASM_WORKER_SOURCE, { eval: true, workerData });
    worker.unref(); // an idle reader must not keep the process alive; a pending read holds its timer
    worker.on('error', () => undefined); // reported to the pending read, if any; never unhandled
    worker.on('exit', () => {
      if (this.#worker === worker) this.#worker = null;
    });
    this.#worker = worker;
    return worker;
  }

  #kill(worker: Worker | null = this.#worker): void {
    if (worker === null) return;
    if (this.#worker === worker) this.#worker = null;
    void worker.terminate();
  }
}

function parseReply(m: unknown): C2paWorkerOutcome {
  if (typeof m === 'object' && m !== null && 'kind' in m) {
    const r = m as Partial<Record<string, unknown>>;
    const fetches = Array.isArray(r.fetches)
      ? r.fetches.filter((f): f is string => typeof f === 'string')
      : [];
    const message = typeof r.message === 'string' ? r.message : '';
    if (r.kind === 'store' && typeof r.json === 'string')
      return { kind: 'store', json: r.json, fetches };
    if (r.kind === 'error') return { kind: 'error', message, trap: r.trap === true, fetches };
    if (r.kind === 'init-failed') return { kind: 'init-failed', message };
  }
  return { kind: 'died', message: 'the reader thread sent an unexpected message' };
}
