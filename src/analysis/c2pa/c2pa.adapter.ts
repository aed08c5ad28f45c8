import { knowsC2paCarriage, mayHoldC2pa } from './c2pa-presence.js';
import { WasmC2paWorker, type C2paWorkerPort } from './c2pa-worker.adapter.js';
import { C2paError } from './errors.js';
import {
  resultFromManifestStore,
  resultFromReaderError,
  unreadableResult,
  type C2paResult,
} from './c2pa-result.js';

/**
 * Reads and validates an asset's C2PA content credentials with c2pa-rs, the C2PA reference
 * implementation, compiled to WebAssembly (@contentauth/c2pa-wasm), in a worker thread.
 *
 * Hostile input never throws and never hangs: a file the reader refuses, traps on, or spins on
 * for longer than the time limit gives state 'unreadable' with a warning (the thread is ended
 * and a new one serves the next file). Only a fault of the installation (the WASM cannot be
 * loaded) throws, as C2PA_READER_UNAVAILABLE.
 *
 * Offline and trust: nothing is fetched. Remote manifests, OCSP and every other network call
 * are off (a remote manifest gives 'unreadable'). No C2PA trust list is configured, so signers
 * are reported `signingCredential.untrusted`; that code is recorded but does not make the state
 * 'invalid' (policy: TRUST_LIST_CODES in c2pa-result.ts).
 */
export interface C2paReaderOptions {
  /** Per-file limit, worker start-up included (default C2PA_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Larger inputs are not read: 'unreadable' (default C2PA_MAX_BYTES). */
  maxBytes?: number;
  /** Where bytes are read (default: c2pa-rs on a worker thread); tests count the calls. */
  worker?: C2paWorkerPort;
}

/** c2pa-rs reads a 300 MiB file in about 4 s on this project's machines; this is a hang detector. */
export const C2PA_TIMEOUT_MS = 30_000;
/** The reader copies the asset into WASM memory (32-bit: 4 GiB at most) and needs about 4x its size. */
export const C2PA_MAX_BYTES = 512 * 1024 * 1024;
/** WASM memory only grows: after a file this large the thread is replaced to give it back. */
const RECYCLE_ABOVE_BYTES = 64 * 1024 * 1024;

export class C2paReaderAdapter {
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #worker: C2paWorkerPort;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: C2paReaderOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? C2PA_TIMEOUT_MS;
    this.#maxBytes = options.maxBytes ?? C2PA_MAX_BYTES;
    this.#worker = options.worker ?? new WasmC2paWorker();
  }

  /**
   * One file at a time per adapter (the reader is single-threaded anyway); calls queue.
   *
   * @example
   *   const r = await reader.readC2pa(bytes, 'image/jpeg');
   *   r.state // 'valid'; r.codes includes 'claimSignature.validated', 'signingCredential.untrusted'
   */
  readC2pa(
    bytes: Uint8Array,
    mediaType: string,
    options: { timeoutMs?: number } = {},
  ): Promise<C2paResult> {
    const run = this.#queue.then(() =>
      this.#read(bytes, mediaType, options.timeoutMs ?? this.#timeoutMs),
    );
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Ends the worker thread. Safe to call twice; a later read starts a new one. */
  close(): Promise<void> {
    return this.#worker.close();
  }

  async #read(bytes: Uint8Array, mediaType: string, timeoutMs: number): Promise<C2paResult> {
    if (bytes.byteLength > this.#maxBytes) {
      return unreadableResult(
        `${bytes.byteLength} bytes exceed the C2PA reader's limit of ${this.#maxBytes}; not read`,
      );
    }
    // A JPEG, PNG, WebP, GIF or TIFF without any trace of JUMBF, of its format's C2PA carriage or
    // of a provenance reference has no manifest to read: the reader's own answer for it is this
    // one (JumbfNotFound: state none, no warning). Other types always go to the reader.
    if (knowsC2paCarriage(mediaType) && !mayHoldC2pa(bytes, mediaType))
      return { state: 'none', codes: [], activeManifest: null, warnings: [] };
    const outcome = await this.#worker.ask(bytes, mediaType, timeoutMs);
    if (bytes.byteLength > RECYCLE_ABOVE_BYTES) this.#worker.recycle();
    switch (outcome.kind) {
      case 'init-failed':
        this.#worker.recycle();
        throw new C2paError(
          'C2PA_READER_UNAVAILABLE',
          `the C2PA reader could not start: ${outcome.message}`,
        );
      case 'timeout':
        return unreadableResult(
          `the C2PA reader gave no answer within ${timeoutMs} ms; it was stopped`,
        );
      case 'died':
        return unreadableResult(`the C2PA reader stopped on this file (${outcome.message})`);
      case 'store':
        return withFetches(resultFromManifestStore(outcome.json), outcome.fetches);
      case 'error':
        if (outcome.trap) this.#worker.recycle(); // a trapped WASM instance is not to be trusted again
        return withFetches(
          resultFromReaderError(outcome.message, bytes, mediaType),
          outcome.fetches,
        );
    }
  }
}

/** A network call the reader tried (and the worker refused) is worth an examiner's attention. */
function withFetches(result: C2paResult, fetches: string[]): C2paResult {
  if (fetches.length === 0) return result;
  const notes = fetches
    .slice(0, 3)
    .map((url) => `the C2PA reader tried to fetch ${url}; refused (offline)`);
  return { ...result, warnings: [...result.warnings, ...notes] };
}

const shared = new C2paReaderAdapter();

/**
 * readC2pa on a process-wide adapter; end it with closeC2paReader() (tests: afterAll).
 *
 * @example
 *   (await readC2pa(await readFile('C.jpg'), 'image/jpeg')).state // 'valid'
 */
export function readC2pa(bytes: Buffer, mediaType: string): Promise<C2paResult> {
  return shared.readC2pa(bytes, mediaType);
}

export function closeC2paReader(): Promise<void> {
  return shared.close();
}
