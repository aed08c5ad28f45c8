import type { KeyObject } from 'node:crypto';
import { toHex, hint, type OperationContext } from '../../core/index.js';
import type { Ledger, StoredEntry } from '../../ledger/ledger.service.js';
import type { EntryDraft, ExportDetails } from '../../ledger/index.js';
import { examinationTables } from './examination-tables.js';
import { baggingDate } from './bagit.js';
import {
  BagWriter,
  checkOutFree,
  checkOutsideArchive,
  publish,
  removeStalePartials,
} from './bag-writer.adapter.js';
import {
  sinceProof,
  writeLedgerFiles,
  type TableBasis,
  type WithheldEntry,
} from './custody-files.js';
import { copyPayload, type Substitution, type Withheld } from './payload.js';
import { ExportError } from './errors.js';
import { findReferenceFiles } from './reference-files.adapter.js';
import { buildReceipt, receiptPath, type ExportReceipt } from './receipt.js';
import { checkReceiptFree, writeReceiptFile } from './receipt-file.adapter.js';
import { resolveSelection, withdrawals } from './select.js';
import { parseSelection, type SelectionTerm } from './selection.js';
import { splitSignedNote } from './signed-note.js';
import {
  authenticityTable,
  decisionsJson,
  itemsTable,
  subjectsTable,
  unitsTable,
} from './tables.js';

export interface ExportOptions {
  /** The --select query, as given (recorded verbatim in bag-info and the ledger). */
  selection: string;
  at?: number;
  out: string;
  redact: boolean;
  blurImages: boolean;
  /**
   * Ship every ledger entry up to the checkpoint (the verifier then recomputes the signed root).
   * Undefined: the default, which is the full ledger whenever the bag carries a sample (a
   * `sample:` selection, or a non-empty samples.json), since only then are claims about the
   * process verifiable as complete; otherwise the entries that touch the selection or lie behind
   * a table, each with its inclusion proof.
   */
  fullLedger?: boolean;
  /** --since-checkpoint: an older signed checkpoint note someone already holds. */
  sinceCheckpoint?: string;
  organization?: string;
  softwareVersion: string;
  /** Called once the evidence is copied into the partial bag (crash tests kill the process here). */
  afterPayload?: () => void;
}

/**
 * The archive at the export's checkpoint as the bag is built from it: the reads made here, plus
 * the ports of the builders it calls (./ports.ts). An open Archive implements it.
 */
export type ExportSnapshot = {
  readonly treeSize: number;
  readonly verifierKey: string;
  readonly publicKey: KeyObject;
  readonly manifest: { readonly origin: string };
  readonly ledger: Pick<Ledger, 'checkpointAt' | 'checkpointSizes' | 'root' | 'read'>;
  close(): Promise<void>;
} & Parameters<typeof withdrawals>[0] &
  Parameters<typeof resolveSelection>[0] &
  Parameters<typeof copyPayload>[0] &
  Parameters<typeof subjectsTable>[0] &
  Parameters<typeof unitsTable>[0] &
  Parameters<typeof authenticityTable>[0] &
  Parameters<typeof decisionsJson>[0] &
  Parameters<typeof examinationTables>[0] &
  Parameters<typeof writeLedgerFiles>[0] &
  Parameters<typeof sinceProof>[0];

/** The archive open for writing the export's entry, its checkpoint and the receipt's proofs. */
export interface ExportWriter {
  readonly ledger: Pick<Ledger, 'checkpoint' | 'size' | 'inclusionProof' | 'consistencyProof'>;
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
  close(): Promise<void>;
}

export interface ExportDeps {
  /**
   * Opens the archive: read-only at a tree size (a snapshot, read as ExportSnapshot), or for
   * writing the export's entry (used as ExportWriter). An open Archive is both.
   */
  open(mode: 'read' | 'write', at?: number): Promise<ExportSnapshot & ExportWriter>;
  now(): number;
  /** The archive folder: --out must lie outside it. */
  archiveDir: string;
  /** Told at once about each leftover of a killed export removed from the target (stderr). */
  removedPartial?: (path: string) => void;
  /** Progress for a person at a terminal: stage, done, total when known. */
  onProgress?: (stage: string, done: number, total?: number) => void;
}

