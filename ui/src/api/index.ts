export { ApiClient, ApiError, CSRF_HEADER, type ApiClientOptions } from './client';
export type { ErrorBody, ItemPage, ItemRow, SessionView, StatusView, UnitsView } from './types';
export type {
  FindingView,
  Interval95,
  LinkSuggestion,
  LinksWritten,
  StatisticsView,
  SubjectDetail,
  SubjectPage,
  SubjectRow,
  UnitName,
} from './types';
