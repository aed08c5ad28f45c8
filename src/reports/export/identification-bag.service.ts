// `custody missing export ID --out DIR [--include-contacts]` (issue 15, "Export"): a report's
// identification file in a bag for the authorities, built like `custody export` (LAYOUT.md): a
// signed checkpoint, the ledger entries the file rests on each with its inclusion proof
// (custody/ledger.jsonl + ledger-proofs.jsonl), the tag manifest, the reference verifier, and the
// export's own 'dissemination' entry with its receipt beside the bag. `verify-export` accepts it:
// the file is data/tables/identification.json, which check 7 lists as not derived from the ledger.
//
// Order: (1) with contacts, their release is recorded first (a `missing.read` entry by the
// exporting account, the reason sealed under the report's key), so it is inside the bag's
// checkpoint; (2) a checkpoint is signed for everything so far; (3) the file is gathered from the
// ledger up to it; (4) the bag is written under a temporary name; (5) the dissemination entry is
// appended and the receipt's proofs taken; (6) the bag takes its final name. Only (1)+(2) and (5)
// write: each runs inside `archive.writing`, which on the team server holds the one writer for
// those few steps only, so other writes go on while the file is gathered and the bag written
// (everything read there is at or below the signed size, which appends do not change).
import { canonicalBytes, hint, toHex } from '../../core/index.js';
import {
  IdentificationError,
  type PmPorts,
  type SubjectLinkPorts,
} from '../../identification/index.js';
import { recordContactRead } from '../../identification/reports/reports.service.js';
import type { EntryDraft, IdentificationExportDetails } from '../../ledger/index.js';
import type { StoredEntry } from '../../ledger/ledger.service.js';
import { baggingDate } from './bagit.js';
import type { BagWriter } from './bag-writer.adapter.js';
import { ExportError } from './errors.js';
import { gatherIdentificationFile } from './identification-file.js';
import { buildReceipt, receiptPath, type ExportReceipt } from './receipt.js';
import { splitSignedNote } from './signed-note.js';
import { itemsTable } from './tables.js';