export interface ExportResult {
  out: string;
  zip: boolean;
  tree_size: number;
  root: string;
  items: number;
  substituted: Substitution[];
  withheld: Withheld[];
  /** Ledger entries left out of custody/ledger.jsonl by --redact (custody/withheld-entries.json). */
  withheld_entries: WithheldEntry[];
  /** Whether custody/ledger.jsonl carries the full ledger (export.json full_ledger). */
  full_ledger: boolean;
  tagmanifest_sha256: string;
  ledger_seq: number;
  /** The detached completeness receipt beside the bag (LAYOUT.md): `OUT.receipt.json`. */
  receipt: string;
  notes: string[];
  /** `.NAME.partial-…` leftovers of killed exports to the same target, removed first. */
  partials_removed: string[];
}

/**
 * `custody export`: a BagIt bag (RFC 8493) of the selected items as the archive stood at one
 * signed checkpoint, with everything needed to check it without Custody (LAYOUT.md). The data
 * come from a snapshot of the first N entries; the export's own 'dissemination' entry is appended
 * afterwards, and only then does the bag take its final name.
 */
export async function exportBag(deps: ExportDeps, ctx: Pick<OperationContext, 'actor'>, opts: ExportOptions): Promise<ExportResult> {
  if (opts.blurImages && !opts.redact)
    throw new ExportError('EXPORT_OPTIONS_INVALID', 'blurred images go with a redacted export', { details: hint({ field: 'blurImages' }) });
  const terms = parseSelection(opts.selection);
  const zip = opts.out.toLowerCase().endsWith('.zip');
  await checkOutsideArchive(opts.out, deps.archiveDir);
  const partialsRemoved = await removeStalePartials(opts.out);
  for (const p of partialsRemoved) deps.removedPartial?.(p);
  await checkOutFree(opts.out, zip);
  const receipt = receiptPath(opts.out);
  await checkOutsideArchive(receipt, deps.archiveDir);
  await checkReceiptFree(receipt);
  const treeSize = await chooseTreeSize(deps, opts.at);
  const bag = await BagWriter.create(opts.out, deps.archiveDir);
  const progress = deps.onProgress;
  if (progress !== undefined) {
    // Counts the files copied into the bag (payload and previews), without touching the copy.
    let copied = 0;
    const copyFile = bag.copyFile.bind(bag);
    bag.copyFile = async (...a: Parameters<BagWriter['copyFile']>) => {
      const sha = await copyFile(...a);
      progress('copying files into the bag', ++copied);
      return sha;
    };
  }
  let built: Awaited<ReturnType<typeof buildBag>>;
  let artefact = bag.dir;
  let ledgerSeq: number;
  let receiptJson: ExportReceipt;
  try {
    const snapshot = await deps.open('read', treeSize);
    try {
      built = await buildBag(snapshot, bag, { ...opts, terms }, deps.now());
    } finally {
      await snapshot.close();
    }
    progress?.('recording the export', 0);
    if (zip) {
      artefact = await bag.zip((opts.out.split('/').pop() ?? '').replace(/\.zip$/i, '') || 'bag');
    }
    receiptJson = await recordDissemination(deps, ctx, built, {
      tree_size: built.result.tree_size,
      root: built.result.root,
      tagmanifest_sha256: built.result.tagmanifest_sha256,
      selection: opts.selection,
    });
    ledgerSeq = receiptJson.seq;
  } catch (e) {
    await bag.discard();
    throw e;
  }
  try {
    await publish(artefact, opts.out);
  } catch (cause) {
    // The entry is written: keep the finished bag where it is and say where.
    throw new ExportError(
      'EXPORT_PUBLISH_FAILED',
      `the export is recorded as ledger entry ${ledgerSeq}, but ${artefact} could not be renamed to ${opts.out}: move it by hand`,
      { cause },
    );
  }
  if (zip) await bag.discard();
  try {
    await writeReceiptFile(receipt, `${JSON.stringify(receiptJson, null, 2)}\n`);
  } catch (cause) {
    throw new ExportError(
      'EXPORT_PUBLISH_FAILED',
      `the export is recorded as ledger entry ${ledgerSeq} and the bag is at ${opts.out}, but its receipt could not be written to ${receipt}: ${(cause as Error).message}`,
      { cause },
    );
  }
  return {
    ...built.result,
    out: opts.out,
    zip,
    ledger_seq: ledgerSeq,
    receipt,
    partials_removed: partialsRemoved,
  };
}

