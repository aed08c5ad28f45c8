import type { Kysely, Transaction } from 'kysely';
import { kysely } from './kysely.adapter.js';
import { DbError } from './errors.js';
import { ItemQueryRepository } from './item-query.repository.js';
import { ListCache, WriteGenerations } from './list-cache.js';
import {
  ANALYSIS_INPUTS_MARK,
  INDEX_TABLES,
  type AnalysesTable,
  type Database,
  type Mutation,
  type DecisionsTable,
  type NumberingSchemesTable,
  type SubjectEventsTable,
  type SubjectItemsTable,
  type SubjectsTable,
  type UnitsTable,
  type SourcesTable,
  type SourceRolesTable,
  type SourceReadsTable,
  type AccountsTable,
  type MissingReportsTable,
  type MissingReportReadsTable,
  type MissingLinkReviewsTable,
  type MissingSubjectEventsTable,
  type SubjectPmTable,
  type PersonKeysTable,
  type DeliveriesTable,
  type IndexTable,
  type ItemsTable,
  type ObjectsTable,
  type Row,
} from './schema.js';

const { sql } = kysely;

type Db = Kysely<Database> | Transaction<Database>;

/** How many ids the server's kept item and subject lists hold in all (about 100 bytes each). */
const LIST_CACHE_ROWS = 500_000;
/** At most this many object digests are remembered as present (existingObjects). */
const KNOWN_OBJECTS_MAX = 100_000;

/** What `custody items --format` prints of an item (listItemColumns). */
const ITEM_TABLE_COLUMNS = [
  'id',
  'name',
  'relative_path',
  'delivery_id',
  'sha256',
  'size',
  'media_type',
  'received_at',
] as const;
export type ItemTableColumn = (typeof ITEM_TABLE_COLUMNS)[number];

/**
 * The archive's index: deliveries, objects, items, ledger entries, withdrawals. Written only
 * through ledger mutations (`applyEntries`), in one transaction with the ledger high-water mark.
 */
export class ArchiveIndexRepository {
  /** The server's item list and audited views (filters, paging). */
  readonly queries: ItemQueryRepository;

  private readonly generations = new WriteGenerations();
  private readonly soleWriter: boolean;
  private readonly postgres: boolean;
  /** The ledger size this sole writer last committed to the index (undefined: ask the database). */
  private knownLedgerSize: number | undefined;
  /** Objects this sole writer found in the index, at the objects table's write generation. */
  private knownObjects: { generation: string; sha256s: Set<string> } = { generation: '', sha256s: new Set() };
  private accounts: { generation: string; rows: Map<string, Promise<AccountsTable | undefined>> } = {
    generation: '',
    rows: new Map(),
  };

  /**
   * `soleWriter`: this handle is the index's one writer for its lifetime (the server, holding the
   * writer lock), so its own writes are the only ones and the item and subject lists it derives
   * can be kept until it writes a table they read (list-cache.ts). Readers never keep them.
   */
  constructor(
    private readonly db: Kysely<Database>,
    opts: { soleWriter?: boolean; dialect?: 'sqlite' | 'postgres' } = {},
  ) {
    this.soleWriter = opts.soleWriter === true;
    this.postgres = opts.dialect === 'postgres';
    this.queries = new ItemQueryRepository(
      db,
      opts.soleWriter === true
        ? { lists: new ListCache(LIST_CACHE_ROWS), generations: this.generations }
        : null,
    );
  }

  /** Number of ledger entries the index reflects (the sole writer remembers what it wrote last). */
  async ledgerSize(): Promise<number> {
    if (this.soleWriter && this.knownLedgerSize !== undefined) return this.knownLedgerSize;
    const row = await this.db
      .selectFrom('meta')
      .select('value')
      .where('key', '=', 'ledger_size')
      .executeTakeFirst();
    return row === undefined ? 0 : Number(row.value);
  }

  /**
   * The ledger size at the last entry that changed what the near-duplicates and the indicators
   * read (schema.ts, MarksTable: its seq + 1; 0 when no entry has). Their caches are keyed on it.
   * As trustworthy as the rest of the index: projected from the ledger, compared by `verify`.
   */
  async analysisInputsSize(): Promise<number> {
    const row = await this.db
      .selectFrom('marks')
      .select('seq')
      .where('name', '=', ANALYSIS_INPUTS_MARK)
      .executeTakeFirst();
    return row === undefined ? 0 : Number(row.seq) + 1;
  }

