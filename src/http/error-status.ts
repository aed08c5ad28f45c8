import { CustodyError } from '../core/index.js';
import { errorClassOf, type ErrorClass } from '../error-codes.js';

/**
 * The HTTP status of each error class, for the server's error bodies `{code, message, details}`.
 * `finding` is 422: the request was understood, and the data it names or carries does not hold.
 */
export const HTTP_STATUS_FOR_CLASS: Readonly<Record<ErrorClass, number>> = {
  usage: 400,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  finding: 422,
  unavailable: 503,
  internal: 500,
};

/** Codes whose status is more precise than their class's. */
export const HTTP_STATUS_FOR_CODE: Readonly<Record<string, number>> = {
  HTTP_UNAUTHENTICATED: 401,
  HTTP_SIGN_IN_FAILED: 401,
  HTTP_PAYLOAD_TOO_LARGE: 413,
  HTTP_UNSUPPORTED_MEDIA_TYPE: 415,
  HTTP_RATE_LIMITED: 429,
  HTTP_RANGE_NOT_SATISFIABLE: 416,
};

/** The HTTP status for a thrown value (a CustodyError by its code, or its code's class; anything else 500). */
export function httpStatusFor(e: unknown): number {
  if (e instanceof CustodyError) {
    const s: number | undefined = HTTP_STATUS_FOR_CODE[(e as CustodyError).code];
    if (s !== undefined) return s;
  }
  return HTTP_STATUS_FOR_CLASS[errorClassOf(e)];
}