/** The latest signed checkpoint, or --at N when N is one (RFC 9162 proofs are against a signed root). */
async function chooseTreeSize(deps: ExportDeps, at: number | undefined): Promise<number> {
  const archive = await deps.open('read');
  let sizes: number[];
  try {
    sizes = await archive.ledger.checkpointSizes();
  } finally {
    await archive.close();
  }
  const latest = sizes.at(-1);
  if (latest === undefined)
    throw new ExportError('EXPORT_NOT_SIGNED', 'the archive has no signed checkpoint yet');
  if (at === undefined) return latest;
  if (sizes.includes(at)) return at;
  const below = sizes.filter((s) => s < at).at(-1);
  const above = sizes.find((s) => s > at);
  const near = [below, above].filter((s) => s !== undefined).join(' and ');
  throw new ExportError(
    'EXPORT_NOT_SIGNED',
    `no signed checkpoint at that tree size; the nearest signed sizes are ${near}`,
    { details: hint({ field: 'at', value: at, remedy: ['show-checkpoint'] }) },
  );
}

async function buildBag(
  snapshot: ExportSnapshot,
  bag: BagWriter,
  opts: ExportOptions & { terms: SelectionTerm[] },
  now: number,
) {
  const size = snapshot.treeSize;
  const note = await snapshot.ledger.checkpointAt(size);
  if (note === null)
    throw new ExportError('EXPORT_NOT_SIGNED', `no signed checkpoint at tree size ${size}`);
  const split = splitSignedNote(note, snapshot.verifierKey);
  const root = snapshot.ledger.root(size);
  if (
    split.checkpoint.size !== size ||
    !split.checkpoint.root.equals(root) ||
    split.checkpoint.origin !== snapshot.manifest.origin
  ) {
    throw new ExportError(
      'EXPORT_CHECKPOINT_INVALID',
      `the signed checkpoint at ${size} does not match the ledger`,
      { details: hint({ remedy: ['verify'] }) },
    );
  }
  const consistency =
    opts.sinceCheckpoint === undefined ? null : sinceProof(snapshot, opts.sinceCheckpoint);
  const withdrawnNow = await withdrawals(snapshot);
  const { items: chosen, withdrawn } = await resolveSelection(snapshot, opts.terms, withdrawnNow);
  const { exported, substituted, withheld } = await copyPayload(
    snapshot,
    bag,
    chosen,
    withdrawn,
    opts.blurImages,
    new Set(withdrawnNow.keys()),
  );
  opts.afterPayload?.();
  const [last] = await snapshot.ledger.read(size - 1, size);
  const subjects = await subjectsTable(snapshot, exported);
  for (const t of [
    itemsTable(exported),
    subjects,
    await unitsTable(snapshot),
    await authenticityTable(snapshot, exported, last?.entry.time ?? ''),
  ]) {
    await bag.writeFile(`data/tables/${t.name}.csv`, t.csv);
    await bag.writeJson(`data/tables/${t.name}.json`, t.json);
  }
  await bag.writeJson('data/tables/decisions.json', await decisionsJson(snapshot, exported));
  const exam = await examinationTables(snapshot, exported);
  await bag.writeJson('data/tables/samples.json', exam.samples);
  if (exam.examinations !== null) {
    await bag.writeFile('data/tables/examinations.csv', exam.examinations.csv);
    await bag.writeJson('data/tables/examinations.json', exam.examinations.json);
  }
  for (const st of exam.statistics) await bag.writeJson(`data/tables/${st.file}`, st.json);
  const fullLedger =
    opts.fullLedger ?? (exam.samples.length > 0 || opts.terms.some((t) => t.kind === 'sample'));
  const ledgerFiles = await writeLedgerFiles(snapshot, bag, exported, {
    fullLedger,
    redact: opts.redact,
    withdrawn: new Set(withdrawnNow.keys()),
    basis: tableBasis(exam.samples, subjects.json, withdrawn),
  });
  await bag.writeFile('custody/verifier-key.txt', `${snapshot.verifierKey}\n`);
  await bag.writeFile(
    'custody/verifier-key.pem',
    snapshot.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  );
  await bag.writeFile('custody/checkpoint.txt', note);
  await bag.writeFile('custody/checkpoint.body', split.body);
  await bag.writeFile('custody/checkpoint.sig', split.signature);
  if (consistency !== null) await bag.writeJson('custody/consistency.json', consistency);
  await bag.writeJson('custody/events.json', ledgerFiles.events);
  await bag.writeJson('custody/withheld.json', withheld);
  await bag.writeJson('custody/withheld-entries.json', ledgerFiles.withheldEntries);
  const rootHex = toHex(root);
  await bag.writeJson('custody/export.json', {
    format: 'custody-export',
    version: 1,
    origin: snapshot.manifest.origin,
    tree_size: size,
    root: rootHex,
    selection: opts.selection,
    items: exported.length,
    redacted: opts.redact,
    full_ledger: fullLedger,
  });
  const notes: string[] = [];
  const refs = findReferenceFiles();
  for (const f of refs.found) await bag.copyFile(f.name, f.path, null);
  if (refs.missing.length > 0)
    notes.push(
      `this installation lacks the reference verifier files (${refs.missing.join(', ')}): the bag does not carry them`,
    );
  const { tagmanifestSha256 } = await bag.finish({
    sourceOrganization: opts.organization ?? snapshot.manifest.origin,
    baggingDate: baggingDate(now),
    treeSize: size,
    rootHex,
    description: `Custody export of ${exported.length} items at signed checkpoint ${size}`,
    softwareVersion: opts.softwareVersion,
    origin: snapshot.manifest.origin,
    selection: opts.selection,
  });
  const details: ExportDetails = {
    selection: opts.selection,
    tree_size: size,
    root: rootHex,
    tagmanifest_sha256: tagmanifestSha256,
    items: exported.length,
    redacted: opts.redact,
    full_ledger: fullLedger,
    since_tree_size: consistency?.old_size ?? null,
    substituted: substituted.map((s) => ({ item: s.item, preview_sha256: s.preview_sha256 })),
    withheld: withheld
      .filter((w) => w.kind !== 'substituted')
      .map((w) => ({ kind: w.kind, item_id: w.item_id, sha256: w.sha256, reason: w.reason })),
    withheld_entries: ledgerFiles.withheldEntries.map((w) => ({ seq: w.seq, reason: w.reason })),
  };
  const itemIds = exported.map((e) => e.item.id);
  const objects = [...new Set(exported.map((e) => e.item.sha256))].sort();
  return {
    details,
    itemIds,
    objects,
    result: {
      tree_size: size,
      root: rootHex,
      items: exported.length,
      substituted,
      withheld,
      withheld_entries: ledgerFiles.withheldEntries,
      full_ledger: fullLedger,
      tagmanifest_sha256: tagmanifestSha256,
      notes,
    },
  };
}

