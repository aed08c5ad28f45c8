import { CustodyError } from '../../core/index.js';

export type C2paErrorCode =
  /** The C2PA reader (c2pa-rs as WebAssembly) could not be loaded: an installation fault, not the file's. */
  'C2PA_READER_UNAVAILABLE';

export class C2paError extends CustodyError<C2paErrorCode> {}
