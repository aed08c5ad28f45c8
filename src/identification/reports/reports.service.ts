// Missing-person reports: import (all or nothing), list, show (the contact only through an
// audited read), erase (crypto-shredding). The ledger gets ciphertext and non-identifying
// metadata only (report-seal.ts); the key of each report is a file of its own (report-keys.adapter.ts).
// The reason of a contact read is sealed under the report's own key, so erasing the report erases
// it; an erasure says why by a category from a closed list, with no free text (README,
// "Identification of the missing", says why).
import { canonicalBytes, hint, type JsonValue } from '../../core/index.js';
import type { MissingEraseCategory, MissingReportDetails } from '../../ledger/index.js';
import { UnitRegistry, type RowError } from '../../catalogue/units/index.js';
import type { MissingReportReadsTable, MissingReportsTable } from '../../db/index.js';
import { IDENTIFICATION_CODEBOOK_VERSION, identificationCodebookDigest } from '../codebook/identification-codebook.js';
import { IdentificationError } from '../errors.js';
import type { MissingReportsPorts } from './ports.js';
import { parseReportFields, withoutContact, type ReportContact, type ReportContent } from './report-content.js';
import type { ReportRow } from './report-rows.js';
import { newDataKey, openReport, parseSealed, sealedDigest, sealReport, unwrapDataKey, wrapDataKey, type ReportKeys } from './report-seal.js';

/** Why a report is erased: the closed list of `missing erase --category` (README says when to use each). */
export const MISSING_ERASE_CATEGORIES = ['family-request', 'consent-withdrawn', 'duplicate', 'error', 'legal-order', 'other'] as const satisfies readonly MissingEraseCategory[];

export const ACTION_READ = 'missing.read';

/** The report keys: the report KEK, opened with the report passphrase (MISSING_REPORT_KEK_LOCKED without it). */
function kek(ports: MissingReportsPorts): Promise<ReportKeys> {
  return ports.reportKeys();
}

function needReason(reason: string, what: string): string {
  const r = reason.trim();
  if (r === '') throw new IdentificationError('MISSING_REPORT_INVALID', `say why ${what}: it is recorded`, { details: hint({ field: 'reason' }) });
  return r;
}

export interface ReportImportResult {
  imported: number;
  ids: string[];
  /** Rows whose arresting body names no unit of the registry (kept as the family wrote it). */
  units_unresolved: number;
}

/**
 * Imports reports in one ledger batch, all or nothing: any row with a problem rejects the file
 * (MISSING_REPORT_IMPORT_REJECTED, details.errors naming row and column) and nothing is written.
 * Each report's key file is written before the batch; if the batch fails they are destroyed.
 */
export async function importReports(
  ports: MissingReportsPorts,
  rows: readonly ReportRow[],
  rowErrors: readonly RowError[],
  opts: { org: string | null },
): Promise<ReportImportResult> {
  const k = await kek(ports);
  const units = new UnitRegistry(await ports.listUnits());
  const errors: RowError[] = [...rowErrors];
  const accepted: { org: string; content: ReportContent }[] = [];
  for (const r of rows) {
    const res = parseReportFields(r.input, { org: opts.org, units });
    if ('issues' in res) errors.push(...res.issues.map((i) => ({ row: r.row, ...i })));
    else accepted.push(res);
  }
  errors.sort((a, b) => a.row - b.row);
  if (errors.length > 0)
    throw new IdentificationError('MISSING_REPORT_IMPORT_REJECTED', `nothing imported: ${errors.length} problem(s); fix them`, { details: { errors } });
  const codebook = { version: IDENTIFICATION_CODEBOOK_VERSION, digest: identificationCodebookDigest() };
  const files: { id: string; text: string }[] = [];
  const drafts: MissingReportDetails[] = [];
  for (const a of accepted) {
    const id = ports.newId();
    const dataKey = newDataKey();
    try {
      const { sealed, digest } = sealReport(dataKey, id, a.org, canonicalBytes(a.content));
      files.push({ id, text: wrapDataKey(k.kek, id, digest, dataKey) });
      drafts.push({ action: 'missing.report', report: id, org: a.org, sealed: { ...sealed }, digest, codebook });
    } finally {
      dataKey.fill(0);
    }
  }
  try {
    await ports.keys.writeAll(files);
    await ports.commit(drafts);
  } catch (e) {
    // No entry names them: destroy them, so that no key outlives a failed import.
    for (const f of files) await ports.keys.destroy(f.id).catch(() => undefined);
    throw e;
  }
  const ids = files.map((f) => f.id);
  return { imported: ids.length, ids, units_unresolved: accepted.filter((a) => a.content.unit !== null && a.content.unit.id === null).length };
}

