import { CustodyError } from '../core/index.js';

/** Refusals the HTTP layer raises itself (before any service runs). */
export type HttpErrorCode =
  | 'HTTP_BAD_REQUEST'
  | 'HTTP_NOT_FOUND'
  | 'HTTP_UNAUTHENTICATED'
  | 'HTTP_FORBIDDEN'
  | 'HTTP_PAYLOAD_TOO_LARGE'
  | 'HTTP_UNSUPPORTED_MEDIA_TYPE'
  | 'HTTP_CSRF'
  | 'HTTP_RATE_LIMITED'
  | 'HTTP_SIGN_IN_FAILED'
  | 'HTTP_RANGE_NOT_SATISFIABLE'
  /** A verification run is already in progress (one at a time). */
  | 'HTTP_VERIFICATION_RUNNING'
  /** A prepared act (submission, adjudication) that this session did not prepare, or that expired. */
  | 'HTTP_PREPARED_UNKNOWN'
  /** An export or a report job of this kind is already running (one at a time). */
  | 'HTTP_JOB_RUNNING'
  /** The job has not finished (or failed): nothing to download yet. */
  | 'HTTP_JOB_NOT_READY'
  | 'HTTP_INTERNAL';

export class HttpError extends CustodyError<HttpErrorCode> {}

/** The body of every error response: a stable code, a message for people, details; no stack, no SQL. */
export interface ErrorBody {
  code: string;
  message: string;
  details: Record<string, unknown>;
}