  /**
   * A derived value kept beside the index (a cache, never part of the record): the caller checks
   * what it reads, since anyone with the folder can edit it. Not for keys the index owns.
   */
  async getDerived(key: string): Promise<string | undefined> {
    if (key === 'ledger_size') throw new Error('ledger_size is not a derived value');
    const row = await this.db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async putDerived(key: string, value: string): Promise<void> {
    if (key === 'ledger_size') throw new Error('ledger_size is not a derived value');
    await this.db
      .insertInto('meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /**
   * Whether `applyEntries` may run while the entries are still being appended (`commitAfter`):
   * PostgreSQL, whose transaction has a connection of its own, invisible to every other query
   * until it commits. SQLite's one connection would hold every read of the server behind it.
   */
  get writesBesideAppend(): boolean {
    return this.postgres;
  }

  /**
   * Applies the mutations of entries up to `newLedgerSize`, atomically. With `commitAfter` (only
   * where writesBesideAppend), the transaction writes while the entries are being appended, and
   * commits only once `commitAfter` resolves (the entries are durable): if it rejects, nothing is
   * committed. The index never gets ahead of the ledger.
   */
  async applyEntries(
    mutations: readonly Mutation[],
    newLedgerSize: number,
    opts: { commitAfter?: PromiseLike<unknown> } = {},
  ): Promise<void> {
    if (opts.commitAfter !== undefined && !this.writesBesideAppend)
      throw new Error('this index applies entries only once they are appended');
    this.knownLedgerSize = undefined;
    try {
      await this.inTransaction(async (trx) => {
        // What the ledger holds durably, the index may lose to a crash: the next writer replays
        // the ledger from the index's ledger_size, which moves in the same transaction. As SQLite's
        // synchronous=NORMAL (connection.adapter.ts), PostgreSQL then need not wait for its WAL
        // flush before the request is answered. Only here: account_passwords, which no ledger
        // entry carries, are committed synchronously.
        if (this.postgres) await sql`set local synchronous_commit = off`.execute(trx);
        for (const step of batchedSteps(mutations)) await applyStep(trx, step);
        await setLedgerSize(trx, newLedgerSize);
        await opts.commitAfter;
      });
      this.knownLedgerSize = newLedgerSize;
    } finally {
      // Also after a failure: whatever was written is rolled back, and a needless bump costs one list.
      this.generations.bump(mutations.map((m) => m.table));
    }
  }

  /**
   * A controlled transaction, so that the original error survives: on a full disk SQLite rolls
   * back by itself, and a second ROLLBACK would fail and hide why.
   */
  private async inTransaction(fn: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
    const trx = await this.db.startTransaction().execute();
    try {
      await fn(trx);
      await trx.commit().execute();
    } catch (e) {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      throw asDbError(e);
    }
  }

  /** Replaces the whole index with `rows` (rebuild), atomically. */
  async replaceAll(
    rows: ReadonlyMap<IndexTable, ReadonlyMap<string, Row>>,
    ledgerSize: number,
  ): Promise<void> {
    await this.inTransaction(async (trx) => {
      for (const table of Object.keys(INDEX_TABLES) as IndexTable[]) {
        await trx.deleteFrom(table).execute();
        const all = [...(rows.get(table)?.values() ?? [])];
        for (let i = 0; i < all.length; i += 200) {
          await trx
            .insertInto(table)
            .values(all.slice(i, i + 200))
            .execute();
        }
      }
      // The derived values (caches) were computed from the index being replaced: they go with it,
      // so that one computed from an edited index does not outlive the rebuild that repairs it.
      await trx.deleteFrom('meta').where('key', '<>', 'ledger_size').execute();
      await setLedgerSize(trx, ledgerSize);
    }).finally(() => {
      this.knownLedgerSize = undefined;
      this.generations.bumpAll();
    });
  }

  /** Every row of a table, ordered by primary key, values as stored. */
  async dumpTable(table: IndexTable): Promise<Row[]> {
    const pk = INDEX_TABLES[table];
    return await this.db
      .selectFrom(table)
      .selectAll()
      .orderBy(pk as never)
      .execute();
  }

  async findItemsByOrigin(
    deliveryId: string,
    originKey: string,
  ): Promise<Pick<ItemsTable, 'id' | 'sha256' | 'media_type'>[]> {
    return this.db
      .selectFrom('items')
      .select(['id', 'sha256', 'media_type'])
      .where('delivery_id', '=', deliveryId)
      .where('origin_key', '=', originKey)
      .execute();
  }

  /**
   * A delivery's items by origin, in one query, for a resumed intake to recognise what it already
   * received without a lookup per file; null when the delivery holds more than `limit` items.
   */
  async itemsOfDeliveryByOrigin(
    deliveryId: string,
    limit: number,
  ): Promise<Pick<ItemsTable, 'id' | 'sha256' | 'media_type' | 'origin_key'>[] | null> {
    const rows = await this.db
      .selectFrom('items')
      .select(['id', 'sha256', 'media_type', 'origin_key'])
      .where('delivery_id', '=', deliveryId)
      .limit(limit + 1)
      .execute();
    return rows.length > limit ? null : rows;
  }

  async getItem(id: string): Promise<ItemsTable | undefined> {
    return this.db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async itemsBySha256(sha256: string): Promise<ItemsTable[]> {
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('sha256', '=', sha256)
      .orderBy('seq')
      .execute();
  }

  async listItems(
    filter: { deliveryId?: string; limit?: number; offset?: number } = {},
  ): Promise<ItemsTable[]> {
    let q = this.db.selectFrom('items').selectAll().orderBy('seq');
    if (filter.deliveryId !== undefined) q = q.where('delivery_id', '=', filter.deliveryId);
    if (filter.limit !== undefined) q = q.limit(filter.limit).offset(filter.offset ?? 0);
    return q.execute();
  }

  /** The columns of `custody items --format` only, in receipt order: a 50,000-row table reads half the bytes. */
  async listItemColumns(
    filter: { deliveryId?: string } = {},
  ): Promise<Pick<ItemsTable, ItemTableColumn>[]> {
    let q = this.db.selectFrom('items').select(ITEM_TABLE_COLUMNS).orderBy('seq');
    if (filter.deliveryId !== undefined) q = q.where('delivery_id', '=', filter.deliveryId);
    return q.execute();
  }

  /**
   * Items by id, by SHA-256 or by path relative to their delivery's root, many at once: one query
   * per 1,000 values, so an import of thousands of rows costs a handful of round trips.
   */
  async itemsWhereIn(
    column: 'id' | 'sha256' | 'relative_path',
    values: readonly string[],
  ): Promise<Pick<ItemsTable, 'id' | 'delivery_id' | 'relative_path' | 'sha256' | 'seq'>[]> {
    const out: Pick<ItemsTable, 'id' | 'delivery_id' | 'relative_path' | 'sha256' | 'seq'>[] = [];
    const unique = [...new Set(values)];
    for (let i = 0; i < unique.length; i += 1000)
      out.push(
        ...(await this.db
          .selectFrom('items')
          .select(['id', 'delivery_id', 'relative_path', 'sha256', 'seq'])
          .where(column, 'in', unique.slice(i, i + 1000))
          .execute()),
      );
    return out.sort((a, b) => a.seq - b.seq);
  }

  /** Which subject each of these items shows, many at once (see itemsWhereIn). */
  async subjectsOfItems(itemIds: readonly string[]): Promise<SubjectItemsTable[]> {
    const out: SubjectItemsTable[] = [];
    const unique = [...new Set(itemIds)];
    for (let i = 0; i < unique.length; i += 1000)
      out.push(
        ...(await this.db
          .selectFrom('subject_items')
          .selectAll()
          .where('item_id', 'in', unique.slice(i, i + 1000))
          .execute()),
      );
    return out;
  }

  async countItems(deliveryId?: string): Promise<number> {
    let q = this.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n'));
    if (deliveryId !== undefined) q = q.where('delivery_id', '=', deliveryId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async countObjects(): Promise<number> {
    const r = await this.db
      .selectFrom('objects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async getDelivery(id: string): Promise<DeliveriesTable | undefined> {
    return this.db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listDeliveries(): Promise<DeliveriesTable[]> {
    return this.db.selectFrom('deliveries').selectAll().orderBy('opened_seq').execute();
  }

  /** An interrupted run over the same roots from the same source, to resume. */
  async findOpenDelivery(source: string, rootsJson: string): Promise<DeliveriesTable | undefined> {
    return this.db
      .selectFrom('deliveries')
      .selectAll()
      .where('source', '=', source)
      .where('roots_json', '=', rootsJson)
      .where('closed_seq', 'is', null)
      .orderBy('opened_seq', 'desc')
      .executeTakeFirst();
  }

  async getAnalysis(sha256: string): Promise<AnalysesTable | undefined> {
    return this.db
      .selectFrom('analyses')
      .selectAll()
      .where('sha256', '=', sha256)
      .executeTakeFirst();
  }

  async listAnalyses(): Promise<AnalysesTable[]> {
    return this.db.selectFrom('analyses').selectAll().orderBy('sha256').execute();
  }

  /** Every item's receipt (what the indicators read of it), in ledger order: a narrower read. */
  async listItemReceipts(): Promise<
    Pick<ItemsTable, 'id' | 'sha256' | 'name' | 'relative_path' | 'delivery_id'>[]
  > {
    return this.db
      .selectFrom('items')
      .select(['id', 'sha256', 'name', 'relative_path', 'delivery_id'])
      .orderBy('seq')
      .execute();
  }

  /** Every analysis without its hash variants and lists (the indicators' facts): a narrower read. */
  async listAnalysisFacts(): Promise<AnalysisFactsRow[]> {
    return this.db.selectFrom('analyses').select(ANALYSIS_FACT_COLUMNS).orderBy('sha256').execute();
  }

  /** The digest, make and model of each analysis that names a model: a narrow scan (the indicators' model peers). */
  async listAnalysisModels(): Promise<Pick<AnalysesTable, 'sha256' | 'make' | 'model'>[]> {
    return this.db
      .selectFrom('analyses')
      .select(['sha256', 'make', 'model'])
      .where('model', 'is not', null)
      .orderBy('sha256')
      .execute();
  }

  /**
   * What the indicators read of these objects only (as listAnalysisFacts, listItemReceipts and
   * listObjects read of all): analyses in digest order, item receipts in ledger order, objects.
   */
  async indicatorFactsOf(sha256s: readonly string[]): Promise<{
    analyses: AnalysisFactsRow[];
    items: Pick<ItemsTable, 'id' | 'sha256' | 'name' | 'relative_path' | 'delivery_id'>[];
    objects: ObjectsTable[];
  }> {
    const analyses: AnalysisFactsRow[] = [];
    const items: Pick<ItemsTable, 'id' | 'seq' | 'sha256' | 'name' | 'relative_path' | 'delivery_id'>[] = [];
    const objects: ObjectsTable[] = [];
    const wanted = [...new Set(sha256s)];
    for (let i = 0; i < wanted.length; i += 500) {
      const part = wanted.slice(i, i + 500);
      analyses.push(
        ...(await this.db.selectFrom('analyses').select(ANALYSIS_FACT_COLUMNS).where('sha256', 'in', part).execute()),
      );
      items.push(
        ...(await this.db
          .selectFrom('items')
          .select(['id', 'seq', 'sha256', 'name', 'relative_path', 'delivery_id'])
          .where('sha256', 'in', part)
          .execute()),
      );
      objects.push(...(await this.db.selectFrom('objects').selectAll().where('sha256', 'in', part).execute()));
    }
    analyses.sort((x, y) => (x.sha256 < y.sha256 ? -1 : x.sha256 > y.sha256 ? 1 : 0));
    items.sort((x, y) => x.seq - y.seq);
    return {
      analyses,
      items: items.map(({ id, sha256, name, relative_path, delivery_id }) => ({ id, sha256, name, relative_path, delivery_id })),
      objects,
    };
  }

  async decisionsFor(sha256: string): Promise<DecisionsTable[]> {
    return this.db
      .selectFrom('decisions')
      .selectAll()
      .where('objects_json', 'like', `%"${sha256}"%`)
      .orderBy('seq')
      .execute();
  }

  async listObjects(): Promise<ObjectsTable[]> {
    return this.db.selectFrom('objects').selectAll().orderBy('sha256').execute();
  }

  async listSchemes(): Promise<NumberingSchemesTable[]> {
    return this.db.selectFrom('numbering_schemes').selectAll().orderBy('id').execute();
  }

  async getSubject(id: string): Promise<SubjectsTable | undefined> {
    return this.db.selectFrom('subjects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listSubjects(): Promise<SubjectsTable[]> {
    return this.db.selectFrom('subjects').selectAll().orderBy('created_seq').execute();
  }

  async subjectsByNumber(schemeId: string, normalised: string): Promise<SubjectsTable[]> {
    return this.db
      .selectFrom('subjects')
      .selectAll()
      .where('scheme_id', '=', schemeId)
      .where('number_normalised', '=', normalised)
      .execute();
  }

  async subjectItems(subjectId: string): Promise<SubjectItemsTable[]> {
    return this.db
      .selectFrom('subject_items')
      .selectAll()
      .where('subject_id', '=', subjectId)
      .orderBy('item_id')
      .execute();
  }

  async subjectOfItem(itemId: string): Promise<SubjectItemsTable | undefined> {
    return this.db
      .selectFrom('subject_items')
      .selectAll()
      .where('item_id', '=', itemId)
      .executeTakeFirst();
  }

  async subjectEvents(subjectId: string): Promise<SubjectEventsTable[]> {
    return this.db
      .selectFrom('subject_events')
      .selectAll()
      .where('subject_id', '=', subjectId)
      .orderBy('seq')
      .execute();
  }

  async getSource(codename: string): Promise<SourcesTable | undefined> {
    return this.db
      .selectFrom('sources')
      .selectAll()
      .where('codename', '=', codename)
      .executeTakeFirst();
  }

  async listSources(): Promise<SourcesTable[]> {
    return this.db.selectFrom('sources').selectAll().orderBy('codename').execute();
  }

  async getSourceRole(actor: string): Promise<SourceRolesTable | undefined> {
    return this.db
      .selectFrom('source_roles')
      .selectAll()
      .where('actor', '=', actor)
      .executeTakeFirst();
  }

  async listAccounts(): Promise<AccountsTable[]> {
    return this.db.selectFrom('accounts').selectAll().orderBy('created_seq').execute();
  }

  /**
   * One account's row (the server reads it on each request: still enabled, same role). The sole
   * writer keeps the rows it read until it next writes the accounts table.
   */
  async getAccount(accountId: string): Promise<AccountsTable | undefined> {
    const read = () =>
      this.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
    if (!this.soleWriter) return read();
    const generation = this.generations.of(['accounts']);
    if (this.accounts.generation !== generation) this.accounts = { generation, rows: new Map() };
    const rows = this.accounts.rows;
    let row = rows.get(accountId);
    if (row === undefined) {
      row = read();
      rows.set(accountId, row);
      row.catch(() => rows.delete(accountId));
    }
    return row;
  }

  /** Every person key, enrolment order (issue 12). */
  async listPersonKeys(): Promise<PersonKeysTable[]> {
    return this.db.selectFrom('person_keys').selectAll().orderBy('enrol_seq').execute();
  }

  async getAccountPassword(accountId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('account_passwords')
      .select('hash')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row?.hash;
  }

  /** The one index write not projected from the ledger: a password hash (see AccountPasswordsTable). */
  async setAccountPassword(accountId: string, hash: string): Promise<void> {
    await this.db
      .insertInto('account_passwords')
      .values({ account_id: accountId, hash })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ hash }))
      .execute();
  }

  async listSourceReads(): Promise<SourceReadsTable[]> {
    return this.db.selectFrom('source_reads').selectAll().orderBy('seq').execute();
  }

  async listMissingReports(): Promise<MissingReportsTable[]> {
    return this.db
      .selectFrom('missing_reports')
      .selectAll()
      .orderBy('recorded_seq')
      .orderBy('id')
      .execute();
  }

  async getMissingReport(id: string): Promise<MissingReportsTable | undefined> {
    return this.db
      .selectFrom('missing_reports')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async listMissingReportReads(): Promise<MissingReportReadsTable[]> {
    return this.db.selectFrom('missing_report_reads').selectAll().orderBy('seq').execute();
  }

  async listMissingLinkReviews(): Promise<MissingLinkReviewsTable[]> {
    return this.db.selectFrom('missing_link_reviews').selectAll().orderBy('seq').execute();
  }

  /** A report's report↔subject events (reviews, levels, viewings), in ledger order. */
  async listMissingSubjectEvents(reportId: string): Promise<MissingSubjectEventsTable[]> {
    return this.db.selectFrom('missing_subject_events').selectAll().where('report_id', '=', reportId).orderBy('seq').execute();
  }

  async getSubjectPm(subjectId: string): Promise<SubjectPmTable | undefined> {
    return this.db
      .selectFrom('subject_pm')
      .selectAll()
      .where('subject_id', '=', subjectId)
      .executeTakeFirst();
  }

  async listSubjectPm(): Promise<SubjectPmTable[]> {
    return this.db.selectFrom('subject_pm').selectAll().orderBy('subject_id').execute();
  }

  async listUnits(): Promise<UnitsTable[]> {
    return this.db
      .selectFrom('units')
      .selectAll()
      .orderBy('code')
      .orderBy('code_text')
      .orderBy('id')
      .execute();
  }

  async getObject(sha256: string): Promise<ObjectsTable | undefined> {
    return this.db
      .selectFrom('objects')
      .selectAll()
      .where('sha256', '=', sha256)
      .executeTakeFirst();
  }

  /**
   * Which of `sha256s` are objects of the index, in one query. The sole writer remembers the
   * objects it found (at most KNOWN_OBJECTS_MAX) until it next writes the objects table, so a
   * request naming objects it has seen (a decision, at every request) asks the database nothing.
   */
  async existingObjects(sha256s: readonly string[]): Promise<Set<string>> {
    if (sha256s.length === 0) return new Set();
    let known: Set<string> | null = null;
    if (this.soleWriter) {
      const generation = this.generations.of(['objects']);
      if (this.knownObjects.generation !== generation) this.knownObjects = { generation, sha256s: new Set() };
      known = this.knownObjects.sha256s;
      if (sha256s.every((h) => known!.has(h))) return new Set(sha256s);
    }
    const rows = await this.db
      .selectFrom('objects')
      .select('sha256')
      .where('sha256', 'in', [...sha256s])
      .execute();
    const found = new Set(rows.map((r) => r.sha256));
    if (known !== null) {
      if (known.size + found.size > KNOWN_OBJECTS_MAX) known.clear();
      for (const h of found) known.add(h);
    }
    return found;
  }

  async withdrawnUnpurged(): Promise<ObjectsTable[]> {
    return (await this.withdrawnObjects()).filter((o) => o.purged_seq === null);
  }

  async withdrawnObjects(): Promise<ObjectsTable[]> {
    return this.db
      .selectFrom('objects')
      .selectAll()
      .where('withdrawn_seq', 'is not', null)
      .orderBy('sha256')
      .execute();
  }

  async entriesNaming(itemIds: readonly string[]): Promise<number[]> {
    if (itemIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('items')
      .select('seq')
      .where('id', 'in', itemIds)
      .execute();
    return rows.map((r) => Number(r.seq));
  }
}

/** At most this many values in one multi-row insert (SQLite allows 32,766 parameters, PostgreSQL 65,535). */
const MAX_VALUES_PER_INSERT = 10_000;

type Step = Mutation | { op: 'insertMany' | 'insertManyIfAbsent'; table: IndexTable; rows: Row[] };

/**
 * The mutations of one transaction as few statements as keep their effect: each table's
 * mutations in their order, and a run of inserts of the same columns into one table as one
 * multi-row insert. (A group commit of twenty decisions is then three statements, not forty-one:
 * on PostgreSQL each is a round trip.) Tables are taken one after another, which reorders
 * mutations of different tables only: the index has no foreign keys and no triggers
 * (migrations.ts), so no row of one table depends on another's being there first.
 */
export function batchedSteps(mutations: readonly Mutation[]): Step[] {
  const byTable = new Map<IndexTable, Mutation[]>();
  for (const m of mutations) {
    const list = byTable.get(m.table);
    if (list === undefined) byTable.set(m.table, [m]);
    else list.push(m);
  }
  const steps: Step[] = [];
  for (const [table, all] of byTable) {
    const list = withoutOverwrittenUpserts(table, all);
    let run: { op: 'insertMany' | 'insertManyIfAbsent'; table: IndexTable; rows: Row[]; columns: string } | null = null;
    for (const m of list) {
      const many = m.op === 'insert' ? 'insertMany' : m.op === 'insertIfAbsent' ? 'insertManyIfAbsent' : null;
      const columns = many === null ? '' : Object.keys((m as { row: Row }).row).join(',');
      const perRow = columns.split(',').length;
      if (
        run !== null &&
        many === run.op &&
        columns === run.columns &&
        (run.rows.length + 1) * perRow <= MAX_VALUES_PER_INSERT
      ) {
        run.rows.push((m as { row: Row }).row);
        continue;
      }
      if (run !== null) steps.push(run.rows.length === 1 ? single(run) : run);
      run = many === null ? null : { op: many, table: m.table, rows: [(m as { row: Row }).row], columns };
      if (run === null) steps.push(m);
    }
    if (run !== null) steps.push(run.rows.length === 1 ? single(run) : run);
  }
  return steps;
}

/**
 * One table's mutations without each upsert that the next one of the table overwrites whole (an
 * upsert of the same key and the same columns): a batch of ingestions moves the analysis mark
 * (schema.ts, MarksTable) once, not once per entry.
 */
function withoutOverwrittenUpserts(table: IndexTable, list: readonly Mutation[]): readonly Mutation[] {
  const pk = INDEX_TABLES[table];
  const columns = (m: Mutation): string => ('row' in m ? Object.keys(m.row).join(',') : '');
  return list.filter((m, i) => {
    const next = list[i + 1];
    return !(
      m.op === 'upsert' &&
      next?.op === 'upsert' &&
      next.row[pk] === m.row[pk] &&
      columns(next) === columns(m)
    );
  });
}

function single(run: { op: 'insertMany' | 'insertManyIfAbsent'; table: IndexTable; rows: Row[] }): Mutation {
  return { op: run.op === 'insertMany' ? 'insert' : 'insertIfAbsent', table: run.table, row: run.rows[0]! };
}

async function applyStep(trx: Db, step: Step): Promise<void> {
  if (!('rows' in step)) return applyOne(trx, step);
  const insert = trx.insertInto(step.table).values(step.rows);
  if (step.op === 'insertMany') await insert.execute();
  else await insert.onConflict((oc) => oc.column(INDEX_TABLES[step.table]).doNothing()).execute();
}

async function applyOne(trx: Db, m: Mutation): Promise<void> {
  switch (m.op) {
    case 'insert':
      await trx.insertInto(m.table).values(m.row).execute();
      return;
    case 'insertIfAbsent':
      await trx
        .insertInto(m.table)
        .values(m.row)
        .onConflict((oc) => oc.column(INDEX_TABLES[m.table]).doNothing())
        .execute();
      return;
    case 'upsert':
      await trx
        .insertInto(m.table)
        .values(m.row)
        .onConflict((oc) => oc.column(INDEX_TABLES[m.table]).doUpdateSet(m.row))
        .execute();
      return;
    case 'delete':
      await trx
        .deleteFrom(m.table)
        .where(INDEX_TABLES[m.table] as never, '=', m.key as never)
        .execute();
      return;
    case 'update':
      await trx
        .updateTable(m.table)
        .set(m.set as never)
        .where(INDEX_TABLES[m.table] as never, '=', m.key as never)
        .execute();
      return;
  }
}

async function setLedgerSize(trx: Db, size: number): Promise<void> {
  await trx
    .insertInto('meta')
    .values({ key: 'ledger_size', value: String(size) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(size) }))
    .execute();
}

function asDbError(e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  const text = `${typeof code === 'string' ? code : ''} ${e instanceof Error ? e.message : ''}`;
  if (/SQLITE_FULL|disk is full|53100|No space left/i.test(text)) {
    return new DbError(
      'DB_OUT_OF_SPACE',
      'the database is out of space; the ledger holds what was received and the index will catch up once space is freed',
      { cause: e },
    );
  }
  return e;
}

/** The analyses' columns the authenticity indicators read (listAnalysisFacts). */
export const ANALYSIS_FACT_COLUMNS = [
  'sha256',
  'seq',
  'make',
  'model',
  'body_serial',
  'software',
  'xmp_creator_tool',
  'xmp_history_json',
  'date_time_original',
  'create_date',
  'modify_date',
  'offset_time_original',
  'sub_sec_time_original',
  'exif_present',
  'width',
  'height',
  'orientation',
  'quant_digest',
  'jpeg_quality',
  'pdq',
  'thumbnail_pdq',
] as const;

export type AnalysisFactsRow = Pick<AnalysesTable, (typeof ANALYSIS_FACT_COLUMNS)[number]>;
