// The evidence browser's filters and sorting, kept in the URL's query string (so that a reload,
// a shared link, and back and forward restore them) and turned into GET /api/items parameters.

export const SORTS = ['received', 'taken', 'name', 'id'] as const;
export type Sort = (typeof SORTS)[number];
export const INDICATORS = [
  'EDITING_SOFTWARE',
  'MODIFY_DATE_DIFFERS',
  'EXIF_MISSING',
  'CAMERA_UNLIKE_DELIVERY',
  'THUMBNAIL_MISMATCH',
  'QUANTISATION_UNLIKE_CAMERA',
  'NAME_SEQUENCE_VS_TIME',
  'TIMESTAMP_OUT_OF_RANGE',
  'DIMENSIONS_UNLIKE_CAMERA',
] as const;
export type Indicator = (typeof INDICATORS)[number];
export type View = 'grid' | 'list';
export type YesNo = 'yes' | 'no';

export interface Filters {
  delivery?: string;
  camera?: string;
  taken_from?: string;
  taken_to?: string;
  unit?: string;
  indicator?: Indicator;
  cluster?: string;
  sampled?: YesNo;
  examined?: YesNo;
  sort: Sort;
  order: 'asc' | 'desc';
  view: View;
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const CLUSTER = /^[0-9a-f]{64}$|^[A-Za-z0-9_-]{1,80}$/;

function oneOf<T extends string>(v: string | null, allowed: readonly T[]): T | undefined {
  return allowed.find((a) => a === v);
}

/** The filters a query string holds; a value the server would refuse is dropped, not sent. */
export function parseFilters(search: string): Filters {
  const q = new URLSearchParams(search);
  const f: Filters = {
    sort: oneOf(q.get('sort'), SORTS) ?? 'received',
    order: q.get('order') === 'desc' ? 'desc' : 'asc',
    view: q.get('view') === 'list' ? 'list' : 'grid',
  };
  const delivery = q.get('delivery')?.trim();
  if (delivery !== undefined && ULID.test(delivery)) f.delivery = delivery.toUpperCase();
  const camera = q.get('camera')?.trim();
  if (camera !== undefined && camera !== '' && camera.length <= 200) f.camera = camera;
  const from = q.get('taken_from');
  if (from !== null && DAY.test(from)) f.taken_from = from;
  const to = q.get('taken_to');
  if (to !== null && DAY.test(to)) f.taken_to = to;
  const unit = q.get('unit');
  if (unit !== null && ULID.test(unit)) f.unit = unit.toUpperCase();
  const indicator = oneOf(q.get('indicator'), INDICATORS);
  if (indicator !== undefined) f.indicator = indicator;
  const cluster = q.get('cluster')?.trim();
  if (cluster !== undefined && CLUSTER.test(cluster)) f.cluster = cluster;
  const sampled = oneOf(q.get('sampled'), ['yes', 'no'] as const);
  if (sampled !== undefined) f.sampled = sampled;
  const examined = oneOf(q.get('examined'), ['yes', 'no'] as const);
  if (examined !== undefined) f.examined = examined;
  return f;
}

/** The query string of these filters: defaults are left out, so a plain browser has a plain URL. */
export function formatFilters(f: Filters): string {
  const q = new URLSearchParams();
  const put = (k: string, v: string | undefined): void => {
    if (v !== undefined && v !== '') q.set(k, v);
  };
  put('delivery', f.delivery);
  put('camera', f.camera);
  put('taken_from', f.taken_from);
  put('taken_to', f.taken_to);
  put('unit', f.unit);
  put('indicator', f.indicator);
  put('cluster', f.cluster);
  put('sampled', f.sampled);
  put('examined', f.examined);
  if (f.sort !== 'received') q.set('sort', f.sort);
  if (f.order !== 'asc') q.set('order', f.order);
  if (f.view !== 'grid') q.set('view', f.view);
  return q.toString();
}

/** The GET /api/items parameters of these filters (the view is the page's own). */
export function apiQuery(f: Filters): Record<string, string | boolean> {
  const q: Record<string, string | boolean> = { sort: f.sort, order: f.order };
  if (f.delivery !== undefined) q.delivery = f.delivery;
  if (f.camera !== undefined) q.camera = f.camera;
  if (f.taken_from !== undefined) q.taken_from = f.taken_from;
  if (f.taken_to !== undefined) q.taken_to = f.taken_to;
  if (f.unit !== undefined) q.unit = f.unit;
  if (f.indicator !== undefined) q.indicator = f.indicator;
  if (f.cluster !== undefined) q.cluster = f.cluster;
  if (f.sampled !== undefined) q.sampled = f.sampled === 'yes';
  if (f.examined !== undefined) q.examined = f.examined === 'yes';
  return q;
}

/** How many filters narrow the list (sorting and the view do not). */
export function activeFilterCount(f: Filters): number {
  const keys = [
    'delivery',
    'camera',
    'taken_from',
    'taken_to',
    'unit',
    'indicator',
    'cluster',
    'sampled',
    'examined',
  ] as const;
  return keys.filter((k) => f[k] !== undefined).length;
}
