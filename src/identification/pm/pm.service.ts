// Post-mortem (PM) identification data of a subject: what is seen of the body (build, marks,
// dental notes, clothing…), in the identification codebook's terms. Each change is a ledger entry
// carrying the subject's whole PM record after the change, the codebook version and digest, and
// the reason; the index keeps the latest record (subject_pm).
import { hint } from '../../core/index.js';
import { IDENTIFICATION_CODEBOOK_VERSION, identificationCodebookDigest } from '../codebook/identification-codebook.js';
import { parseIdentificationRecord, type IdentificationRecord } from '../codebook/record.js';
import { IdentificationError } from '../errors.js';
import type { PmPorts } from '../reports/ports.js';

export interface PmView {
  subject: string;
  pm: IdentificationRecord;
  codebook: { version: string; digest: string } | null;
  seq: number | null;
}

export async function showPm(ports: PmPorts, subjectId: string): Promise<PmView> {
  await needSubject(ports, subjectId);
  const row = await ports.getSubjectPm(subjectId);
  return row === undefined
    ? { subject: subjectId, pm: {}, codebook: null, seq: null }
    : { subject: subjectId, pm: JSON.parse(row.pm_json) as IdentificationRecord, codebook: { version: row.codebook_version, digest: row.codebook_digest }, seq: Number(row.seq) };
}

/**
 * Sets PM fields of a subject (an empty value clears one); the other fields keep their values.
 * Every problem is reported at once (PM_INVALID, details.errors naming each field); nothing is written then.
 */
export async function recordPm(ports: PmPorts, subjectId: string, fields: Readonly<Record<string, unknown>>, reason: string): Promise<PmView> {
  if (reason.trim() === '') throw new IdentificationError('PM_INVALID', 'say why the PM record changes: it is recorded', { details: hint({ field: 'reason' }) });
  if (Object.keys(fields).length === 0) throw new IdentificationError('PM_INVALID', 'no PM field given');
  await needSubject(ports, subjectId);
  const { record, cleared, issues } = parseIdentificationRecord('pm', fields);
  if (issues.length > 0)
    throw new IdentificationError('PM_INVALID', `the PM record has ${issues.length} problem(s): ${issues.map((i) => `${i.column}: ${i.reason}`).join('; ')}`, {
      details: { errors: issues.map((i) => ({ row: 1, ...i })) },
    });
  const before = (await showPm(ports, subjectId)).pm;
  const pm: IdentificationRecord = { ...before, ...record };
  for (const c of cleared) delete pm[c];
  const codebook = { version: IDENTIFICATION_CODEBOOK_VERSION, digest: identificationCodebookDigest() };
  const [seq = -1] = await ports.commit([{ action: 'pm.record', subject: subjectId, reason: reason.trim(), codebook, pm }]);
  return { subject: subjectId, pm, codebook, seq };
}

async function needSubject(ports: PmPorts, id: string): Promise<void> {
  const s = await ports.getSubject(id);
  if (s === undefined) throw new IdentificationError('PM_SUBJECT_NOT_FOUND', `no subject ${id}`);
  if (s.status === 'merged' && s.merged_into !== null)
    throw new IdentificationError('PM_SUBJECT_NOT_FOUND', `subject ${id} was merged into ${s.merged_into}: record its PM data there`);
}