async function findReport(ports: MissingReportsPorts, id: string): Promise<MissingReportsTable> {
  const row = await ports.getReport(id);
  if (row === undefined) throw new IdentificationError('MISSING_REPORT_NOT_FOUND', `no report ${id}`);
  return row;
}

function erasedError(row: MissingReportsTable): IdentificationError {
  return new IdentificationError('MISSING_REPORT_ERASED', `report ${row.id} was erased (ledger entry ${String(row.erased_seq)}): its key is destroyed and no one can read it`, {
    details: { report: row.id, erased_seq: row.erased_seq },
  });
}

/**
 * Runs `use` with a report's data key (zeroed afterwards). Refuses an erased report, a missing key,
 * a key that fails authentication. Notes about the report (reasons, attendees) are sealed under
 * this same key, so that destroying it erases them with the report.
 */
export async function withDataKey<T>(ports: MissingReportsPorts, row: MissingReportsTable, use: (dataKey: Buffer) => T, given?: ReportKeys): Promise<T> {
  if (row.erased_seq !== null) throw erasedError(row);
  const k = given ?? (await kek(ports));
  const text = await ports.keys.read(row.id);
  if (text === null)
    throw new IdentificationError('MISSING_REPORT_KEY_MISSING', `the key of report ${row.id} is missing (keys/reports/${row.id}.key): the report cannot be read; restore the file from a backup`, {
      details: { report: row.id },
    });
  const dataKey = unwrapDataKey(k, row.id, row.digest, text);
  try {
    return use(dataKey);
  } finally {
    dataKey.fill(0);
  }
}

/** Opens a report's content. Refuses an erased report, a missing key, a key or ciphertext that fails authentication. */
export async function openContent(ports: MissingReportsPorts, row: MissingReportsTable, k?: ReportKeys): Promise<ReportContent> {
  if (row.erased_seq !== null) throw erasedError(row);
  const sealed = parseSealed(row.sealed_json);
  if (sealedDigest(sealed) !== row.digest)
    throw new IdentificationError('MISSING_REPORT_KEY_INVALID', `the sealed report ${row.id} in the index does not match its digest`, { details: hint({ remedy: ['verify'] }) });
  return withDataKey(ports, row, (dataKey) => JSON.parse(openReport(dataKey, row.id, row.org, sealed).toString('utf8')) as ReportContent, k);
}

/** Whether the asking organisation may see this report: its own, or one its consent names. */
export function withinConsent(viewerOrg: string | null, reportOrg: string, content: ReportContent): boolean {
  return viewerOrg === null || viewerOrg === reportOrg || content.consent.orgs.includes(viewerOrg);
}

function forbidden(id: string): IdentificationError {
  // Says nothing of the report beyond its existence, which the metadata list shows anyway.
  return new IdentificationError('MISSING_REPORT_FORBIDDEN', `report ${id} is outside your organisation's consent scope`);
}

/** Opens a report for the asking organisation, refusing one outside its consent scope. */
export async function openForViewer(ports: MissingReportsPorts, row: MissingReportsTable, k?: ReportKeys): Promise<ReportContent> {
  const content = await openContent(ports, row, k);
  if (!withinConsent(ports.viewerOrg, row.org, content)) throw forbidden(row.id);
  return content;
}

export type KeyState = 'present' | 'missing' | 'destroyed' | 'left-after-erase';

