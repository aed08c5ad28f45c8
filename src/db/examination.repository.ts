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

/** Read side of sampling plans and examinations; written only through ledger mutations. */
export class ExaminationRepository {
  constructor(private readonly db: Kysely<Database>) {}

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

  async assignments(sampleId: string, caseId?: string): Promise<ExamAssignmentsTable[]> {
    let q = this.db.selectFrom('exam_assignments').selectAll().where('sample_id', '=', sampleId);
    if (caseId !== undefined) q = q.where('case_id', '=', caseId);
    return q.orderBy('case_id').orderBy('examiner').execute();
  }

  async submissions(sampleId: string, caseId?: string): Promise<ExamSubmissionsTable[]> {
    let q = this.db.selectFrom('exam_submissions').selectAll().where('sample_id', '=', sampleId);
    if (caseId !== undefined) q = q.where('case_id', '=', caseId);
    return q.orderBy('case_id').orderBy('examiner').execute();
  }

  async adjudications(sampleId: string, caseId?: string): Promise<ExamAdjudicationsTable[]> {
    let q = this.db.selectFrom('exam_adjudications').selectAll().where('sample_id', '=', sampleId);
    if (caseId !== undefined) q = q.where('case_id', '=', caseId);
    return q.orderBy('case_id').execute();
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
