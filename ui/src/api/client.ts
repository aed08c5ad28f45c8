import type { ErrorBody } from './types';

/** A refusal of the server ({code, message, details}), or `NETWORK` when it could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const CSRF_HEADER = 'x-csrf-token';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiClientOptions {
  /** Called when a signed-in request comes back 401: the session ended (idle timeout, sign-out elsewhere). */
  onUnauthenticated(): void;
  fetch?: typeof fetch;
}

/**
 * The UI's one way to the server: same-origin JSON, the session cookie (HttpOnly, set by the
 * server), and the session's CSRF token on every request that changes state.
 */
export class ApiClient {
  private csrfToken: string | null = null;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly opts: ApiClientOptions) {
    this.fetchFn = opts.fetch ?? ((input, init) => window.fetch(input, init));
  }

  /** The CSRF token of the current session (from sign-in or GET /api/session); null when signed out. */
  setCsrfToken(token: string | null): void {
    this.csrfToken = token;
  }

  get<T>(path: string, query?: Record<string, string | number | boolean | undefined>): Promise<T> {
    return this.request<T>('GET', withQuery(path, query));
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  async request<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (method !== 'GET' && this.csrfToken !== null) headers[CSRF_HEADER] = this.csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchFn(path, {
        method,
        headers,
        credentials: 'same-origin',
        cache: 'no-store',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (cause) {
      throw new ApiError(0, 'NETWORK', cause instanceof Error ? cause.message : String(cause));
    }
    if (response.status === 204) return undefined as T;
    const parsed: unknown = await response.json().catch(() => undefined);
    if (response.ok) return parsed as T;
    const error = toApiError(response.status, parsed);
    // A 401 means the session is gone, except on the sign-in itself and on the probe at start
    // (GET /api/session), where it only means that nobody is signed in yet.
    const probe = path === '/api/session' && (method === 'POST' || method === 'GET');
    if (response.status === 401 && !probe) {
      this.csrfToken = null;
      this.opts.onUnauthenticated();
    }
    throw error;
  }
}

function toApiError(status: number, body: unknown): ApiError {
  if (isErrorBody(body)) return new ApiError(status, body.code, body.message, body.details);
  return new ApiError(status, 'HTTP_UNEXPECTED', `the server answered ${status}`);
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return (
    typeof b.code === 'string' &&
    typeof b.message === 'string' &&
    typeof b.details === 'object' &&
    b.details !== null
  );
}

function withQuery(
  path: string,
  query?: Record<string, string | number | boolean | undefined>,
): string {
  if (query === undefined) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s === '' ? path : `${path}?${s}`;
}