export interface ReportSummary {
  id: string;
  org: string;
  recorded_at: string;
  recorded_by: string;
  recorded_seq: number;
  erased_seq: number | null;
  /** Why it was erased (MISSING_ERASE_CATEGORIES); null for an erasure recorded before categories. */
  erased_category: string | null;
  /** The free-text reason of an erasure recorded before categories (it is in clear in that entry), else null. */
  erased_reason: string | null;
  contact_reads: number;
  key: KeyState;
  /** Only with names asked for (and the key): the names as the family gave them. */
  name_ar?: string | null;
  name_latin?: string | null;
  /** With names asked for: why the names could not be shown (a code), or null. */
  unreadable?: string | null;
}

/** Every report, by its metadata; with `names`, the names too (needs the archive key). */
export async function listReports(ports: MissingReportsPorts, opts: { names: boolean }): Promise<ReportSummary[]> {
  const k = opts.names ? await kek(ports) : null;
  const reads = await ports.listReads();
  const out: ReportSummary[] = [];
  for (const r of await ports.listReports()) {
    const hasKey = (await ports.keys.read(r.id)) !== null;
    const summary: ReportSummary = {
      id: r.id,
      org: r.org,
      recorded_at: r.recorded_at,
      recorded_by: r.recorded_by,
      recorded_seq: Number(r.recorded_seq),
      erased_seq: r.erased_seq === null ? null : Number(r.erased_seq),
      erased_category: r.erased_category ?? null,
      erased_reason: r.erased_reason,
      contact_reads: reads.filter((x) => x.report_id === r.id).length,
      key: r.erased_seq === null ? (hasKey ? 'present' : 'missing') : hasKey ? 'left-after-erase' : 'destroyed',
    };
    if (k !== null) {
      try {
        const c = await openForViewer(ports, r, k);
        Object.assign(summary, { name_ar: c.name_ar, name_latin: c.name_latin, unreadable: null });
      } catch (e) {
        if (!(e instanceof IdentificationError)) throw e;
        Object.assign(summary, { name_ar: null, name_latin: null, unreadable: e.code });
      }
    }
    out.push(summary);
  }
  return out;
}

export interface ContactRead {
  seq: number;
  actor: string;
  time: string;
  /** The reason, opened (sealed under the report's key) or in clear (older entries); null when it cannot be opened. */
  reason: string | null;
  /** Whether the entry holds the reason sealed (true) or in clear (older entries). */
  sealed: boolean;
}

export interface ReportView {
  id: string;
  org: string;
  recorded_at: string;
  recorded_by: string;
  content: Omit<ReportContent, 'contact'> & { contact: ReportContact | 'sealed' | null };
  /** The ledger entry that recorded this read of the contact, when the contact was asked for. */
  contact_read_seq: number | null;
  /** Every recorded read of the contact, oldest first, the reasons opened. */
  contact_reads: ContactRead[];
}

/**
 * Records a read of a report's contact: a `missing.read` entry holding the report id and the
 * reason sealed under the report's data key (bound to the action), never the reason in clear.
 * The caller has checked the consent scope. Returns the entry's seq.
 */
export async function recordContactRead(ports: MissingReportsPorts, row: MissingReportsTable, reason: string): Promise<number> {
  const why = needReason(reason, 'the contact is read');
  const { sealed, digest } = await withDataKey(ports, row, (k) => sealReport(k, row.id, row.org, canonicalBytes({ reason: why }), [ACTION_READ]));
  const [seq = -1] = await ports.commit([{ action: ACTION_READ, report: row.id, sealed: { ...sealed }, digest }]);
  return seq;
}

/** Opens the sealed reason of a contact read (the index row is checked against its digest first). */
export async function openReadReason(ports: MissingReportsPorts, row: MissingReportsTable, read: Pick<MissingReportReadsTable, 'sealed_json' | 'digest'>): Promise<string> {
  const sealed = parseSealed(read.sealed_json ?? '{}');
  if (read.digest === null || sealedDigest(sealed) !== read.digest)
    throw new IdentificationError('MISSING_REPORT_KEY_INVALID', `the sealed reason of a contact read of report ${row.id} in the index does not match its digest`, {
      details: hint({ remedy: ['verify'] }),
    });
  const note = JSON.parse((await withDataKey(ports, row, (k) => openReport(k, row.id, row.org, sealed, [ACTION_READ]))).toString('utf8')) as { reason?: JsonValue };
  return typeof note.reason === 'string' ? note.reason : '';
}

