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

/** The HTTP status for a thrown value (a CustodyError by its code's class, anything else 500). */
export function httpStatusFor(e: unknown): number {
  return HTTP_STATUS_FOR_CLASS[errorClassOf(e)];
}
