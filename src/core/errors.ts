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

/**
 * The request field an error is about, in the services' own words. Each interface names it its
 * own way (cli/ as the flag, http/ as the body field): services never name a CLI flag.
 */
export type RequestField =
  | 'at'
  | 'out'
  | 'bag'
  | 'select'
  | 'exhibits'
  | 'includeImages'
  | 'blurImages'
  | 'sinceCheckpoint'
  | 'reason'
  | 'category'
  | 'source'
  | 'name'
  | 'over'
  | 'method'
  | 'by'
  | 'population'
  | 'beacon'
  | 'round'
  | 'value'
  | 'unit'
  | 'actor'
  | 'maxImagePixels'
  | 'decision'
  | 'level'
  | 'viewing'
  | 'reference'
  | 'attendee'
  | 'photograph'
  | 'notes';

/**
 * What a person can do about an error, as an action. Each interface words it (cli/ as the command
 * or the option to use); a service never writes a command line into its message.
 */
export type Remedy =
  | 'verify'
  | 'verify-trusted-checkpoint'
  | 'rebuild'
  | 'analyze'
  | 'list-checkpoints'
  | 'show-checkpoint'
  | 'list-plans'
  | 'list-sources'
  | 'init-archive'
  | 'init-sources'
  | 'set-aside-tail'
  | 'inspect-tail'
  | 'adopt-tail'
  | 'catch-up-index'
  | 'publish-checkpoint'
  | 'seed-plan'
  | 'census'
  | 'new-source'
  | 'valid-only'
  | 'add-scheme'
  | 'suggest-again'
  | 'merge-subjects'
  | 'withdraw-containers'
  | 'rewrap-key'
  | 'give-passphrase'
  | 'give-report-passphrase';

/** What an interface words for a person, kept in an error's `details.hint`. */
export interface ErrorHint {
  /** The request field the error is about. */
  field?: RequestField;
  /** The value of that field, as the person gave it. */
  value?: string | number;
  /** What to do next, in order. */
  remedy?: Remedy[];
}

/**
 * `details` naming the field and the remedy of an error, typed, under `hint` (apart from a
 * module's own `details.field`, such as a codebook field; the remedy's own values, a plan name or
 * a folder, go beside it in the same details).
 *
 * @example
 *   throw new LedgerError('LEDGER_CHECKPOINT_INVALID', 'the stored checkpoint does not verify', { details: hint({ remedy: ['verify'] }) });
 */
export function hint(h: ErrorHint): { hint: ErrorHint } {
  return { hint: { ...h } };
}