/** The reads of a report's contact, their reasons opened. The caller has checked the consent scope. */
export async function contactReadsOf(ports: MissingReportsPorts, row: MissingReportsTable): Promise<ContactRead[]> {
  const out: ContactRead[] = [];
  for (const r of (await ports.listReads()).filter((x) => x.report_id === row.id).sort((a, b) => Number(a.seq) - Number(b.seq))) {
    const sealed = r.sealed_json !== null && r.sealed_json !== undefined;
    let reason: string | null = sealed ? null : r.reason;
    if (sealed)
      try {
        reason = await openReadReason(ports, row, r);
      } catch (e) {
        if (!(e instanceof IdentificationError)) throw e;
      }
    out.push({ seq: Number(r.seq), actor: r.actor, time: r.time, reason, sealed });
  }
  return out;
}

/**
 * A report's content. The contact stays sealed unless `contactReason` is given: then the read
 * (actor, report, the reason sealed under the report's key) is written to the ledger first, and
 * only then is the contact returned.
 */
export async function showReport(ports: MissingReportsPorts, id: string, opts: { contactReason: string | null }): Promise<ReportView> {
  const reason = opts.contactReason === null ? null : needReason(opts.contactReason, 'the contact is read');
  const row = await findReport(ports, id);
  const content = await openForViewer(ports, row);
  let seq: number | null = null;
  if (reason !== null && content.contact !== null) seq = await recordContactRead(ports, row, reason);
  return {
    id: row.id,
    org: row.org,
    recorded_at: row.recorded_at,
    recorded_by: row.recorded_by,
    content: reason === null ? withoutContact(content) : content,
    contact_read_seq: seq,
    contact_reads: await contactReadsOf(ports, row),
  };
}

/** Checks an erasure's category against the closed list (MISSING_REPORT_INVALID naming the list). */
export function parseEraseCategory(v: string): MissingEraseCategory {
  const c = v.trim().toLowerCase();
  const found = MISSING_ERASE_CATEGORIES.find((x) => x === c);
  if (found === undefined)
    throw new IdentificationError(
      'MISSING_REPORT_INVALID',
      `say why the report is erased by one of ${MISSING_ERASE_CATEGORIES.join(', ')}, got ${JSON.stringify(v)}: the category is recorded in clear, free text is not recorded`,
      { details: { categories: [...MISSING_ERASE_CATEGORIES], ...hint({ field: 'category', value: v }) } },
    );
  return found;
}

/**
 * Erases a report by destroying its key (crypto-shredding). The erasure is recorded in the ledger
 * first, with its category (no free text: it would outlive the erasure), then the key file is
 * overwritten and removed; the ciphertext stays in the ledger, which is never rewritten, and can no
 * longer be opened, nor can the reasons sealed under the same key. Run again after an
 * interruption, it finishes.
 */
export async function eraseReport(ports: MissingReportsPorts, id: string, category: string): Promise<{ id: string; seq: number; category: MissingEraseCategory; key_destroyed: boolean }> {
  const why = parseEraseCategory(category);
  const row = await findReport(ports, id);
  // A destructive act is never based on the index alone: the ledger must record this report.
  const recorded = await ports.ledgerDetails(Number(row.recorded_seq));
  if (recorded?.action !== 'missing.report' || recorded.report !== id || recorded.digest !== row.digest)
    throw new IdentificationError('MISSING_REPORT_NOT_FOUND', `the index names report ${id}, but the ledger entry it points to does not record it: nothing was erased`, {
      details: { report: id, ...hint({ remedy: ['verify'] }) },
    });
  if (row.erased_seq !== null) {
    // An erasure recorded but interrupted before the key was destroyed: finish it.
    if (await ports.keys.destroy(id)) return { id, seq: Number(row.erased_seq), category: why, key_destroyed: true };
    throw erasedError(row);
  }
  const [seq = -1] = await ports.commit([{ action: 'missing.erase', report: id, digest: row.digest, category: why }]);
  const destroyed = await ports.keys.destroy(id);
  return { id, seq, category: why, key_destroyed: destroyed };
}
