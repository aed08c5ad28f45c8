import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { positionAfter, RowCache, type ListCache, type OrderedList, type WriteGenerations } from './list-cache.js';
import type { Database, SubjectsTable, ViewsTable } from './schema.js';

/** The orders the item list can be read in; each ends with the item id, so pages are stable. */
export const ITEM_SORTS = ['received', 'taken', 'name', 'id'] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];

/**
 * A filter over the items, as the server's item list takes it. Every value reaches the database
 * as a bound parameter (Kysely), never in the SQL text.
 */
export interface ItemFilter {
  delivery?: string;
  /** Matches the camera's make, its model, or "make model" (case-insensitive). */
  camera?: string;
  /** DateTimeOriginal bounds, compared as EXIF text 'YYYY:MM:DD HH:MM:SS' prefixes. */
  takenFrom?: string;
  takenTo?: string;
  /** received_at bounds (RFC 3339). */
  receivedFrom?: string;
  receivedTo?: string;
  unit?: string;
  sampled?: boolean;
  examined?: boolean;
  /** Only these objects (a near-duplicate cluster, the objects raising an indicator). */
  objects?: readonly string[];
}

export interface ItemPageQuery {
  filter: ItemFilter;
  sort: ItemSort;
  order: 'asc' | 'desc';
  limit: number;
  /** Either an offset or a keyset cursor: the sort key and id of the last row already seen. */
  offset?: number;
  after?: { key: string; id: string };
}

/** One row of the item list: the item with its camera, date, subject and unit. */
export interface ItemListRow {
  id: string;
  seq: number;
  delivery_id: string;
  name: string;
  relative_path: string;
  sha256: string;
  size: number;
  media_type: string;
  received_at: string;
  withdrawn_seq: number | null;
  make: string | null;
  model: string | null;
  date_time_original: string | null;
  analysed: number;
  subject_id: string | null;
  unit_id: string | null;
  sort_key: string;
}

const SORT_EXPR: Record<ItemSort, string> = {
  received: 'i.received_at',
  taken: "coalesce(a.date_time_original, '')",
  name: 'i.name',
  id: 'i.id',
};

/** The index tables the item list reads (its filters, joins and order). */
const ITEM_LIST_TABLES = ['items', 'objects', 'analyses', 'subject_items', 'subjects', 'sample_members', 'exam_submissions'];

/** The columns of an item-list row other than its sort key, for the page's ids. */
const ROW_COLUMNS = sql`i.id, i.seq, i.delivery_id, i.name, i.relative_path, i.sha256, i.size, i.media_type,
             i.received_at, o.withdrawn_seq, a.make, a.model, a.date_time_original,
             case when a.sha256 is null then 0 else 1 end as analysed,
             si.subject_id, s.unit_id`;
const ROW_JOINS = sql`left join objects o on o.sha256 = i.sha256
      left join analyses a on a.sha256 = i.sha256
      left join subject_items si on si.item_id = i.id
      left join subjects s on s.id = si.subject_id`;

/**
 * The item list's queries, over the index (db/). Reads only; the filters join what they need.
 *
 * With `lists` (the index's one writer: the server), each filter and order is read once as the
 * ordered list of its item ids and kept until a table it reads is written: a page is then a slice
 * of it and its rows by id, the total its length, whatever the offset, the filter or the order.
 * Without (or for a list too long to keep), each page is one query and its total a count.
 */
export class ItemQueryRepository {
  /** The rows of the pages served lately (with `cache`), by item id. */
  private readonly rowCache = new RowCache<Omit<ItemListRow, 'sort_key'>>(100_000);
  private readonly subjectRows = new RowCache<SubjectsTable>(100_000);

  constructor(
    private readonly db: Kysely<Database>,
    private readonly cache: { lists: ListCache; generations: WriteGenerations } | null = null,
  ) {}

