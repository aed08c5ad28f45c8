import { CustodyError } from '../core/index.js';

export type DemoErrorCode =
  /** An option of planCollection is out of range or malformed. */
  | 'DEMO_BAD_OPTION'
  /** A plan handed to writeCollection is inconsistent (path escapes the folder, forward duplicate). */
  | 'DEMO_BAD_PLAN';

export class DemoError extends CustodyError<DemoErrorCode> {}
