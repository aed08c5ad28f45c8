// Ordered lists the server derives from the index (the item list under one filter and order, the
// subject list), kept between requests and dropped when a table they read is written. A page is
// then a slice of the list and a look-up of its rows by primary key; a count is the list's length.
//
// Staleness is judged by WriteGenerations: how many write transactions of this process changed
// each table. That is sound only where this process is the index's one writer (the server, which
// holds the writer lock for its lifetime); a read-only handle has no cache (ArchiveIndexRepository).

/** Per-table counts of committed write transactions, bumped by the index's writer after each commit. */
export class WriteGenerations {
  private epoch = 0;
  private readonly byTable = new Map<string, number>();

  /** After a transaction that wrote `tables` has committed. */
  bump(tables: Iterable<string>): void {
    for (const t of new Set(tables)) this.byTable.set(t, (this.byTable.get(t) ?? 0) + 1);
  }

  /** After a transaction that may have written any table (a rebuild) has committed. */
  bumpAll(): void {
    this.epoch++;
  }

  /**
   * A value that changes whenever one of `tables` is written. Read it before deriving anything
   * from them: a write that commits meanwhile then only makes the derived value newer than its
   * key says, never older.
   */
  of(tables: readonly string[]): string {
    return `${this.epoch}:${tables.map((t) => this.byTable.get(t) ?? 0).join(',')}`;
  }
}

/** A list in the database's own order: ids with the sort key each was ordered by. */
export interface OrderedList {
  ids: readonly string[];
  keys: readonly string[];
  /** Position of each id (made on first use, by keyset paging). */
  positions?: Map<string, number>;
}

/** At most this many lists (and first requests awaiting their second) are remembered. */
const MAX_LISTS = 256;

/**
 * Least-recently-used lists, at most `maxRows` ids in all (a list longer than that is not kept).
 * A list is made on its second request at one generation: the first is answered by the page
 * query, so a list that a write would drop before anyone reuses it (during an ingest) costs
 * nothing. Concurrent requests for the same list share one query.
 */
export class ListCache {
  private readonly lists = new Map<string, { generation: string; value: Promise<OrderedList | null> | null; rows: number }>();
  private rows = 0;

  constructor(private readonly maxRows: number) {}

  /**
   * The list under `key` made at `generation`, or `make()`'s; null when it is asked for the first
   * time at this generation, or is too long to keep (the caller then queries the page).
   */
  get(key: string, generation: string, make: () => Promise<OrderedList>): Promise<OrderedList | null> {
    const hit = this.lists.get(key);
    if (hit !== undefined && hit.generation === generation && hit.value !== null) {
      this.lists.delete(key); // most recently used last
      this.lists.set(key, hit);
      return hit.value;
    }
    if (hit === undefined || hit.generation !== generation) {
      this.drop(key);
      this.lists.set(key, { generation, rows: 0, value: null });
      while (this.lists.size > MAX_LISTS) this.drop(this.lists.keys().next().value as string);
      return Promise.resolve(null);
    }
    const entry = hit;
    const value = make().then(
      (list) => {
        if (this.lists.get(key) !== entry) return list; // replaced meanwhile: not counted
        if (list.ids.length > this.maxRows) {
          entry.value = Promise.resolve(null);
          return null;
        }
        entry.rows = list.ids.length;
        this.rows += entry.rows;
        while (this.rows > this.maxRows) {
          const oldest = this.lists.keys().next().value;
          if (oldest === undefined || oldest === key) break;
          this.drop(oldest);
        }
        return list;
      },
      (e: unknown) => {
        if (this.lists.get(key) === entry) this.drop(key);
        throw e;
      },
    );
    entry.value = value;
    return value;
  }

  private drop(key: string): void {
    const e = this.lists.get(key);
    if (e === undefined) return;
    this.rows -= e.rows;
    this.lists.delete(key);
  }
}

/** Where a keyset cursor (the sort key and id of the last row seen) continues, or null if it does not fall on the list. */
export function positionAfter(list: OrderedList, after: { key: string; id: string }, descending: boolean): number | null {
  list.positions ??= new Map(list.ids.map((id, i) => [id, i]));
  const i = list.positions.get(after.id);
  if (i === undefined || list.keys[i] !== after.key) return null;
  // The list is ascending; a descending page reads it from the end.
  return descending ? list.ids.length - i : i + 1;
}

/**
 * Rows by id as read at one generation, at most `max` of them (all dropped when full, or when the
 * generation moves on): the rows of the pages served lately, each read once.
 */
export class RowCache<T> {
  private generation = '';
  private readonly rows = new Map<string, T>();

  constructor(private readonly max: number) {}

  /** The cached rows of `ids` at `generation`, and the ids still to read. */
  lookup(generation: string, ids: readonly string[]): { found: Map<string, T>; missing: string[] } {
    if (generation !== this.generation) {
      this.rows.clear();
      this.generation = generation;
    }
    const found = new Map<string, T>();
    const missing: string[] = [];
    for (const id of ids) {
      const r = this.rows.get(id);
      if (r === undefined) missing.push(id);
      else found.set(id, r);
    }
    return { found, missing };
  }

  /** Keeps rows read at `generation` (the value lookup was given before they were read). */
  keep(generation: string, rows: Iterable<[string, T]>): void {
    if (generation !== this.generation) return;
    for (const [id, r] of rows) {
      if (this.rows.size >= this.max) this.rows.clear();
      this.rows.set(id, r);
    }
  }
}
