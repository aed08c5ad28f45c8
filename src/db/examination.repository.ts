import type { Kysely } from 'kysely';
import type {
  Database,
  ExamAdjudicationsTable,
  ExamAssignmentsTable,
  ExamSubmissionsTable,
  DecisionsTable,
  ItemsTable,
  SampleMembersTable,
  SamplesTable,
  SubjectItemsTable,
} from './schema.js';

/**
 * Opens a plan's sealed case ids (code → id; a code that does not open is left out). Given by the
 * composition root when it holds the examination KEK and the links may be shown: never for an
 * export, whose bag names cases by code until the plan closes.
 */
export type CaseLinkOpener = (sample: SamplesTable, sealed: readonly { code: string; sealed: string }[]) => Promise<Map<string, string>>;

/** Read side of sampling plans and examinations; written only through ledger mutations. */
export class ExaminationRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly opener: CaseLinkOpener | null = null,
  ) {}

  async listSamples(): Promise<SamplesTable[]> {
    return this.db.selectFrom('samples').selectAll().orderBy('frame_seq').execute();
  }

  /** By id or by name. */
  async findSample(idOrName: string): Promise<SamplesTable | undefined> {
    return this.db
      .selectFrom('samples')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
      .executeTakeFirst();
  }

  async members(sampleId: string): Promise<SampleMembersTable[]> {
    return this.db.selectFrom('sample_members').selectAll().where('sample_id', '=', sampleId).orderBy('position').execute();
  }

  // Rows of a plan assigned with sealed case ids (version 2) are keyed by code in the tables, as
  // the ledger names them; they are read back with case_id = the subject or item id wherever the
  // link is known here (published by the close entry, or kept by the writer), so the services
  // work with ids either way. An unknown link (a snapshot of an open plan) leaves the code.

  async assignments(sampleId: string, caseId?: string): Promise<ExamAssignmentsTable[]> {
    const links = await this.caseLinks(sampleId);
    let q = this.db.selectFrom('exam_assignments').selectAll().where('sample_id', '=', sampleId);
    if (links.size > 0) return linked(await q.execute(), links, caseId);
    if (caseId !== undefined) q = q.where('case_id', '=', caseId);
    return q.orderBy('case_id').orderBy('examiner').execute();
  }

  async submissions(sampleId: string, caseId?: string): Promise<ExamSubmissionsTable[]> {
    const links = await this.caseLinks(sampleId);
    let q = this.db.selectFrom('exam_submissions').selectAll().where('sample_id', '=', sampleId);
    if (links.size > 0) return linked(await q.execute(), links, caseId);
    if (caseId !== undefined) q = q.where('case_id', '=', caseId);
    return q.orderBy('case_id').orderBy('examiner').execute();
  }

  async adjudications(sampleId: string, caseId?: string): Promise<ExamAdjudicationsTable[]> {
    const links = await this.caseLinks(sampleId);
    let q = this.db.selectFrom('exam_adjudications').selectAll().where('sample_id', '=', sampleId);
    if (links.size > 0) return linked(await q.execute(), links, caseId);
    if (caseId !== undefined) q = q.where('case_id', '=', caseId);
    return q.orderBy('case_id').execute();
  }

  /**
   * code → subject or item id, for a plan assigned with sealed case ids: the links its close
   * entry published, else those the opener (the composition root's, holding the examination
   * KEK) opens from the sealed ids the ledger recorded. Nothing but the ledger and the key: an
   * edited index cannot relink a case.
   */
  async caseLinks(sampleId: string): Promise<Map<string, string>> {
    const published = await this.db.selectFrom('exam_case_links').select(['code', 'member_id']).where('sample_id', '=', sampleId).execute();
    if (published.length > 0) return new Map(published.map((l) => [l.code, l.member_id]));
    if (this.opener === null) return new Map();
    const sealed = await this.db.selectFrom('exam_assignments').select(['case_id', 'sealed_case']).distinct().where('sample_id', '=', sampleId).where('sealed_case', 'is not', null).execute();
    if (sealed.length === 0) return new Map();
    const sample = await this.db.selectFrom('samples').selectAll().where('id', '=', sampleId).executeTakeFirst();
    if (sample === undefined) return new Map();
    return this.opener(sample, sealed.map((r) => ({ code: r.case_id, sealed: r.sealed_case ?? '' })));
  }

  async listDecisions(): Promise<DecisionsTable[]> {
    return this.db.selectFrom('decisions').selectAll().orderBy('seq').execute();
  }

  /** Every item → subject link (for item frames, breakdowns and case forms). */
  async allSubjectItems(): Promise<SubjectItemsTable[]> {
    return this.db.selectFrom('subject_items').selectAll().orderBy('item_id').execute();
  }

  /** Items not withdrawn, with their object digest (item frames are deduplicated by object). */
  async framableItems(): Promise<Pick<ItemsTable, 'id' | 'sha256' | 'media_type' | 'name'>[]> {
    return this.db
      .selectFrom('items')
      .innerJoin('objects', 'objects.sha256', 'items.sha256')
      .select(['items.id as id', 'items.sha256 as sha256', 'items.media_type as media_type', 'items.name as name'])
      .where('objects.withdrawn_seq', 'is', null)
      .where('items.media_type', 'like', 'image/%')
      .orderBy('items.id')
      .execute();
  }
}

/** Rows keyed by code read back by subject or item id (see above), filtered and ordered as the SQL would. */
function linked<T extends { case_id: string; examiner?: string }>(rows: readonly T[], links: ReadonlyMap<string, string>, caseId?: string): T[] {
  const out = rows.map((r) => ({ ...r, case_id: links.get(r.case_id) ?? r.case_id })).filter((r) => caseId === undefined || r.case_id === caseId);
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return out.sort((a, b) => cmp(a.case_id, b.case_id) || cmp(a.examiner ?? '', b.examiner ?? ''));
}
