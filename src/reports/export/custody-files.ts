import type { ArchiveManifest } from '../../archive/index.js';
import { canonicalBytes, type JsonValue, toHex, hint } from '../../core/index.js';
import type { LedgerEntry } from '../../ledger/index.js';
import type { BagWriter } from './bag-writer.adapter.js';
import { ExportError } from './errors.js';
import type { LedgerReads } from './ports.js';
import { splitSignedNote } from './signed-note.js';
import type { ExportedItem } from './tables.js';

/** One event of custody/events.json, in the shape of a PREMIS 3 event (semantic units 2.x). */
export interface PremisEvent {
  eventIdentifier: { eventIdentifierType: 'custody-ledger-seq'; eventIdentifierValue: string };
  eventType: string;
  eventDateTime: string;
  eventOutcome: string;
  linkingAgentIdentifier: {
    linkingAgentIdentifierType: 'custody-actor';
    linkingAgentIdentifierValue: string;
  }[];
  linkingObjectIdentifier: {
    linkingObjectIdentifierType: 'custody-item' | 'sha256' | 'custody-delivery';
    linkingObjectIdentifierValue: string;
  }[];
}

/**
 * One record of custody/withheld-entries.json. The leaf hash lets a full ledger still recompute
 * the signed root; the stated type and action are the exporter's word only (not in the root).
 */
export interface WithheldEntry {
  seq: number;
  reason: string;
  /** Lowercase hex SHA-256(0x00 || entry bytes) (RFC 9162 §2.1.1). */
  leaf_hash: string;
  type: string;
  /** details.action when it is a string, else null. */
  action: string | null;
}

export interface LedgerFilesResult {
  events: PremisEvent[];
  /** Entries left out of ledger.jsonl by --redact, and why. */
  withheldEntries: WithheldEntry[];
  ledgerLines: number;
}

/**
 * What the bag's tables rest on, so that a ledger.jsonl that is not the full ledger still carries
 * (and proves, in custody/ledger-proofs.jsonl) every entry behind every table (LAYOUT.md).
 */
export interface TableBasis {
  /** The sampling plans of samples.json: their sample.* and examination.* entries. */
  samples: ReadonlySet<string>;
  /** The subjects of the subjects table: their subject.* entries. */
  subjects: ReadonlySet<string>;
  /** The units and numbering schemes those subjects reference: unit.*, scheme.define. */
  units: ReadonlySet<string>;
  schemes: ReadonlySet<string>;
  /** Objects of selected items that were withdrawn (their withdrawal entries). */
  withdrawnObjects: ReadonlySet<string>;
}

const CHUNK = 5000;

/**
 * One pass over the ledger up to the checkpoint, writing as it goes (never the whole ledger in
 * memory): custody/entries/<seq>.json (the exact leaf data, RFC 9162 §2.1.1) and
 * custody/proofs/<item>.json (the inclusion proof at the checkpoint, RFC 9162 §2.1.3) for each
 * exported item's ingestion entry; custody/ledger.jsonl, the exact lines of the entries that
 * touch the selection or lie behind a table (or all, full ledger), and, when not the full
 * ledger, custody/ledger-proofs.jsonl with one inclusion proof per line; and the PREMIS-style
 * events of those entries.
 * With --redact, source-register, -identity and -read entries (which carry the sealed identity or
 * a custodian's reason) and missing-person report, -read and -erase entries stay out even of a
 * full ledger, and are listed as withheld; so do, always,
 * the metadata-extraction entries of withdrawn objects.
 */