  async page(q: ItemPageQuery): Promise<{ rows: ItemListRow[]; total: number }> {
    if (this.cache !== null) {
      const { lists, generations } = this.cache;
      const key = createHash('sha256').update(JSON.stringify(['items', q.sort, q.filter])).digest('hex');
      const generation = generations.of(ITEM_LIST_TABLES);
      const list = await lists.get(key, generation, () => this.orderedIds(q));
      const start =
        list === null ? null : q.after === undefined ? (q.offset ?? 0) : positionAfter(list, q.after, q.order === 'desc');
      if (list !== null && start !== null)
        return { rows: await this.rowsOf(list, start, q, generation), total: list.ids.length };
    }
    return this.pageByQuery(q);
  }

  /** Every id the filter selects, with its sort key, ascending (as the page query orders them). */
  private async orderedIds(q: ItemPageQuery): Promise<OrderedList> {
    const { from, where, sortExpr } = await this.selection(q);
    const r = await sql<{ id: string; sort_key: string }>`
      select i.id as id, ${sortExpr} as sort_key ${from} where ${where}
      order by ${sortExpr} asc, i.id asc`.execute(this.db);
    return { ids: r.rows.map((x) => x.id), keys: r.rows.map((x) => x.sort_key) };
  }

  /** The page's rows, from position `start` of the list read in the page's order. */
  private async rowsOf(list: OrderedList, start: number, q: ItemPageQuery, generation: string): Promise<ItemListRow[]> {
    const n = list.ids.length;
    const at: number[] = [];
    for (let k = start; k < Math.min(n, start + q.limit); k++) at.push(q.order === 'desc' ? n - 1 - k : k);
    if (at.length === 0) return [];
    const ids = at.map((k) => list.ids[k] ?? '');
    const { found, missing } = this.rowCache.lookup(generation, ids);
    if (missing.length > 0) {
      const r = await sql<Omit<ItemListRow, 'sort_key'>>`
        select ${ROW_COLUMNS} from items i ${ROW_JOINS}
        where i.id in (${sql.join(missing.map((id) => sql`${id}`))})`.execute(this.db);
      const read = r.rows.map((x): [string, Omit<ItemListRow, 'sort_key'>] => [x.id, normalise(x)]);
      for (const [id, x] of read) found.set(id, x);
      this.rowCache.keep(generation, read);
    }
    const rows: ItemListRow[] = [];
    for (const k of at) {
      const x = found.get(list.ids[k] ?? '');
      if (x !== undefined) rows.push({ ...x, sort_key: list.keys[k] ?? '' });
    }
    return rows;
  }

  /** The filter as SQL: what to join, the condition, and the order's expression. */
  private async selection(q: ItemPageQuery) {
    // A camera is matched (case-insensitively) against the distinct cameras first, so the item
    // query compares exact (make, model) pairs, which the analyses_camera index serves.
    const cameras = q.filter.camera === undefined ? undefined : await this.camerasMatching(q.filter.camera);
    const where = whereOf(q.filter, cameras);
    const sortExpr = sql.raw(SORT_EXPR[q.sort]);
    const f = q.filter;
    const filtersA = f.camera !== undefined || f.takenFrom !== undefined || f.takenTo !== undefined;
    const needsA = filtersA || q.sort === 'taken';
    const needsSi = f.unit !== undefined || f.sampled !== undefined || f.examined !== undefined;
    const joinA = needsA ? sql`left join analyses a on a.sha256 = i.sha256` : sql``;
    const joinSi = needsSi ? sql`left join subject_items si on si.item_id = i.id` : sql``;
    const joinS = f.unit !== undefined ? sql`left join subjects s on s.id = si.subject_id` : sql``;
    return {
      from: sql`from items i ${joinA} ${joinSi} ${joinS}`,
      countFrom: sql`from items i ${filtersA ? joinA : sql``} ${joinSi} ${joinS}`,
      where,
      sortExpr,
    };
  }

