import { type JsonValue, isSha256Hex } from '../core/index.js';
import { LedgerError } from './errors.js';

/**
 * Entry types. PREMIS 3 event types where one fits
 * (https://id.loc.gov/vocabulary/preservation/eventType); our own otherwise.
 */
export const ENTRY_TYPES = [
  'creation', // PREMIS: the archive (and its signing key) came into being
  'ingestion start', // PREMIS: a delivery is opened (or continued)
  'ingestion', // PREMIS: one item received
  'ingestion end', // PREMIS: a run over a delivery ended, with its report
  'fixity check', // PREMIS: `custody verify --record`
  'deletion', // PREMIS: bytes of a withdrawn object purged
  'withdrawal', // ours: lawful removal ordered (court order, consent withdrawn)
  'metadata extraction', // PREMIS: image analysis of one object (metadata, structure, PDQ)
  'decision', // ours: an examiner's decision on a pair or cluster (same image / same subject / different)
  'cataloguing', // ours: the catalogue changed (units; later subjects and sources): details.action says how
  'examination', // ours: sampling plans, assignments, sealed submissions, reveals, adjudication: details.action
  'dissemination', // PREMIS: copies made available (`custody export`): the bag's selection, checkpoint and tag-manifest digest
  'quarantine', // PREMIS: entries isolated from the record (`custody tail --set-aside`): an unauthenticated ledger tail moved to a side file
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** A ledger entry as written: canonical JSON (RFC 8785) of exactly these keys. */
export interface LedgerEntry {
  seq: number;
  time: string;
  actor: string;
  type: EntryType;
  items: string[];
  objects: string[];
  details: { [key: string]: JsonValue };
}

// What a caller hands to the ledger (EntryDraft, typed by entry type): entry-details.ts.

const TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** RFC 3339 UTC with milliseconds, the only time format in the ledger. */
export function formatLedgerTime(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Checks that a parsed ledger line has the shape of an entry.
 * Untrusted input: the ledger file may have been edited by anyone with disk access.
 */
export function parseEntry(value: JsonValue, expectedSeq: number): LedgerEntry {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new LedgerError('LEDGER_ENTRY_MALFORMED', `entry ${expectedSeq} is not a JSON object`);
  }
  const keys = Object.keys(value).sort().join(',');
  if (keys !== 'actor,details,items,objects,seq,time,type') {
    throw new LedgerError('LEDGER_ENTRY_MALFORMED', `entry ${expectedSeq} has keys ${keys}`);
  }
  const { seq, time, actor, type, items, objects, details } = value;
  if (seq !== expectedSeq) {
    throw new LedgerError(
      'LEDGER_SEQ_MISMATCH',
      `line ${expectedSeq} of the ledger carries seq ${JSON.stringify(seq)}: entries were reordered, removed or inserted`,
      { details: { index: expectedSeq, seq } },
    );
  }
  if (typeof time !== 'string' || !TIME_RE.test(time)) throw malformed(expectedSeq, 'time');
  if (typeof actor !== 'string' || actor === '') throw malformed(expectedSeq, 'actor');
  if (typeof type !== 'string' || !(ENTRY_TYPES as readonly string[]).includes(type)) {
    throw malformed(expectedSeq, 'type');
  }
  if (!isStringArray(items)) throw malformed(expectedSeq, 'items');
  if (!isStringArray(objects) || !objects.every(isSha256Hex)) {
    throw malformed(expectedSeq, 'objects');
  }
  if (details === null || typeof details !== 'object' || Array.isArray(details)) {
    throw malformed(expectedSeq, 'details');
  }
  return { seq, time, actor, type: type as EntryType, items, objects, details };
}

function isStringArray(v: JsonValue | undefined): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function malformed(seq: number, field: string): LedgerError {
  return new LedgerError('LEDGER_ENTRY_MALFORMED', `entry ${seq} has an invalid "${field}"`);
}
