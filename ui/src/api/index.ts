export { ApiClient, ApiError, CSRF_HEADER, type ApiClientOptions } from './client';
export type {
  ErrorBody,
  ItemPage,
  ItemRow,
  JobsView,
  RecordedVerification,
  SessionView,
  StatusView,
  UnitsView,
  VerificationRun,
  VerificationsView,
} from './types';
