import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type ItemPage, type ItemRow, type UnitsView } from '../api';
import { formatCount } from '../i18n';
import { navigate, useLocationSearch } from '../router';
import { useSession } from '../session/session';
import {
  activeFilterCount,
  apiQuery,
  formatFilters,
  INDICATORS,
  parseFilters,
  SORTS,
  type Filters,
} from './evidence/filters';
import './evidence/evidence.css';
import { EVIDENCE_RETURN_KEY } from './item/return-to';

/** Items per request: small, so that a jump into the middle of 50,000 fetches only what shows. */
export const PAGE_SIZE = 24;
const CELL_MIN = 176;
const GAP = 12;
const GRID_ROW = 236;
const LIST_ROW = 48;

type Units = Map<string, UnitsView['units'][number]>;

/** The words of the cells, looked up once per language by the grid rather than by every cell. */
interface CellLabels {
  loadingItem: string;
  previewAlt: string;
  withdrawn: string;
  noPreview: string;
  noDate: string;
  noCamera: string;
}

/**
 * The evidence browser: every item, filtered and sorted by the URL's query string, as a grid of
 * blurred previews or a list. Only the rows in view are rendered, and the pages of /api/items
 * they need are fetched as they come into view. Previews are always the blurred ones: looking at
 * an image is a choice made on the item page, not here.
 */
export function EvidencePage() {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const search = useLocationSearch();
  const filters = useMemo(() => parseFilters(search), [search]);
  const key = useMemo(() => JSON.stringify(apiQuery(filters)), [filters]);
  const [units, setUnits] = useState<Units>(new Map());

  useEffect(() => {
    let live = true;
    api.get<UnitsView>('/api/units').then(
      (u) => live && setUnits(new Map(u.units.map((x) => [x.id, x]))),
      () => undefined, // the unit filter stays a plain list without names
    );
    return () => {
      live = false;
    };
  }, [api]);

  const set = useCallback(
    (change: Partial<Filters>, remove: (keyof Filters)[] = []): void => {
      const next: Filters = { ...filters, ...change };
      for (const k of remove) delete next[k];
      const qs = formatFilters(next);
      navigate(qs === '' ? '/evidence' : `/evidence?${qs}`);
    },
    [filters],
  );

  return (
    <div className="page evidence-page">
      <div className="evidence-head">
        <h1>{t('evidence.heading')}</h1>
        <ViewToggle view={filters.view} onChange={(view) => set({ view })} />
      </div>
      <p className="muted evidence-intro">{t('evidence.intro')}</p>
      <FilterBar filters={filters} units={units} set={set} lang={i18n.language} />
      <Results key={key} filters={filters} units={units} />
    </div>
  );
}

function ViewToggle({
  view,
  onChange,
}: {
  view: Filters['view'];
  onChange(v: Filters['view']): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="view-toggle" role="group" aria-label={t('evidence.view.label')}>
      {(['grid', 'list'] as const).map((v) => (
        <button
          key={v}
          type="button"
          className="button quiet"
          aria-pressed={view === v}
          onClick={() => onChange(v)}
        >
          {t(`evidence.view.${v}`)}
        </button>
      ))}
    </div>
  );
}

