// A report's identification file (issue 15, "Export"), gathered from the ledger, not the index:
// the report opened from the ciphertext its own `missing.report` entry holds, its report↔report
// and report↔subject decisions, levels and viewings (sealed notes opened under the report's key),
// the catalogue records of the subjects those name, and the seqs of every entry this rests on.
// Nothing from a report outside the caller's consent scope: a report↔report decision whose other
// report the caller may not see (or that is erased, or unreadable) is left out.
import { canonicalize, type JsonValue } from '../../core/index.js';
import type { MissingReportsTable, MissingSubjectEventsTable } from '../../db/index.js';
import {
  IdentificationError,
  type ReportContent,
  type SubjectLinkPorts,
  type PmPorts,
} from '../../identification/index.js';
import { foldSubjectLinks, type SubjectLinkState } from '../../identification/index.js';
import { openForViewer } from '../../identification/reports/reports.service.js';
import { openNote } from '../../identification/reports/subject-link.service.js';
import { openLinkReason } from '../../identification/reports/link.service.js';
import type { LedgerEntry } from '../../ledger/index.js';
import type { StoredEntry } from '../../ledger/ledger.service.js';

/** What gathering the file needs: the report services' ports and the ledger up to the bag's size. */
export interface IdentificationFilePorts {
  missing: SubjectLinkPorts & Pick<PmPorts, 'getSubjectPm'>;
  read(from: number, to: number): Promise<StoredEntry[]>;
}

export interface IdentificationFile {
  /** data/tables/identification.json. */
  document: { [k: string]: JsonValue };
  /** The ledger entries the document rests on (ledger.jsonl carries them, each with its proof). */
  seqs: number[];
  /** report↔report decisions left out: the other report is outside the caller's scope, erased or unreadable. */
  linksLeftOut: number;
}

