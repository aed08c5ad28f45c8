export { ApiClient, ApiError, CSRF_HEADER, type ApiClientOptions } from './client';
export type { ErrorBody, SessionView, StatusView } from './types';