export async function writeLedgerFiles(
  snapshot: LedgerReads<'read' | 'inclusionProof'>,
  bag: BagWriter,
  items: readonly ExportedItem[],
  opts: { fullLedger: boolean; redact: boolean; withdrawn: ReadonlySet<string>; basis: TableBasis },
): Promise<LedgerFilesResult> {
  const size = snapshot.treeSize;
  const bySeq = new Map(items.map((e) => [e.item.seq, e.item]));
  const ids = new Set(items.map((e) => e.item.id));
  const itemsBySha = new Map<string, string[]>();
  for (const e of items)
    itemsBySha.set(e.item.sha256, [...(itemsBySha.get(e.item.sha256) ?? []), e.item.id]);
  const deliveries = new Set(items.map((e) => e.item.delivery_id));
  const out: LedgerFilesResult = { events: [], withheldEntries: [], ledgerLines: 0 };
  const ledger = await bag.openStream('custody/ledger.jsonl');
  const proofs = opts.fullLedger ? null : await bag.openStream('custody/ledger-proofs.jsonl');
  try {
    for (let from = 0; from < size; from += CHUNK) {
      for (const s of await snapshot.ledger.read(from, Math.min(size, from + CHUNK))) {
        const e = s.entry;
        const item = bySeq.get(e.seq);
        if (item !== undefined && e.type === 'ingestion') {
          await bag.writeFile(`custody/entries/${e.seq}.json`, s.bytes);
          await bag.writeJson(`custody/proofs/${item.id}.json`, {
            item_id: item.id,
            seq: e.seq,
            tree_size: size,
            leaf_hash: toHex(s.leafHash),
            proof: snapshot.ledger.inclusionProof(e.seq, size).map(toHex),
            entry: `entries/${e.seq}.json`,
          });
        }
        const links = linksOf(e, ids, itemsBySha, deliveries);
        if (links.length > 0) out.events.push(premisEvent(e, links));
        const wanted =
          opts.fullLedger ||
          e.seq === 0 ||
          links.length > 0 ||
          behindTables(e, opts.basis, itemsBySha);
        if (!wanted) continue;
        const withhold =
          opts.redact && isSourceRecord(e)
            ? 'source record (sealed identity, custodian access): withheld under --redact'
            : opts.redact && isRedactedAccountRecord(e)
              ? 'staff account (sealed name): withheld under --redact'
              : opts.redact && isMissingPersonRecord(e)
              ? 'missing-person report (sealed family data, contact reads, erasures): withheld under --redact'
              : e.type === 'metadata extraction' && e.objects.some((o) => opts.withdrawn.has(o))
              ? // A withdrawal hides what was extracted from the object (GPS, EXIF); the ledger keeps it.
                'metadata extracted from a withdrawn object (GPS, EXIF): withheld'
              : null;
        if (withhold !== null) {
          const action = e.details.action;
          out.withheldEntries.push({
            seq: e.seq,
            reason: withhold,
            leaf_hash: toHex(s.leafHash),
            type: e.type,
            action: typeof action === 'string' ? action : null,
          });
          continue;
        }
        await ledger.write(Buffer.concat([s.bytes, Buffer.from('\n')]));
        out.ledgerLines++;
        if (proofs !== null) {
          const proof = snapshot.ledger.inclusionProof(e.seq, size).map(toHex);
          const line = canonicalBytes({ leaf_hash: toHex(s.leafHash), proof, seq: e.seq });
          await proofs.write(Buffer.concat([line, Buffer.from('\n')]));
        }
      }
    }
  } finally {
    await ledger.close();
    await proofs?.close();
  }
  return out;
}

/**
 * Whether an entry lies behind one of the bag's tables (LAYOUT.md, ledger.jsonl): the sample's
 * frame, seed, manifest, assignments, submissions, reveals and adjudications, and when there is
 * a sample every person's key enrolment, rotation and revocation (account.key.*); decisions and
 * withdrawals naming a selected object; the cataloguing of the exported subjects, of the units
 * they reference and of their numbering schemes.
 */
function behindTables(
  e: LedgerEntry,
  basis: TableBasis,
  itemsBySha: Map<string, string[]>,
): boolean {
  const d = e.details;
  if (e.type === 'examination') {
    const id = typeof d.sample === 'string' ? d.sample : idOf(d.sample);
    return id !== null && basis.samples.has(id);
  }
  if (e.type === 'decision' || e.type === 'withdrawal')
    return e.objects.some((o) => itemsBySha.has(o) || basis.withdrawnObjects.has(o));
  if (e.type !== 'cataloguing') return false;
  const action = typeof d.action === 'string' ? d.action : '';
  // People's key enrolments, rotations and revocations: the signatures of the plans' submissions
  // and adjudications are checked with the key valid at their seq (public keys only).
  if (action.startsWith('account.key.')) return basis.samples.size > 0;
  if (action.startsWith('subject.')) {
    const ids = [idOf(d.subject), idOf(d.new_subject), ...stringsOf(d.merged)];
    return ids.some((id) => id !== null && basis.subjects.has(id));
  }
  const named = action.startsWith('unit.')
    ? { id: idOf(d.unit), in: basis.units }
    : action === 'scheme.define'
      ? { id: idOf(d.scheme), in: basis.schemes }
      : null;
  return named !== null && named.id !== null && named.in.has(named.id);
}

/** `{ "id": "…", … }` → the id, else null. */
function idOf(v: JsonValue | undefined): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  return typeof v.id === 'string' ? v.id : null;
}

type Link = PremisEvent['linkingObjectIdentifier'][number];

