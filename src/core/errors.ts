/**
 * One base class for every error Custody raises on purpose. Each module declares its own
 * string-literal union of codes (`StoreErrorCode`, `LedgerErrorCode`, ...) and a subclass;
 * callers and tests branch on `code`, never on the message. `cli/` maps codes to exit codes,
 * `http/` to statuses: services never speak either.
 *
 * @example
 *   throw new CustodyError('STORE_DIGEST_MISMATCH', 'object ab12… re-hashes to cd34…');
 */
export class CustodyError<C extends string = string> extends Error {
  readonly code: C;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: C,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
  }
}

export type CoreErrorCode =
  | 'CANONICAL_UNSUPPORTED'
  | 'CANONICAL_INVALID'
  | 'CANONICAL_NOT_CANONICAL'
  | 'MERKLE_BAD_ARGUMENT'
  | 'NOTE_MALFORMED'
  | 'NOTE_NO_VALID_SIGNATURE'
  | 'CHECKPOINT_MALFORMED'
  | 'KEY_MALFORMED'
  | 'HEX_INVALID'
  | 'CSV_INVALID';

export class CoreError extends CustodyError<CoreErrorCode> {}

/** True when `e` is a CustodyError carrying `code`. */
export function hasCode(e: unknown, code: string): boolean {
  return e instanceof CustodyError && e.code === code;
}
