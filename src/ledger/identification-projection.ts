// How identification entries (issue 15) show in the index: missing-person reports as sealed
// ciphertext with non-identifying metadata, their erasure (its category), the audited reads of
// their contact (the reason sealed under the report's key),
// reviewers' decisions on proposed report links (ids and reason only), report↔subject
// decisions, evidence levels and family viewings (ids and clear facts; reasons, references and
// attendees sealed under the report's key), and subjects' post-mortem records. Nothing here can decrypt a report: its key is not in the
// ledger (keys/reports/<id>.key), so a rebuilt index holds exactly what the ledger holds.
import { canonicalize, type JsonValue } from '../core/index.js';
import type { Mutation } from '../db/index.js';
import { bad, str } from './entry-fields.js';
import { actionDetailsOf } from './entry-parse.js';
import type { LedgerEntry } from './entry.js';
import { LedgerError } from './errors.js';

/** A nested object; given an action's typed details (entry-parse.ts), `k` must be a field its writers write. */
function record<D extends { readonly [k: string]: JsonValue | undefined }>(d: D, k: keyof D & string, e: LedgerEntry): { [k: string]: JsonValue } {
  const v = d[k];
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) throw bad(e, k);
  return v;
}

export function identificationMutations(entry: LedgerEntry, action: string): Mutation[] {
  const d = entry.details;
  switch (action) {
    case 'missing.report': {
      const r = actionDetailsOf(entry, 'missing.report');
      const codebook = record(r, 'codebook', entry);
      return [
        {
          op: 'insert',
          table: 'missing_reports',
          row: {
            id: r.report,
            org: r.org,
            sealed_json: canonicalize(record(r, 'sealed', entry)),
            digest: r.digest,
            codebook_version: str(codebook, 'version', entry),
            codebook_digest: str(codebook, 'digest', entry),
            recorded_seq: entry.seq,
            recorded_at: entry.time,
            recorded_by: entry.actor,
            erased_seq: null,
            erased_category: null,
            erased_reason: null,
          },
        },
      ];
    }
    case 'missing.erase': {
      const r = actionDetailsOf(entry, 'missing.erase');
      // A category from the closed list, or (entries written before categories) a reason in clear.
      const category = d.category === undefined ? null : str(d, 'category', entry);
      return [
        {
          op: 'update',
          table: 'missing_reports',
          key: r.report,
          set: { erased_seq: entry.seq, erased_category: category, erased_reason: category === null ? str(d, 'reason', entry) : null },
        },
      ];
    }
    case 'missing.read': {
      const r = actionDetailsOf(entry, 'missing.read');
      // The reason sealed under the report's key, or (entries written before) in clear.
      const sealed = d.sealed !== undefined;
      return [
        {
          op: 'insert',
          table: 'missing_report_reads',
          row: {
            seq: entry.seq,
            report_id: r.report,
            actor: entry.actor,
            reason: sealed ? '' : str(d, 'reason', entry),
            sealed_json: sealed ? canonicalize(record(d, 'sealed', entry)) : null,
            digest: sealed ? str(d, 'digest', entry) : null,
            time: entry.time,
          },
        },
      ];
    }
    case 'missing.link-review': {
      const reports = d.reports;
      if (!Array.isArray(reports) || reports.length !== 2 || typeof reports[0] !== 'string' || typeof reports[1] !== 'string' || reports[0] >= reports[1]) throw bad(entry, 'reports');
      const r = actionDetailsOf(entry, 'missing.link-review');
      const decision = r.decision;
      if (decision !== 'same' && decision !== 'different') throw bad(entry, 'decision');
      return [
        {
          op: 'insert',
          table: 'missing_link_reviews',
          // The reason sealed under both reports' keys, or (entries written before) in clear.
          row: {
            seq: entry.seq,
            report_a: reports[0],
            report_b: reports[1],
            decision,
            reason: d.sealed === undefined ? str(d, 'reason', entry) : '',
            sealed_json: d.sealed === undefined ? null : canonicalize(record(d, 'sealed', entry)),
            digest: d.sealed === undefined ? null : str(d, 'digest', entry),
            actor: entry.actor,
            time: entry.time,
          },
        },
      ];
    }
    case 'missing.subject-review':
    case 'missing.subject-level':
    case 'missing.viewing':
      return [{ op: 'insert', table: 'missing_subject_events', row: subjectEventRow(entry, action) }];
    case 'pm.record': {
      const p = actionDetailsOf(entry, 'pm.record');
      const codebook = record(p, 'codebook', entry);
      return [
        {
          op: 'upsert',
          table: 'subject_pm',
          row: {
            subject_id: p.subject,
            pm_json: canonicalize(record(p, 'pm', entry)),
            codebook_version: str(codebook, 'version', entry),
            codebook_digest: str(codebook, 'digest', entry),
            seq: entry.seq,
          },
        },
      ];
    }
    default:
      throw new LedgerError('LEDGER_ENTRY_MALFORMED', `cataloguing entry ${entry.seq} has an unknown action ${action}`);
  }
}

const isObj = (v: JsonValue | undefined): v is { [k: string]: JsonValue } => v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

/** The clear facts of a report↔subject entry, checked (the ledger file is untrusted input). */
function subjectFacts(entry: LedgerEntry, action: string): { value: string | null; facts: { [k: string]: JsonValue } } {
  const d = entry.details;
  if (action === 'missing.subject-review') {
    const v = str(d, 'decision', entry);
    if (v !== 'accept' && v !== 'reject') throw bad(entry, 'decision');
    return { value: v, facts: {} };
  }
  if (action === 'missing.subject-level') {
    const v = str(d, 'level', entry);
    if (v !== 'recognised' && v !== 'confirmed') throw bad(entry, 'level');
    const viewing = d.viewing ?? null;
    if (viewing !== null && !(typeof viewing === 'number' && Number.isSafeInteger(viewing))) throw bad(entry, 'viewing');
    const kinds = d.corroboration;
    if (!Array.isArray(kinds) || !kinds.every((k) => k === 'number-record' || k === 'dna' || k === 'document')) throw bad(entry, 'corroboration');
    return { value: v, facts: { viewing, corroboration: kinds } };
  }
  const photos = d.photographs;
  const outcomes = ['recognised', 'not-recognised', 'unsure'];
  if (!Array.isArray(photos) || photos.length === 0) throw bad(entry, 'photographs');
  for (const p of photos)
    if (!isObj(p) || typeof p.item !== 'string' || typeof p.blurred_first !== 'boolean' || typeof p.outcome !== 'string' || !outcomes.includes(p.outcome))
      throw bad(entry, 'photographs');
  return { value: null, facts: { report_digest: str(d, 'report_digest', entry), photographs: photos } };
}

/** One row of missing_subject_events: ids, the clear facts, and the sealed note (under the report's key). */
function subjectEventRow(entry: LedgerEntry, action: 'missing.subject-review' | 'missing.subject-level' | 'missing.viewing'): { [k: string]: string | number | null } {
  const { value, facts } = subjectFacts(entry, action);
  const d = actionDetailsOf(entry, action);
  return {
    seq: entry.seq,
    action,
    report_id: d.report,
    subject_id: d.subject,
    value,
    facts_json: canonicalize(facts),
    sealed_json: canonicalize(record(d, 'sealed', entry)),
    digest: d.digest,
    actor: entry.actor,
    time: entry.time,
  };
}