function FilterBar({
  filters,
  units,
  set,
  lang,
}: {
  filters: Filters;
  units: Units;
  set(change: Partial<Filters>, remove?: (keyof Filters)[]): void;
  lang: string;
}) {
  const { t } = useTranslation();
  // Text fields apply on Enter or on leaving them; lists and dates apply at once.
  const [camera, setCamera] = useState(filters.camera ?? '');
  const [delivery, setDelivery] = useState(filters.delivery ?? '');
  const [cluster, setCluster] = useState(filters.cluster ?? '');
  useEffect(() => setCamera(filters.camera ?? ''), [filters.camera]);
  useEffect(() => setDelivery(filters.delivery ?? ''), [filters.delivery]);
  useEffect(() => setCluster(filters.cluster ?? ''), [filters.cluster]);

  const [invalid, setInvalid] = useState<('delivery' | 'cluster')[]>([]);
  const applyText = (): void => {
    const trimmed = (v: string): string | undefined => (v.trim() === '' ? undefined : v.trim());
    const wanted: Filters = {
      ...filters,
      camera: trimmed(camera),
      delivery: trimmed(delivery),
      cluster: trimmed(cluster),
    };
    const next = parseFilters(formatFilters(wanted));
    // A value the server would refuse is said so here, not sent.
    setInvalid(
      (['delivery', 'cluster'] as const).filter(
        (k) => wanted[k] !== undefined && next[k] === undefined,
      ),
    );
    const qs = formatFilters(next);
    if (qs !== formatFilters(filters)) navigate(qs === '' ? '/evidence' : `/evidence?${qs}`);
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    applyText();
  };
  const choose = <K extends keyof Filters>(k: K, v: string): void => {
    if (v === '') set({}, [k]);
    else set({ [k]: v } as Partial<Filters>);
  };
  const unitList = [...units.values()].filter((u) => u.retired_seq === null);
  const active = activeFilterCount(filters);
  const moreOpen =
    filters.unit !== undefined ||
    filters.indicator !== undefined ||
    filters.delivery !== undefined ||
    filters.cluster !== undefined;

  return (
    <form className="filters panel" aria-label={t('evidence.filters.label')} onSubmit={submit}>
      <div className="filter-grid">
        <div className="field">
          <label htmlFor="f-camera">{t('evidence.filters.camera')}</label>
          <input
            id="f-camera"
            value={camera}
            maxLength={200}
            onChange={(e) => setCamera(e.target.value)}
            onBlur={applyText}
          />
        </div>
        <div className="field">
          <label htmlFor="f-taken-from">{t('evidence.filters.takenFrom')}</label>
          <input
            id="f-taken-from"
            type="date"
            value={filters.taken_from ?? ''}
            onChange={(e) => choose('taken_from', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="f-taken-to">{t('evidence.filters.takenTo')}</label>
          <input
            id="f-taken-to"
            type="date"
            value={filters.taken_to ?? ''}
            onChange={(e) => choose('taken_to', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="f-sampled">{t('evidence.filters.sampled')}</label>
          <select
            id="f-sampled"
            value={filters.sampled ?? ''}
            onChange={(e) => choose('sampled', e.target.value)}
          >
            <option value="">{t('evidence.filters.any')}</option>
            <option value="yes">{t('evidence.filters.sampledYes')}</option>
            <option value="no">{t('evidence.filters.sampledNo')}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-examined">{t('evidence.filters.examined')}</label>
          <select
            id="f-examined"
            value={filters.examined ?? ''}
            onChange={(e) => choose('examined', e.target.value)}
          >
            <option value="">{t('evidence.filters.any')}</option>
            <option value="yes">{t('evidence.filters.examinedYes')}</option>
            <option value="no">{t('evidence.filters.examinedNo')}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-sort">{t('evidence.sort.label')}</label>
          <select id="f-sort" value={filters.sort} onChange={(e) => choose('sort', e.target.value)}>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`evidence.sort.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-order">{t('evidence.sort.order')}</label>
          <select
            id="f-order"
            value={filters.order}
            onChange={(e) => choose('order', e.target.value)}
          >
            <option value="asc">{t('evidence.sort.asc')}</option>
            <option value="desc">{t('evidence.sort.desc')}</option>
          </select>
        </div>
      </div>
      <details className="more-filters" open={moreOpen}>
        <summary>{t('evidence.filters.more')}</summary>
        <div className="filter-grid">
          <div className="field">
            <label htmlFor="f-unit">{t('evidence.filters.unit')}</label>
            <select
              id="f-unit"
              value={filters.unit ?? ''}
              onChange={(e) => choose('unit', e.target.value)}
            >
              <option value="">{t('evidence.filters.any')}</option>
              {unitList.map((u) => (
                <option key={u.id} value={u.id}>
                  {unitName(u, lang)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-indicator">{t('evidence.filters.indicator')}</label>
            <select
              id="f-indicator"
              value={filters.indicator ?? ''}
              onChange={(e) => choose('indicator', e.target.value)}
            >
              <option value="">{t('evidence.filters.any')}</option>
              {INDICATORS.map((c) => (
                <option key={c} value={c}>
                  {t(`evidence.indicators.${c}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-delivery">{t('evidence.filters.delivery')}</label>
            <input
              id="f-delivery"
              dir="ltr"
              value={delivery}
              maxLength={26}
              spellCheck={false}
              onChange={(e) => setDelivery(e.target.value)}
              onBlur={applyText}
            />
          </div>
          <div className="field">
            <label htmlFor="f-cluster">{t('evidence.filters.cluster')}</label>
            <input
              id="f-cluster"
              dir="ltr"
              value={cluster}
              maxLength={80}
              spellCheck={false}
              onChange={(e) => setCluster(e.target.value)}
              onBlur={applyText}
            />
          </div>
        </div>
      </details>
      {invalid.length > 0 && (
        <p className="alert" role="alert">
          {invalid.map((k) => t(`evidence.filters.invalid.${k}`)).join(' ')}
        </p>
      )}
      <div className="filter-actions">
        <button type="submit" className="button primary">
          {t('evidence.filters.apply')}
        </button>
        {active > 0 && (
          <button
            type="button"
            className="button quiet"
            onClick={() =>
              set({}, [
                'delivery',
                'camera',
                'taken_from',
                'taken_to',
                'unit',
                'indicator',
                'cluster',
                'sampled',
                'examined',
              ])
            }
          >
            {t('evidence.filters.clear', { n: formatCount(active, lang) })}
          </button>
        )}
      </div>
    </form>
  );
}

type PageState =
  { state: 'failed'; message: string } | { state: 'ready'; rows: ItemRow[] };

/** The items of one filter: the total from the first page, the others fetched when in view. */
function useItemPages(filters: Filters) {
  const { api } = useSession();
  const [pages, setPages] = useState<Map<number, PageState>>(new Map());
  const [total, setTotal] = useState<number | null>(null);
  const requested = useRef(new Set<number>());
  const query = useMemo(() => apiQuery(filters), [filters]);

  const request = useCallback(
    (p: number): void => {
      if (requested.current.has(p)) return;
      // No 'loading' state set here: a cell without its row is already a skeleton, and one render
      // fewer per page counts while scrolling.
      requested.current.add(p);
      api.get<ItemPage>('/api/items', { ...query, limit: PAGE_SIZE, offset: p * PAGE_SIZE }).then(
        (page) => {
          setTotal(page.total);
          setPages((m) => new Map(m).set(p, { state: 'ready', rows: page.items }));
        },
        (e: unknown) => {
          requested.current.delete(p);
          const message = e instanceof ApiError ? e.message : String(e);
          setPages((m) => new Map(m).set(p, { state: 'failed', message }));
        },
      );
    },
    [api, query],
  );
  const retry = useCallback(() => {
    requested.current.clear();
    setPages(new Map());
    request(0);
  }, [request]);

  useEffect(() => request(0), [request]);
  return { pages, total, request, retry };
}

function Results({ filters, units }: { filters: Filters; units: Units }) {
  const { t, i18n } = useTranslation();
  const { pages, total, request, retry } = useItemPages(filters);
  const first = pages.get(0);

  if (total === null) {
    if (first?.state === 'failed')
      return (
        <div className="alert" role="alert">
          <p>{t('evidence.error', { message: first.message })}</p>
          <button type="button" className="button quiet" onClick={retry}>
            {t('evidence.retry')}
          </button>
        </div>
      );
    return (
      <p className="muted" role="status">
        {t('evidence.loading')}
      </p>
    );
  }
  if (total === 0)
    return (
      <div className="empty panel" data-testid="evidence-empty">
        <h2>
          {activeFilterCount(filters) > 0
            ? t('evidence.empty.filteredHeading')
            : t('evidence.empty.heading')}
        </h2>
        <p>
          {activeFilterCount(filters) > 0
            ? t('evidence.empty.filteredBody')
            : t('evidence.empty.body')}
        </p>
      </div>
    );
  const failed = [...pages.values()].find((p) => p.state === 'failed');
  return (
    <>
      <p className="result-count" role="status" data-testid="result-count">
        {t('evidence.count', { n: formatCount(total, i18n.language) })}
      </p>
      {failed?.state === 'failed' && (
        <div className="alert" role="alert">
          <p>{t('evidence.error', { message: failed.message })}</p>
          <button type="button" className="button quiet" onClick={retry}>
            {t('evidence.retry')}
          </button>
        </div>
      )}
      <VirtualItems
        view={filters.view}
        total={total}
        pages={pages}
        request={request}
        units={units}
      />
    </>
  );
}

function VirtualItems({
  view,
  total,
  pages,
  request,
  units,
}: {
  view: Filters['view'];
  total: number;
  pages: Map<number, PageState>;
  request(p: number): void;
  units: Units;
}) {
  const { t, i18n } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [active, setActive] = useState(0);
  const focusPending = useRef(false);
  const rtl = i18n.dir(i18n.language) === 'rtl';

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el === null) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const columns =
    view === 'list' ? 1 : Math.max(1, Math.floor((width - 2 * GAP + GAP) / (CELL_MIN + GAP)));
  const rows = Math.ceil(total / columns);
  const virtual = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => (view === 'list' ? LIST_ROW : GRID_ROW),
    overscan: 2,
    // Render after the scroll, not inside it: smoother with React 19 (no flushSync per frame).
    useFlushSync: false,
  });
  const items = virtual.getVirtualItems();

  // Fetch the pages the rows in view need (and no others).
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items.at(-1)?.index ?? 0;
  useEffect(() => {
    const from = Math.floor((firstRow * columns) / PAGE_SIZE);
    const to = Math.floor((Math.min(total, (lastRow + 1) * columns) - 1) / PAGE_SIZE);
    for (let p = from; p <= to; p++) request(p);
  }, [firstRow, lastRow, columns, total, request]);

  const itemAt = (i: number): ItemRow | undefined => {
    const p = pages.get(Math.floor(i / PAGE_SIZE));
    return p?.state === 'ready' ? p.rows[i % PAGE_SIZE] : undefined;
  };

  // Roving focus: one cell is in the tab order; arrows move it (mirrored right to left).
  useEffect(() => {
    if (!focusPending.current) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    if (el) {
      el.focus();
      focusPending.current = false;
    }
  });
  const move = (to: number): void => {
    const next = Math.max(0, Math.min(total - 1, to));
    setActive(next);
    focusPending.current = true;
    virtual.scrollToIndex(Math.floor(next / columns), { align: 'auto' });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const pageRows = Math.max(
      1,
      Math.floor((scroller.current?.clientHeight ?? 0) / (view === 'list' ? LIST_ROW : GRID_ROW)),
    );
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
    const back = rtl ? 'ArrowRight' : 'ArrowLeft';
    const steps: Record<string, number> = {
      [forward]: view === 'list' ? 0 : 1,
      [back]: view === 'list' ? 0 : -1,
      ArrowDown: columns,
      ArrowUp: -columns,
      PageDown: pageRows * columns,
      PageUp: -pageRows * columns,
    };
    if (e.key === 'Enter') {
      const item = itemAt(active);
      if (item !== undefined) openItem(item.id);
    } else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(total - 1);
    else if (e.key in steps && steps[e.key] !== 0) move(active + (steps[e.key] ?? 0));
    else return;
    e.preventDefault();
  };

  // A click on a cell (or anywhere on a list row) opens the item page.
  const onClick = (e: MouseEvent<HTMLDivElement>): void => {
    const target = e.target instanceof Element ? e.target : null;
    const row = target?.closest('[role=row]');
    const cell = target?.closest('[data-index]') ?? row?.querySelector('[data-index]');
    const item = cell === null || cell === undefined ? undefined : itemAt(Number(cell.getAttribute('data-index')));
    if (item !== undefined) openItem(item.id);
  };

  const lang = i18n.language;
  // Cells take their words from here: a cell that scrolls in then mounts no i18n subscription of
  // its own (one less effect to run and undo for each of the 50 cells a second that come and go).
  const labels = useMemo<CellLabels>(
    () => ({
      loadingItem: t('evidence.loadingItem'),
      previewAlt: t('evidence.previewAlt'),
      withdrawn: t('evidence.withdrawn'),
      noPreview: t('evidence.noPreview'),
      noDate: t('evidence.noDate'),
      noCamera: t('evidence.noCamera'),
    }),
    [t, lang],
  );
  return (
    <div
      ref={scroller}
      className={`evidence-scroller ${view}`}
      data-testid="evidence-scroller"
      role="grid"
      aria-label={t('evidence.gridLabel')}
      aria-rowcount={rows + (view === 'list' ? 1 : 0)}
      aria-colcount={view === 'list' ? 5 : columns}
      onKeyDown={onKeyDown}
      onClick={onClick}
    >
      {view === 'list' && (
        <div className="list-head" role="row" aria-rowindex={1}>
          <span role="columnheader">{t('evidence.columns.name')}</span>
          <span role="columnheader">{t('evidence.columns.camera')}</span>
          <span role="columnheader">{t('evidence.columns.taken')}</span>
          <span role="columnheader">{t('evidence.columns.unit')}</span>
          <span role="columnheader">{t('evidence.columns.subject')}</span>
        </div>
      )}
      <div className="virtual-space" style={{ blockSize: `${virtual.getTotalSize()}px` }}>
        {items.map((r) => (
          <div
            key={r.key}
            role="row"
            aria-rowindex={r.index + 1 + (view === 'list' ? 1 : 0)}
            className={view === 'list' ? 'list-row' : 'grid-row'}
            style={{
              transform: `translateY(${r.start}px)`,
              blockSize: `${r.size}px`,
              ...(view === 'grid'
                ? { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }
                : {}),
            }}
          >
            {view === 'list' ? (
              <ListRow
                index={r.index}
                item={itemAt(r.index)}
                active={active}
                setActive={setActive}
                units={units}
                lang={lang}
                labels={labels}
              />
            ) : (
              Array.from({ length: columns }, (_, c) => r.index * columns + c)
                .filter((i) => i < total)
                .map((i) => (
                  <Cell
                    key={i}
                    index={i}
                    item={itemAt(i)}
                    active={active}
                    setActive={setActive}
                    lang={lang}
                    labels={labels}
                  />
                ))
            )}
          </div>
        ))}
      </div>
    </div>
  );
}

const Cell = memo(function Cell({
  index,
  item,
  active,
  setActive,
  lang,
  labels,
}: {
  index: number;
  item: ItemRow | undefined;
  active: number;
  setActive(i: number): void;
  lang: string;
  labels: CellLabels;
}) {
  const [broken, setBroken] = useState(false);
  const hasPreview = item !== undefined && item.analysed && !item.withdrawn && !broken;
  return (
    <div
      role="gridcell"
      className="cell"
      data-testid="evidence-cell"
      data-index={index}
      tabIndex={index === active ? 0 : -1}
      aria-label={item === undefined ? labels.loadingItem : item.name}
      aria-busy={item === undefined}
      onFocus={() => setActive(index)}
    >
      {item === undefined ? (
        <div className="thumb skeleton" aria-hidden="true" />
      ) : (
        <>
          <div className="thumb">
            {hasPreview ? (
              <img
                className="blurred-preview"
                src={`/api/items/${item.id}/preview?size=256`}
                alt={labels.previewAlt}
                loading="lazy"
                decoding="async"
                onError={() => setBroken(true)}
              />
            ) : (
              <span className="no-preview">
                {item.withdrawn ? labels.withdrawn : labels.noPreview}
              </span>
            )}
          </div>
          <div className="cell-name" title={item.name}>
            <bdi>{item.name}</bdi>
          </div>
          <div className="cell-date muted">{takenLabel(item, lang, labels.noDate)}</div>
        </>
      )}
    </div>
  );
});

const ListRow = memo(function ListRow({
  index,
  item,
  active,
  setActive,
  units,
  lang,
  labels,
}: {
  index: number;
  item: ItemRow | undefined;
  active: number;
  setActive(i: number): void;
  units: Units;
  lang: string;
  labels: CellLabels;
}) {
  const common = {
    'data-index': index,
    tabIndex: index === active ? 0 : -1,
    onFocus: () => setActive(index),
  };
  if (item === undefined)
    return (
      <span
        role="gridcell"
        className="list-name muted"
        aria-busy="true"
        {...common}
        data-testid="evidence-cell"
      >
        {labels.loadingItem}
      </span>
    );
  const unit = item.unit === null ? undefined : units.get(item.unit);
  return (
    <>
      <span role="gridcell" className="list-name" {...common} data-testid="evidence-cell">
        <bdi>{item.name}</bdi>
      </span>
      <span role="gridcell">
        {cameraOf(item) ?? <span className="muted">{labels.noCamera}</span>}
      </span>
      <span role="gridcell">{takenLabel(item, lang, labels.noDate)}</span>
      <span role="gridcell">
        {unit !== undefined
          ? unitName(unit, lang)
          : (item.unit ?? <span className="muted">—</span>)}
      </span>
      <span role="gridcell">
        {item.subject === null ? (
          <span className="muted">—</span>
        ) : (
          <code dir="ltr">{item.subject}</code>
        )}
      </span>
    </>
  );
});

/** Opens an item page; its "back" link returns to this list with its filters (kept for the tab). */
function openItem(id: string): void {
  window.sessionStorage.setItem(EVIDENCE_RETURN_KEY, window.location.pathname + window.location.search);
  navigate(`/items/${id}`);
}

function cameraOf(item: ItemRow): string | null {
  const { make, model } = item;
  if (model !== null && make !== null && model.toLowerCase().startsWith(make.toLowerCase()))
    return model;
  const s = [make, model].filter((x) => x !== null).join(' ');
  return s === '' ? null : s;
}

// One formatter per language and shape: constructing an Intl.DateTimeFormat costs far more than
// formatting with one, and every cell that scrolls into view formats a date.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(lang: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${lang}\u0000${String(withTime)}`;
  let f = dateFormats.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat(lang, {
      dateStyle: 'medium',
      ...(withTime ? { timeStyle: 'short' } : {}),
      timeZone: 'UTC',
    });
    dateFormats.set(key, f);
  }
  return f;
}

/** EXIF 'YYYY:MM:DD HH:MM:SS' (a wall-clock time, no zone) in the page's language. */
function takenLabel(item: ItemRow, lang: string, none: string): string {
  const m = /^(\d{4}):(\d{2}):(\d{2})(?: (\d{2}):(\d{2}))?/.exec(item.date_time_original ?? '');
  if (m === null) return none;
  const [, y, mo, d, h, mi] = m;
  const date = new Date(
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0)),
  );
  if (Number.isNaN(date.getTime())) return none;
  return dateFormat(lang, h !== undefined).format(date);
}

function unitName(u: UnitsView['units'][number], lang: string): string {
  return lang === 'ar' && u.name_ar !== null ? u.name_ar : u.name_en;
}