/** What of the selection an entry names: exported items, their objects, their deliveries' start and end. */
function linksOf(
  e: LedgerEntry,
  ids: Set<string>,
  itemsBySha: Map<string, string[]>,
  deliveries: Set<string>,
): Link[] {
  const named = new Set<string>(e.items.filter((i) => ids.has(i)));
  for (const i of stringsOf(e.details.items)) if (ids.has(i)) named.add(i);
  const objects = e.objects.filter((o) => itemsBySha.has(o));
  for (const o of objects) for (const i of itemsBySha.get(o) ?? []) named.add(i);
  const links: Link[] = [...named]
    .sort()
    .map((v) => ({ linkingObjectIdentifierType: 'custody-item', linkingObjectIdentifierValue: v }));
  for (const o of [...new Set(objects)].sort())
    links.push({ linkingObjectIdentifierType: 'sha256', linkingObjectIdentifierValue: o });
  const delivery = e.details.delivery;
  if (
    (e.type === 'ingestion start' || e.type === 'ingestion end') &&
    typeof delivery === 'string' &&
    deliveries.has(delivery)
  ) {
    links.push({
      linkingObjectIdentifierType: 'custody-delivery',
      linkingObjectIdentifierValue: delivery,
    });
  }
  return links;
}

function premisEvent(e: LedgerEntry, links: Link[]): PremisEvent {
  const flags = stringsOf(e.details.flags);
  return {
    eventIdentifier: {
      eventIdentifierType: 'custody-ledger-seq',
      eventIdentifierValue: String(e.seq),
    },
    eventType: e.type,
    eventDateTime: e.time,
    eventOutcome: flags.length === 0 ? 'success' : `success, flagged: ${flags.join(', ')}`,
    linkingAgentIdentifier: [
      { linkingAgentIdentifierType: 'custody-actor', linkingAgentIdentifierValue: e.actor },
    ],
    linkingObjectIdentifier: links,
  };
}

function isSourceRecord(e: LedgerEntry): boolean {
  const action = e.details.action;
  return e.type === 'cataloguing' && typeof action === 'string' && action.startsWith('source.');
}

/**
 * An account's creation carries the staff member's sealed name. Under --redact it stays out,
 * except for examiners and adjudicators, whom a tribunal needs to name (their names stay sealed:
 * the export decrypts nothing).
 */
function isRedactedAccountRecord(e: LedgerEntry): boolean {
  const { action, role } = e.details;
  return e.type === 'cataloguing' && action === 'account.add' && role !== 'examiner' && role !== 'adjudicator';
}

/** A family's report, a read of its contact, its erasure (issue 15): ciphertext and custodians' reasons. */
function isMissingPersonRecord(e: LedgerEntry): boolean {
  const action = e.details.action;
  return e.type === 'cataloguing' && typeof action === 'string' && action.startsWith('missing.');
}

function stringsOf(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * custody/consistency.json: the RFC 9162 §2.1.4 proof that the export's tree extends the one an
 * older checkpoint (held by someone already) committed to. The old note must verify under this
 * archive's key and name a root this ledger had at that size; otherwise the archive has forked.
 */
export function sinceProof(
  snapshot: LedgerReads<'root' | 'consistencyProof'> & { readonly verifierKey: string; readonly manifest: Pick<ArchiveManifest, 'origin'> },
  oldNote: string,
) {
  const old = splitSignedNote(oldNote, snapshot.verifierKey).checkpoint;
  const size = snapshot.treeSize;
  if (old.origin !== snapshot.manifest.origin || old.size < 1 || old.size > size) {
    throw new ExportError(
      'EXPORT_CHECKPOINT_INVALID',
      `a checkpoint of ${old.origin} at ${old.size} cannot precede this export (${snapshot.manifest.origin} at ${size})`,
      { details: hint({ field: 'sinceCheckpoint' }) },
    );
  }
  const oldRoot = snapshot.ledger.root(old.size);
  if (!oldRoot.equals(old.root)) {
    throw new ExportError(
      'EXPORT_CHECKPOINT_INVALID',
      `the signed root at ${old.size} differs from this ledger's: the log has forked`,
      { details: hint({ field: 'sinceCheckpoint', remedy: ['verify-trusted-checkpoint'] }) },
    );
  }
  return {
    old_size: old.size,
    old_root: toHex(oldRoot),
    new_size: size,
    new_root: toHex(snapshot.ledger.root(size)),
    proof: (old.size === size ? [] : snapshot.ledger.consistencyProof(old.size, size)).map(toHex),
  };
}