const CHUNK = 5000;
type Details = { [k: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Details =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** A string field of an untrusted entry, or '' (the opening and its digest check then refuse it). */
const text = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');
const idOf = (v: JsonValue | undefined): string | null =>
  isObj(v) && typeof v.id === 'string' ? v.id : null;

/** The entries of one pass over the ledger that the file may need, by what they name. */
interface Scan {
  reports: Map<string, LedgerEntry>;
  erased: Map<string, LedgerEntry>;
  links: LedgerEntry[];
  subjectEvents: LedgerEntry[];
  catalogue: LedgerEntry[];
}

async function scan(ports: IdentificationFilePorts, size: number, reportId: string): Promise<Scan> {
  const s: Scan = {
    reports: new Map(),
    erased: new Map(),
    links: [],
    subjectEvents: [],
    catalogue: [],
  };
  for (let from = 0; from < size; from += CHUNK) {
    for (const { entry: e } of await ports.read(from, Math.min(size, from + CHUNK))) {
      if (e.type !== 'cataloguing') continue;
      const d = e.details;
      const action = typeof d.action === 'string' ? d.action : '';
      if (action === 'missing.report' && typeof d.report === 'string') s.reports.set(d.report, e);
      else if (action === 'missing.erase' && typeof d.report === 'string')
        s.erased.set(d.report, e);
      else if (
        action === 'missing.link-review' &&
        Array.isArray(d.reports) &&
        d.reports.includes(reportId)
      )
        s.links.push(e);
      else if (action.startsWith('missing.subject-') || action === 'missing.viewing') {
        if (d.report === reportId) s.subjectEvents.push(e);
      } else if (
        action.startsWith('subject.') ||
        action.startsWith('unit.') ||
        action === 'scheme.define' ||
        action === 'pm.record'
      )
        s.catalogue.push(e);
    }
  }
  return s;
}

/** The report as the index would hold it, built from its ledger entries (the ledger is the record). */
function rowOf(e: LedgerEntry, erased: LedgerEntry | undefined): MissingReportsTable {
  const d = e.details;
  const codebook = isObj(d.codebook) ? d.codebook : {};
  return {
    id: text(d.report),
    org: text(d.org),
    sealed_json: canonicalize(isObj(d.sealed) ? d.sealed : {}),
    digest: text(d.digest),
    codebook_version: text(codebook.version),
    codebook_digest: text(codebook.digest),
    recorded_seq: e.seq,
    recorded_at: e.time,
    recorded_by: e.actor,
    erased_seq: erased?.seq ?? null,
    erased_category: erased === undefined || typeof erased.details.category !== 'string' ? null : erased.details.category,
    erased_reason: erased === undefined || typeof erased.details.reason !== 'string' ? null : erased.details.reason,
  };
}

/** A report↔subject entry as an index row (the same clear facts identification-projection.ts keeps). */
function eventRow(e: LedgerEntry): MissingSubjectEventsTable {
  const d = e.details;
  const action = text(d.action);
  const facts =
    action === 'missing.subject-level'
      ? { viewing: d.viewing ?? null, corroboration: d.corroboration ?? [] }
      : action === 'missing.viewing'
        ? { report_digest: d.report_digest ?? null, photographs: d.photographs ?? [] }
        : {};
  const value =
    action === 'missing.subject-review'
      ? d.decision
      : action === 'missing.subject-level'
        ? d.level
        : null;
  return {
    seq: e.seq,
    action,
    report_id: text(d.report),
    subject_id: text(d.subject),
    value: typeof value === 'string' ? value : null,
    facts_json: canonicalize(facts),
    sealed_json: canonicalize(isObj(d.sealed) ? d.sealed : {}),
    digest: text(d.digest),
    actor: e.actor,
    time: e.time,
  };
}

function notFound(id: string): IdentificationError {
  return new IdentificationError(
    'MISSING_REPORT_NOT_FOUND',
    `no report ${id} in the ledger up to the bag's checkpoint: nothing was exported`,
    { details: { report: id } },
  );
}

/**
 * Gathers the identification file of report `reportId` from the first `size` ledger entries.
 * Refuses a report the ledger does not record (MISSING_REPORT_NOT_FOUND), an erased one
 * (MISSING_REPORT_ERASED: its key is destroyed), one outside the caller's consent scope
 * (MISSING_REPORT_FORBIDDEN). Contacts and the names of those who attended a viewing are
 * replaced by "redacted" unless `includeContacts`.
 */
export async function gatherIdentificationFile(
  ports: IdentificationFilePorts,
  size: number,
  reportId: string,
  opts: { includeContacts: boolean; releaseSeq: number | null },
): Promise<IdentificationFile> {
  const s = await scan(ports, size, reportId);
  const recorded = s.reports.get(reportId);
  if (recorded === undefined) throw notFound(reportId);
  const row = rowOf(recorded, s.erased.get(reportId));
  const content = await openForViewer(ports.missing, row);
  const seqs = new Set<number>([0, recorded.seq]);
  if (opts.releaseSeq !== null) seqs.add(opts.releaseSeq);

  // report↔report decisions, only with reports the caller may see.
  const links: Details[] = [];
  let linksLeftOut = 0;
  for (const e of s.links) {
    const pair = (e.details.reports as JsonValue[]).map(String);
    const other = pair.find((x) => x !== reportId) ?? reportId;
    const otherEntry = s.reports.get(other);
    if (otherEntry === undefined || !(await visible(ports, otherEntry, s.erased.get(other)))) {
      linksLeftOut++;
      continue;
    }
    seqs.add(e.seq);
    links.push({
      seq: e.seq,
      reports: pair,
      other_report: other,
      other_org: text(otherEntry.details.org),
      decision: e.details.decision ?? null,
      reason: await linkReason(ports, e, row, rowOf(otherEntry, s.erased.get(other))),
      actor: e.actor,
      time: e.time,
    });
  }

  // report↔subject decisions, levels and viewings, the sealed notes opened.
  const rows = s.subjectEvents.map(eventRow);
  const events: Details[] = [];
  for (const [i, r] of rows.entries()) {
    const e = s.subjectEvents[i] as LedgerEntry;
    seqs.add(e.seq);
    const note = await openNote(ports.missing, row, r);
    events.push({
      seq: r.seq,
      action: r.action,
      subject: r.subject_id,
      value: r.value,
      facts: JSON.parse(r.facts_json) as JsonValue,
      note: opts.includeContacts ? note : redactAttendees(note),
      actor: r.actor,
      time: r.time,
    });
  }
  const states = foldSubjectLinks(rows);
  const subjects = [...new Set(rows.map((r) => r.subject_id))].sort();
  const catalogue = await subjectRecords(ports, subjects, s.catalogue, seqs);

  const document: Details = {
    format: 'custody-identification-file',
    version: 1,
    report: {
      id: row.id,
      org: row.org,
      recorded_seq: row.recorded_seq,
      recorded_at: row.recorded_at,
      recorded_by: row.recorded_by,
      digest: row.digest,
      codebook: { version: row.codebook_version, digest: row.codebook_digest },
      contacts: opts.includeContacts ? 'released' : 'redacted',
      contact_release_seq: opts.releaseSeq,
      content: contentFor(content, opts.includeContacts),
    },
    report_links: links,
    subject_links: [...states.values()]
      .sort((a, b) => (a.subject < b.subject ? -1 : 1))
      .map(linkJson),
    subject_events: events,
    subjects: catalogue,
    notes: [
      "The report's content is opened from the ciphertext of its own ledger entry (report.recorded_seq, in custody/ledger.jsonl with its proof); the digest there is SHA-256 of that ciphertext's canonical JSON. The bag does not carry the report's key: its opening is the exporter's word.",
      "Reasons, references and attendees of report↔subject entries are sealed in the ledger under the report's key: they are opened here. Every other value names the ledger entry (seq) it comes from.",
      opts.includeContacts
        ? `The reporting contact is released in this bag; the release is ledger entry ${String(opts.releaseSeq)}.`
        : 'The reporting contact and the names of those who attended a viewing are redacted.',
      "report_links holds only decisions about reports within the exporter's consent scope.",
    ],
  };
  return { document, seqs: [...seqs].sort((a, b) => a - b), linksLeftOut };
}

/** A report↔report decision's reason: sealed under both reports' keys (opened here), or in clear (older entries). */
async function linkReason(ports: IdentificationFilePorts, e: LedgerEntry, mine: MissingReportsTable, theirs: MissingReportsTable): Promise<string | null> {
  const d = e.details;
  if (!isObj(d.sealed)) return typeof d.reason === 'string' ? d.reason : null;
  const [a, b] = mine.id < theirs.id ? [mine, theirs] : [theirs, mine];
  return openLinkReason(ports.missing, a, b, canonicalize(d.sealed), text(d.digest));
}

/** Whether the caller may see another report (its own scope check; erased or unreadable: no). */
async function visible(
  ports: IdentificationFilePorts,
  e: LedgerEntry,
  erased: LedgerEntry | undefined,
): Promise<boolean> {
  try {
    await openForViewer(ports.missing, rowOf(e, erased));
    return true;
  } catch (err) {
    if (err instanceof IdentificationError) return false;
    throw err;
  }
}

function contentFor(c: ReportContent, includeContacts: boolean): JsonValue {
  const out = JSON.parse(JSON.stringify(c)) as Details;
  if (!includeContacts && c.contact !== null) out.contact = 'redacted';
  return out;
}

function redactAttendees(note: Details): Details {
  if (!Array.isArray(note.attendees)) return note;
  return {
    ...note,
    attendees: note.attendees.map((a) => (isObj(a) ? { ...a, name: 'redacted' } : a)),
  };
}

function linkJson(s: SubjectLinkState): Details {
  return {
    subject: s.subject,
    status: s.status,
    level: s.level,
    decided_seq: s.decided_seq,
    level_seq: s.level_seq,
    viewings: s.viewings,
    recognised_in: s.recognised_in,
  };
}

/** The candidate subjects' catalogue records (index), with the entries that made them (ledger). */
async function subjectRecords(
  ports: IdentificationFilePorts,
  ids: readonly string[],
  catalogue: readonly LedgerEntry[],
  seqs: Set<number>,
): Promise<JsonValue[]> {
  const units = new Map((await ports.missing.listUnits()).map((u) => [u.id, u]));
  const out: JsonValue[] = [];
  for (const id of ids) {
    const s = await ports.missing.getSubject(id);
    const pm = await ports.missing.getSubjectPm(id);
    const unit = s?.unit_id == null ? undefined : units.get(s.unit_id);
    const rests: number[] = [];
    for (const e of catalogue) {
      const d = e.details;
      const action = text(d.action);
      const named = action.startsWith('subject.')
        ? [
            idOf(d.subject),
            idOf(d.new_subject),
            ...(Array.isArray(d.merged) ? d.merged : []),
          ].includes(id)
        : action === 'pm.record'
          ? d.subject === id
          : action.startsWith('unit.')
            ? s?.unit_id != null && idOf(d.unit) === s.unit_id
            : s?.scheme_id != null && idOf(d.scheme) === s.scheme_id;
      if (named) rests.push(e.seq);
    }
    for (const q of rests) seqs.add(q);
    out.push({
      subject_id: id,
      record:
        s === undefined
          ? null
          : {
              number_raw: s.number_raw,
              scheme_id: s.scheme_id,
              number_normalised: s.number_normalised,
              unit_id: s.unit_id,
              sex: s.sex,
              age_band: s.age_band,
              date_of_death: s.date_of_death,
              date_of_photography: s.date_of_photography,
              status: s.status,
              merged_into: s.merged_into,
            },
      unit:
        unit === undefined
          ? null
          : {
              id: unit.id,
              code: unit.code ?? unit.code_text,
              name_en: unit.name_en,
              name_ar: unit.name_ar,
              parent_id: unit.parent_id,
            },
      pm:
        pm === undefined
          ? null
          : {
              seq: pm.seq,
              codebook_version: pm.codebook_version,
              fields: JSON.parse(pm.pm_json) as JsonValue,
            },
      rests_on: rests,
    });
  }
  return out;
}