/** The archive, opened for writing, as the identification export uses it. */
export interface IdentificationBagArchive {
  /** The report services' ports, with the caller's organisation (consent scope) and names. */
  readonly missing: SubjectLinkPorts & Pick<PmPorts, 'getSubjectPm'>;
  readonly origin: string;
  readonly verifierKey: string;
  readonly publicKeyPem: string;
  readonly ledger: {
    readonly size: number;
    read(from: number, to: number): Promise<StoredEntry[]>;
    root(size: number): Buffer;
    inclusionProof(seq: number, size: number): Buffer[];
    consistencyProof(oldSize: number, newSize: number): Buffer[];
    /** Signs a checkpoint for everything appended so far and returns its note (null: nothing to sign). */
    checkpoint(): Promise<string | null>;
    checkpointAt(size: number): Promise<string | null>;
  };
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
  /**
   * Runs `f` with the writer held: nothing else appends in between. At the CLI (a single writer
   * by the ledger lock) it simply runs `f`; the server runs it in its write queue.
   */
  writing<T>(f: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The bag's files on disk (bag-files.adapter.ts: the writer and checks `custody export` uses). */
export interface BagFiles {
  /** Refuses a target inside the archive or not free (bag and receipt); removes a killed export's leftovers, returned. */
  prepare(out: string, receipt: string): Promise<string[]>;
  /** A bag written under a temporary sibling name of `out`. */
  create(out: string): Promise<BagWriter>;
  /** Gives the finished bag its final name (rename). */
  publish(from: string, to: string): Promise<void>;
  writeReceipt(path: string, text: string): Promise<void>;
  /** The reference verifier files that travel in every bag. */
  referenceFiles(): { found: { name: string; path: string }[]; missing: string[] };
}

export interface IdentificationBagDeps {
  open(): Promise<IdentificationBagArchive>;
  now(): number;
  files: BagFiles;
  removedPartial?: (path: string) => void;
}

export interface IdentificationBagOptions {
  report: string;
  out: string;
  includeContacts: boolean;
  /** Required with includeContacts: recorded in the release entry. */
  reason: string | null;
  organization?: string;
  softwareVersion: string;
}

export interface IdentificationBagResult {
  out: string;
  zip: boolean;
  report: string;
  tree_size: number;
  root: string;
  contacts: 'redacted' | 'released';
  /** The `missing.read` entry that records the contact's release (null: redacted). */
  contact_release_seq: number | null;
  /** Ledger entries the file rests on, in custody/ledger.jsonl with their proofs. */
  entries: number;
  subject_links: number;
  report_links: number;
  /** report↔report decisions left out: the other report is outside the caller's scope, erased or unreadable. */
  report_links_left_out: number;
  tagmanifest_sha256: string;
  ledger_seq: number;
  receipt: string;
  notes: string[];
  partials_removed: string[];
}

export const IDENTIFICATION_FILE = 'data/tables/identification.json';

/** The bag's selection (export.json, bag-info, the dissemination entry): the report, by id. */
export function identificationSelection(report: string): string {
  return `missing-report:${report}`;
}

export async function exportIdentificationBag(
  deps: IdentificationBagDeps,
  opts: IdentificationBagOptions,
): Promise<IdentificationBagResult> {
  const reason = opts.reason?.trim() ?? '';
  if (opts.includeContacts && reason === '')
    throw new IdentificationError(
      'MISSING_REPORT_INVALID',
      'say why the contact is released: the release is recorded with the reason',
      { details: hint({ field: 'reason' }) },
    );
  const zip = opts.out.toLowerCase().endsWith('.zip');
  const receipt = receiptPath(opts.out);
  const partialsRemoved = await deps.files.prepare(opts.out, receipt);
  for (const p of partialsRemoved) deps.removedPartial?.(p);
  const archive = await deps.open();
  let bag: BagWriter | null = null;
  let result: Omit<
    IdentificationBagResult,
    'out' | 'zip' | 'receipt' | 'partials_removed' | 'ledger_seq'
  >;
  let receiptJson: ExportReceipt;
  let artefact: string;
  try {
    // Refused before anything is recorded: an unknown, erased or out-of-scope report.
    await gatherIdentificationFile(fileports(archive), archive.ledger.size, opts.report, {
      includeContacts: false,
      releaseSeq: null,
    });
    const { releaseSeq, size, note } = await archive.writing(async () => {
      let seq: number | null = null;
      if (opts.includeContacts) {
        // The release is a contact read: its reason sealed under the report's key (reports.service.ts).
        const row = await archive.missing.getReport(opts.report);
        if (row === undefined)
          throw new IdentificationError('MISSING_REPORT_NOT_FOUND', `no report ${opts.report}`);
        seq = await recordContactRead(archive.missing, row, reason);
      }
      await archive.ledger.checkpoint();
      const at = archive.ledger.size;
      return { releaseSeq: seq, size: at, note: await archive.ledger.checkpointAt(at) };
    });
    if (note === null)
      throw new ExportError('EXPORT_NOT_SIGNED', `no signed checkpoint at tree size ${size}`);
    const file = await gatherIdentificationFile(fileports(archive), size, opts.report, {
      includeContacts: opts.includeContacts,
      releaseSeq,
    });
    bag = await deps.files.create(opts.out);
    result = await writeBag(archive, bag, {
      ...opts,
      size,
      note,
      file,
      now: deps.now(),
      referenceFiles: deps.files.referenceFiles(),
    });
    artefact = zip
      ? await bag.zip((opts.out.split('/').pop() ?? '').replace(/\.zip$/i, '') || 'bag')
      : bag.dir;
    receiptJson = await archive.writing(() => recordDissemination(archive, result));
  } catch (e) {
    await bag?.discard();
    await archive.close().catch(() => undefined);
    throw e;
  }
  await archive.close();
  try {
    await deps.files.publish(artefact, opts.out);
  } catch (cause) {
    throw new ExportError(
      'EXPORT_PUBLISH_FAILED',
      `the export is recorded as ledger entry ${receiptJson.seq}, but ${artefact} could not be renamed to ${opts.out}: move it by hand`,
      { cause },
    );
  }
  if (zip) await bag.discard();
  try {
    await deps.files.writeReceipt(receipt, `${JSON.stringify(receiptJson, null, 2)}\n`);
  } catch (cause) {
    throw new ExportError(
      'EXPORT_PUBLISH_FAILED',
      `the export is recorded as ledger entry ${receiptJson.seq} and the bag is at ${opts.out}, but its receipt could not be written to ${receipt}: ${(cause as Error).message}`,
      { cause },
    );
  }
  return {
    ...result,
    out: opts.out,
    zip,
    ledger_seq: receiptJson.seq,
    receipt,
    partials_removed: partialsRemoved,
  };
}

function fileports(archive: IdentificationBagArchive) {
  return {
    missing: archive.missing,
    read: (from: number, to: number) => archive.ledger.read(from, to),
  };
}

async function writeBag(
  archive: IdentificationBagArchive,
  bag: BagWriter,
  o: IdentificationBagOptions & {
    size: number;
    note: string;
    file: Awaited<ReturnType<typeof gatherIdentificationFile>>;
    now: number;
    referenceFiles: ReturnType<BagFiles['referenceFiles']>;
  },
) {
  const split = splitSignedNote(o.note, archive.verifierKey);
  const root = archive.ledger.root(o.size);
  if (
    split.checkpoint.size !== o.size ||
    !split.checkpoint.root.equals(root) ||
    split.checkpoint.origin !== archive.origin
  )
    throw new ExportError(
      'EXPORT_CHECKPOINT_INVALID',
      `the signed checkpoint at ${o.size} does not match the ledger`,
      { details: hint({ remedy: ['verify'] }) },
    );
  const rootHex = toHex(root);
  const selection = identificationSelection(o.report);
  // No evidence travels: the tables the verifier requires are present, and empty.
  const items = itemsTable([]);
  await bag.writeFile('data/tables/items.csv', items.csv);
  await bag.writeJson('data/tables/items.json', items.json);
  await bag.writeJson(IDENTIFICATION_FILE, o.file.document);
  const ledger = await bag.openStream('custody/ledger.jsonl');
  const proofs = await bag.openStream('custody/ledger-proofs.jsonl');
  try {
    for (const seq of o.file.seqs) {
      const [s] = await archive.ledger.read(seq, seq + 1);
      if (s === undefined) throw new Error(`ledger entry ${seq} cannot be read`);
      await ledger.write(Buffer.concat([s.bytes, Buffer.from('\n')]));
      const proof = archive.ledger.inclusionProof(seq, o.size).map(toHex);
      await proofs.write(
        Buffer.concat([
          canonicalBytes({ leaf_hash: toHex(s.leafHash), proof, seq }),
          Buffer.from('\n'),
        ]),
      );
    }
  } finally {
    await ledger.close();
    await proofs.close();
  }
  await bag.writeFile('custody/verifier-key.txt', `${archive.verifierKey}\n`);
  await bag.writeFile('custody/verifier-key.pem', archive.publicKeyPem);
  await bag.writeFile('custody/checkpoint.txt', o.note);
  await bag.writeFile('custody/checkpoint.body', split.body);
  await bag.writeFile('custody/checkpoint.sig', split.signature);
  await bag.writeJson('custody/events.json', []);
  await bag.writeJson('custody/withheld.json', []);
  await bag.writeJson('custody/withheld-entries.json', []);
  await bag.writeJson('custody/export.json', {
    format: 'custody-export',
    version: 1,
    origin: archive.origin,
    tree_size: o.size,
    root: rootHex,
    selection,
    items: 0,
    redacted: !o.includeContacts,
    full_ledger: false,
  });
  const notes: string[] = [];
  const refs = o.referenceFiles;
  for (const f of refs.found) await bag.copyFile(f.name, f.path, null);
  if (refs.missing.length > 0)
    notes.push(
      `this installation lacks the reference verifier files (${refs.missing.join(', ')}): the bag does not carry them`,
    );
  if (o.file.linksLeftOut > 0)
    notes.push(
      `${o.file.linksLeftOut} report↔report decision(s) left out: the other report is outside your consent scope, erased or unreadable`,
    );
  const { tagmanifestSha256 } = await bag.finish({
    sourceOrganization: o.organization ?? archive.origin,
    baggingDate: baggingDate(o.now),
    treeSize: o.size,
    rootHex,
    description: `Custody identification file of missing-person report ${o.report} at signed checkpoint ${o.size}`,
    softwareVersion: o.softwareVersion,
    origin: archive.origin,
    selection,
  });
  const doc = o.file.document;
  return {
    report: o.report,
    tree_size: o.size,
    root: rootHex,
    contacts: o.includeContacts ? ('released' as const) : ('redacted' as const),
    contact_release_seq: (doc.report as { contact_release_seq: number | null }).contact_release_seq,
    entries: o.file.seqs.length,
    subject_links: Array.isArray(doc.subject_links) ? doc.subject_links.length : 0,
    report_links: Array.isArray(doc.report_links) ? doc.report_links.length : 0,
    report_links_left_out: o.file.linksLeftOut,
    tagmanifest_sha256: tagmanifestSha256,
    notes,
  };
}

/**
 * The export's 'dissemination' entry (the same fields as `custody export`'s, so the receipt check
 * of verify-export reads it), then a checkpoint over it and the receipt's proofs.
 */
async function recordDissemination(
  archive: IdentificationBagArchive,
  r: {
    report: string;
    tree_size: number;
    root: string;
    tagmanifest_sha256: string;
    contacts: string;
    contact_release_seq: number | null;
    entries: number;
  },
): Promise<ExportReceipt> {
  const selection = identificationSelection(r.report);
  const details: IdentificationExportDetails = {
    action: 'missing.export',
    report: r.report,
    selection,
    tree_size: r.tree_size,
    root: r.root,
    tagmanifest_sha256: r.tagmanifest_sha256,
    items: 0,
    redacted: r.contacts === 'redacted',
    full_ledger: false,
    contacts: r.contacts,
    contact_release_seq: r.contact_release_seq,
    entries: r.entries,
    substituted: [],
    withheld: [],
    withheld_entries: [],
  };
  const [stored] = await archive.commit([
    { actor: archive.missing.actor, type: 'dissemination', items: [], objects: [], details },
  ]);
  if (stored === undefined) throw new Error('the ledger stored no dissemination entry');
  const note = await archive.ledger.checkpoint();
  const size = archive.ledger.size;
  if (note === null) throw new Error('no checkpoint signed after the dissemination entry');
  return buildReceipt({
    bag: {
      tree_size: r.tree_size,
      root: r.root,
      tagmanifest_sha256: r.tagmanifest_sha256,
      selection,
    },
    stored,
    checkpoint: note,
    inclusionProof: archive.ledger.inclusionProof(stored.entry.seq, size),
    consistencyProof: archive.ledger.consistencyProof(r.tree_size, size),
  });
}