/** What the tables rest on (custody-files.ts's TableBasis), from the tables as written. */
function tableBasis(
  samples: readonly unknown[],
  subjectRows: unknown,
  withdrawn: readonly { item: { sha256: string } }[],
): TableBasis {
  const ids = new Set<string>();
  const units = new Set<string>();
  const schemes = new Set<string>();
  for (const r of Array.isArray(subjectRows) ? (subjectRows as Record<string, unknown>[]) : []) {
    for (const [key, set] of [
      ['subject_id', ids],
      ['merged_into', ids],
      ['unit_id', units],
      ['scheme_id', schemes],
    ] as const) {
      const v = r[key];
      if (typeof v === 'string') set.add(v);
    }
  }
  const sampleIds = samples
    .map((x) => (x as { id?: unknown }).id)
    .filter((x): x is string => typeof x === 'string');
  return {
    samples: new Set(sampleIds),
    subjects: ids,
    units,
    schemes,
    withdrawnObjects: new Set(withdrawn.map((w) => w.item.sha256)),
  };
}

/**
 * Appends the export's 'dissemination' entry and, still holding the writer lock, signs the
 * checkpoint that covers it (the one closing would sign) and takes the receipt's proofs: the
 * entry's inclusion at that checkpoint, and the consistency of the bag's checkpoint with it.
 */
async function recordDissemination(
  deps: ExportDeps,
  ctx: Pick<OperationContext, 'actor'>,
  { details, itemIds, objects }: { details: ExportDetails; itemIds: string[]; objects: string[] },
  bag: ExportReceipt['bag'],
): Promise<ExportReceipt> {
  const archive = await deps.open('write');
  try {
    const [stored] = await archive.commit([
      { actor: ctx.actor, type: 'dissemination', items: itemIds, objects, details },
    ]);
    if (stored === undefined) throw new Error('the ledger stored no dissemination entry');
    const note = await archive.ledger.checkpoint();
    const size = archive.ledger.size;
    if (note === null) throw new Error('no checkpoint signed after the dissemination entry');
    return buildReceipt({
      bag,
      stored,
      checkpoint: note,
      inclusionProof: archive.ledger.inclusionProof(stored.entry.seq, size),
      consistencyProof: archive.ledger.consistencyProof(bag.tree_size, size),
    });
  } finally {
    await archive.close();
  }
}