  /** One page by one query (offset or keyset), and the total by a count. */
  private async pageByQuery(q: ItemPageQuery): Promise<{ rows: ItemListRow[]; total: number }> {
    const { from, countFrom, where, sortExpr } = await this.selection(q);
    const dir = sql.raw(q.order === 'desc' ? 'desc' : 'asc');
    const cmp = sql.raw(q.order === 'desc' ? '<' : '>');
    const keyset =
      q.after === undefined
        ? sql`1 = 1`
        : sql`(${sortExpr} ${cmp} ${q.after.key} or (${sortExpr} = ${q.after.key} and i.id ${cmp} ${q.after.id}))`;
    // The page's ids first, joining only what the filter and the order need (an offset deep into
    // 50,000 items then walks one index), then the page's 50 rows with everything shown.
    const rows = await sql<ItemListRow>`
      select ${ROW_COLUMNS}, p.sort_key
      from (
        select i.id as id, ${sortExpr} as sort_key ${from}
        where ${where} and ${keyset}
        order by ${sortExpr} ${dir}, i.id ${dir}
        limit ${q.limit} offset ${q.after === undefined ? (q.offset ?? 0) : 0}
      ) p
      join items i on i.id = p.id
      ${ROW_JOINS}
      order by p.sort_key ${dir}, p.id ${dir}
    `.execute(this.db);
    const total = await sql<{ n: number }>`select count(*) as n ${countFrom} where ${where}`.execute(this.db);
    return { rows: rows.rows.map(normalise), total: Number(total.rows[0]?.n ?? 0) };
  }

  /** Subjects a page at a time (the server's subject list), optionally of one unit, in id order. */
  async subjects(q: { unit?: string; limit: number; offset: number }): Promise<{ rows: SubjectsTable[]; total: number }> {
    if (this.cache === null) return subjectsPage(this.db, q);
    const { lists, generations } = this.cache;
    const generation = generations.of(['subjects']);
    const list = await lists.get(`subjects\u0000${q.unit ?? ''}`, generation, async () => {
      let ids = this.db.selectFrom('subjects').select('id').orderBy('id');
      if (q.unit !== undefined) ids = ids.where('unit_id', '=', q.unit);
      const all = (await ids.execute()).map((r) => r.id);
      return { ids: all, keys: all };
    });
    if (list === null) return subjectsPage(this.db, q);
    const page = list.ids.slice(q.offset, q.offset + q.limit);
    if (page.length === 0) return { rows: [], total: list.ids.length };
    const { found, missing } = this.subjectRows.lookup(generation, page);
    if (missing.length > 0) {
      const read = await this.db.selectFrom('subjects').selectAll().where('id', 'in', missing).execute();
      const byId = read.map((r): [string, SubjectsTable] => [r.id, r]);
      for (const [id, r] of byId) found.set(id, r);
      this.subjectRows.keep(generation, byId);
    }
    return { rows: page.flatMap((id) => found.get(id) ?? []), total: list.ids.length };
  }

  /** A value that changes whenever the collection-wide derived facts (indicators, clusters) may. */
  generation(): Promise<string> {
    if (this.cache !== null)
      return Promise.resolve(this.cache.generations.of(['items', 'objects', 'analyses', 'withdrawals']));
    return collectionGeneration(this.db);
  }

  private async camerasMatching(camera: string): Promise<{ make: string | null; model: string | null }[]> {
    const c = camera.toLowerCase();
    const all = await this.db.selectFrom('analyses').select(['make', 'model']).distinct().execute();
    return all.filter(
      (r) =>
        r.make?.toLowerCase() === c ||
        r.model?.toLowerCase() === c ||
        (r.make !== null && r.model !== null && `${r.make} ${r.model}`.toLowerCase() === c),
    );
  }

  /** Audited views, newest first, filtered by item, actor and time (all bound parameters). */
  async views(f: {
    item?: string;
    actor?: string;
    since?: string;
    limit: number;
  }): Promise<ViewsTable[]> {
    let q = this.db.selectFrom('views').selectAll().orderBy('seq', 'desc').limit(f.limit);
    if (f.item !== undefined) q = q.where('item_id', '=', f.item);
    if (f.actor !== undefined) q = q.where('actor', '=', f.actor);
    if (f.since !== undefined) q = q.where('time', '>=', f.since);
    const rows = await q.execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }

  /** Whether this (actor, item, hour, action) view is already in the ledger (and so the index). */
  async viewRecorded(k: { actor: string; item: string; hour: string; action: string }): Promise<boolean> {
    const row = await this.db
      .selectFrom('views')
      .select('seq')
      .where('actor', '=', k.actor)
      .where('item_id', '=', k.item)
      .where('hour', '=', k.hour)
      .where('action', '=', k.action)
      .executeTakeFirst();
    return row !== undefined;
  }
}

