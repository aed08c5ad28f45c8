// The code of the worker thread that runs c2pa-rs (as @contentauth/c2pa-wasm) on untrusted bytes.
// It is a string for `new Worker(code, { eval: true })`: Node 20 cannot run a .ts worker file,
// and a string works the same from src/ under vitest and from dist/. Kept small on purpose:
// it only hands bytes to the reader and the manifest store JSON (or the error text) back; all
// interpretation is typed code in c2pa-result.ts.
//
// Why a thread at all: the WASM reader runs synchronously; only a thread can be ended if a
// hostile file makes it spin, a WASM trap can leave the instance unusable (the thread is then
// replaced), and WASM memory never shrinks (the thread is replaced after a large file).

/** Data the worker starts with. */
export interface WasmWorkerData {
  /** file: URL of @contentauth/c2pa-wasm's JS glue. */
  glueUrl: string;
  /** Path of its .wasm binary, read from disk (the glue would otherwise fetch it). */
  wasmPath: string;
  /** c2pa-rs settings JSON (docs/settings.md in c2pa-rs). */
  settings: string;
}

/** One read: the worker takes ownership of `bytes` (transferred). */
export interface WasmWorkerRequest {
  bytes: Uint8Array;
  mediaType: string;
}

export type WasmWorkerReply =
  | { kind: 'store'; json: string; fetches: string[] }
  | { kind: 'error'; message: string; trap: boolean; fetches: string[] }
  | { kind: 'init-failed'; message: string };

export const WASM_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');

// Custody reads offline. The settings already forbid remote manifests and OCSP; this makes any
// other attempt (e.g. resolving an identity assertion's DID) fail at once, and records it.
const fetches = [];
globalThis.fetch = (input) => {
  fetches.push(String(input && typeof input === 'object' && 'url' in input ? input.url : input).slice(0, 300));
  return Promise.reject(new TypeError('network access is disabled in the C2PA reader'));
};

const ready = import(workerData.glueUrl).then((glue) => {
  glue.initSync({ module: readFileSync(workerData.wasmPath) });
  return glue;
});
ready.catch(() => undefined);

function describe(e) {
  if (typeof e === 'string') return e;
  if (e instanceof Error) return e.name + ': ' + e.message;
  try { return String(e); } catch { return 'an error that cannot be printed'; }
}

async function read(msg) {
  let glue;
  try { glue = await ready; } catch (e) { return { kind: 'init-failed', message: describe(e) }; }
  fetches.length = 0;
  try {
    const reader = await glue.WasmReader.fromBytes(msg.mediaType, msg.bytes, workerData.settings);
    try {
      return { kind: 'store', json: reader.json(), fetches: fetches.slice() };
    } finally {
      reader.free();
    }
  } catch (e) {
    return { kind: 'error', message: describe(e), trap: e instanceof WebAssembly.RuntimeError, fetches: fetches.slice() };
  }
}

parentPort.on('message', (msg) => {
  read(msg).then(
    (reply) => parentPort.postMessage(reply),
    (e) => parentPort.postMessage({ kind: 'error', message: describe(e), trap: false, fetches: [] }),
  );
});
`;
