// A subject as `custody subject show --json` prints it and the server's subject routes return it.
import type { SubjectEventsTable, SubjectItemsTable, SubjectsTable } from '../../db/index.js';
import { SubjectError } from './subjects.service.js';

/** The index's reads a subject view needs. */
export interface SubjectReads {
  getSubject(id: string): Promise<SubjectsTable | undefined>;
  subjectItems(subjectId: string): Promise<SubjectItemsTable[]>;
  subjectEvents(subjectId: string): Promise<SubjectEventsTable[]>;
}

/** A subject row with its fields parsed (as `subject list --json`). */
export function subjectView(s: SubjectsTable) {
  return { ...s, fields: JSON.parse(s.fields_json) as unknown, fields_json: undefined };
}

/** One subject with its items and history (SUBJECT_NOT_FOUND when there is none). */
export async function subjectDetail(index: SubjectReads, subjectId: string) {
  const s = await index.getSubject(subjectId);
  if (s === undefined) throw new SubjectError('SUBJECT_NOT_FOUND', `no subject ${subjectId}`);
  const items = (await index.subjectItems(subjectId)).map((l) => l.item_id);
  const history = await index.subjectEvents(subjectId);
  return { ...subjectView(s), items, history };
}
