// The public surface of analysis/c2pa: C2PA content credentials read and validated offline
// (c2pa-rs as WebAssembly, in a worker thread), reduced to a state and the C2PA status codes.
export {
  readC2pa,
  closeC2paReader,
  C2paReaderAdapter,
  C2PA_TIMEOUT_MS,
  C2PA_MAX_BYTES,
} from './c2pa.adapter.js';
export type { C2paReaderOptions } from './c2pa.adapter.js';
export { WasmC2paWorker } from './c2pa-worker.adapter.js';
export type { C2paWorkerPort, C2paWorkerOutcome } from './c2pa-worker.adapter.js';
export { TRUST_LIST_CODES, findC2paBoxMarker } from './c2pa-result.js';
export type { C2paResult, C2paState, C2paActiveManifest } from './c2pa-result.js';
export { C2paError, type C2paErrorCode } from './errors.js';