/** Numbers as numbers, whatever the driver returned them as (bigint columns, the 0/1 flag). */
function normalise<R extends Omit<ItemListRow, 'sort_key'>>(r: R): R {
  return {
    ...r,
    seq: Number(r.seq),
    size: Number(r.size),
    analysed: Number(r.analysed),
    withdrawn_seq: r.withdrawn_seq === null ? null : Number(r.withdrawn_seq),
  };
}

function whereOf(f: ItemFilter, cameras?: { make: string | null; model: string | null }[]) {
  const parts = [sql`1 = 1`];
  if (f.delivery !== undefined) parts.push(sql`i.delivery_id = ${f.delivery}`);
  if (cameras !== undefined) {
    const eq = (col: string, v: string | null) =>
      v === null ? sql`${sql.ref(col)} is null` : sql`${sql.ref(col)} = ${v}`;
    parts.push(
      cameras.length === 0
        ? sql`1 = 0`
        : sql`(${sql.join(cameras.map((c) => sql`(${eq('a.make', c.make)} and ${eq('a.model', c.model)})`), sql` or `)})`,
    );
  }
  if (f.takenFrom !== undefined) parts.push(sql`a.date_time_original >= ${f.takenFrom}`);
  // An upper bound is inclusive of the whole of its last day/second: compare with a high suffix.
  if (f.takenTo !== undefined) parts.push(sql`a.date_time_original <= ${`${f.takenTo}\uffff`}`);
  if (f.receivedFrom !== undefined) parts.push(sql`i.received_at >= ${f.receivedFrom}`);
  if (f.receivedTo !== undefined) parts.push(sql`i.received_at <= ${`${f.receivedTo}\uffff`}`);
  if (f.unit !== undefined) parts.push(sql`s.unit_id = ${f.unit}`);
  if (f.sampled !== undefined) {
    const member = sql`exists (select 1 from sample_members m where m.member_id = i.id or m.member_id = si.subject_id)`;
    parts.push(f.sampled ? member : sql`not ${member}`);
  }
  if (f.examined !== undefined) {
    // A plan with sealed case ids keys its rows by code: its published links give the id once it
    // closes; before, its cases count as examined for no item (only the examination KEK links them).
    const caseOf = sql`coalesce((select l.member_id from exam_case_links l where l.sample_id = e.sample_id and l.code = e.case_id), e.case_id)`;
    const examined = sql`exists (select 1 from exam_submissions e where ${caseOf} = i.id or ${caseOf} = si.subject_id)`;
    parts.push(f.examined ? examined : sql`not ${examined}`);
  }
  if (f.objects !== undefined) {
    parts.push(
      f.objects.length === 0
        ? sql`1 = 0`
        : sql`i.sha256 in (${sql.join(f.objects.map((o) => sql`${o}`))})`,
    );
  }
  return sql.join(parts, sql` and `);
}

/** Subjects a page at a time (the server's subject list), optionally of one unit. */
export async function subjectsPage(
  db: Kysely<Database>,
  q: { unit?: string; limit: number; offset: number },
): Promise<{ rows: SubjectsTable[]; total: number }> {
  let rows = db.selectFrom('subjects').selectAll().orderBy('id').limit(q.limit).offset(q.offset);
  let count = db.selectFrom('subjects').select((eb) => eb.fn.countAll<number>().as('n'));
  if (q.unit !== undefined) {
    rows = rows.where('unit_id', '=', q.unit);
    count = count.where('unit_id', '=', q.unit);
  }
  const [r, n] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
  return { rows: r, total: Number(n.n) };
}

/** Counts that change whenever the collection-wide derived facts (indicators, clusters) may. */
export async function collectionGeneration(db: Kysely<Database>): Promise<string> {
  const r = await sql<{ i: number; a: number; w: number }>`
    select (select count(*) from items) as i, (select count(*) from analyses) as a,
           (select count(*) from withdrawals) as w`.execute(db);
  const row = r.rows[0];
  return `${Number(row?.i)}:${Number(row?.a)}:${Number(row?.w)}`;
}
