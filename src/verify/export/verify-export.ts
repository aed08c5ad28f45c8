/**
 * The offline verifier of a Custody export bag: the checks at the end of
 * src/reports/export/LAYOUT.md, in order, each reported as {step, ok, detail}. Pure: it reads the
 * bag through the BagSource port only.
 */
import { toHex } from '../../core/index.js';
import { validateBag, type BagSource } from '../bagit/index.js';
import { checkCheckpoint, type CheckpointOptions, type KeySource } from './check-checkpoint.js';
import { checkLedgerLines, type ProvenLedger } from './check-ledger.js';
import { checkEvidence, checkProofs, type IngestionEntry, type ProofInput } from './check-proofs.js';
import { checkReceipt } from './check-receipt.js';
import { checkSignatures } from './check-signatures.js';
import { parsePinnedKey } from './keys.js';
import { StepFindings, type ExportFinding, type StepNumber, type StepReport } from './findings.js';
import { checkProcess, type ProcessReport } from './process/check-process.js';
import {
  parseExportJson,
  parseItemRow,
  parseJsonArray,
  parseJsonObject,
  parseProofFile,
  parseWithheldRecord,
  type ItemRow,
  type WithheldRecord,
} from './layout.js';

export interface ExportReport {
  /** True when no check found an error (warnings allowed). */
  valid: boolean;
  steps: StepReport[];
  findings: ExportFinding[];
  keySource?: KeySource;
  /** Check 6's result: the ledger lines and which are proven (for the process checks). */
  ledger: ProvenLedger;
  /** Check 7: what the tables were derived from, what is not derived, the documents for --explain. */
  process?: ProcessReport;
}

export interface VerifyExportOptions extends CheckpointOptions {
  /** The detached receipt of the export (`OUT.receipt.json`), as read: runs check 8. */
  receipt?: Uint8Array;
}

/**
 * Runs all the checks (a failed check does not stop the later ones: every finding is reported).
 *
 * @example
 *   const report = await verifyExport(await openBagDir('case-12'), { pinnedKey: parsePinnedKey(keyText) });
 *   report.steps.map((s) => s.ok) // [true, true, true, true, true, true]
 */
export async function verifyExport(source: BagSource, options: VerifyExportOptions = {}): Promise<ExportReport> {
  const s = [1, 2, 3, 4, 5, 6].map((n) => new StepFindings(n as StepNumber)) as [StepFindings, StepFindings, StepFindings, StepFindings, StepFindings, StepFindings];
  const bag = await validateBag(source);
  // Check 1 is the bag's structure and completeness; digest mismatches belong to check 2.
  for (const e of bag.errors) (e.code === 'BAGIT_DIGEST_MISMATCH' ? s[1] : s[0]).error(e.code, e.message, e.path);
  for (const w of bag.warnings) s[0].warn(w.code, w.message, w.path);
  if (bag.version !== undefined && bag.version !== '1.0') s[0].error('EXPORT_LAYOUT_INVALID', `a Custody export is BagIt 1.0, this bag is ${bag.version}`, 'bagit.txt');
  const files = new Map(bag.entries.filter((e) => e.kind === 'file').map((e) => [e.path, e.size]));
  const payload = [...files.keys()].filter((p) => p.startsWith('data/'));
  const tagFiles = [...files.keys()].filter((p) => !p.startsWith('data/') && !/^tagmanifest-[a-z0-9]+\.txt$/.test(p));
  checkSha256Manifests(bag.manifests, tagFiles, s[1]);

  // Each bag file is read once, however many checks look at it (export.json, the key, items.json,
  // withheld.json and ledger.jsonl serve several).
  const reads = new Map<string, Promise<Uint8Array | undefined>>();
  const read = (path: string): Promise<Uint8Array | undefined> => {
    let bytes = reads.get(path);
    if (bytes === undefined) reads.set(path, (bytes = files.has(path) ? source.read(path) : Promise.resolve(undefined)));
    return bytes;
  };
  const cp = checkCheckpoint(
    {
      note: await read('custody/checkpoint.txt'),
      body: await read('custody/checkpoint.body'),
      sig: await read('custody/checkpoint.sig'),
      verifierKey: await read('custody/verifier-key.txt'),
      verifierPem: await read('custody/verifier-key.pem'),
      exportJson: await read('custody/export.json'),
      consistency: await read('custody/consistency.json'),
      bagInfo: bag.bagInfo,
    },
    options,
    s[2],
  );

  const proofs: ProofInput[] = [];
  for (const path of [...files.keys()].filter((p) => /^custody\/proofs\/[^/]+\.json$/.test(p))) {
    const parsed = parseJsonObject((await read(path)) ?? new Uint8Array(), path);
    const proof = typeof parsed === 'string' ? parsed : parseProofFile(parsed, path);
    if (typeof proof === 'string') s[3].error('EXPORT_PROOF_INVALID', proof, path);
    else proofs.push({ path, proof, entryBytes: await read(`custody/${proof.entry}`) });
  }
  const proven = cp.checkpoint === undefined ? new Map<string, IngestionEntry>() : checkProofs(cp.checkpoint, proofs, s[3]);
  if (cp.checkpoint === undefined && proofs.length > 0) s[3].error('EXPORT_PROOF_INVALID', 'no readable checkpoint to check the proofs against');

  const rows = await readRows(read, s[4]);
  const withheld = await readWithheld(read, s[4]);
  const exportJson = parseJsonObject((await read('custody/export.json')) ?? new Uint8Array(), 'custody/export.json');
  const declared = typeof exportJson === 'string' ? undefined : parseExportJson(exportJson);
  const evidence = new Map([...files].filter(([p]) => p.startsWith('data/items/') || p.startsWith('data/previews/')));
  const checked = await checkEvidence(
    {
      rows,
      withheld,
      declaredCount: typeof declared === 'object' ? declared.items : rows.length,
      proven,
      withProof: new Set(proofs.map((p) => p.proof.item_id)),
      files: evidence,
      sha256Of: async (path) => bag.computed.get(path)?.get('sha256') ?? (await source.digest(path, ['sha256']))?.get('sha256'),
    },
    s[4],
  );

  // Check 6: every ledger line proven (the entries check 4 proved count as proofs too).
  const provenEntries = new Map<number, Uint8Array>();
  for (const p of proofs) {
    if (p.entryBytes !== undefined && proven.get(p.proof.item_id)?.seq === p.proof.seq) provenEntries.set(p.proof.seq, p.entryBytes);
  }
  // A file beyond the adapter's whole-read limit is a finding, not a crash (then nothing is proven).
  const readLedgerFile = (path: string): Promise<Uint8Array | undefined> =>
    read(path).catch((e: unknown) => {
      s[5].error('EXPORT_LAYOUT_INVALID', `${path} cannot be read: ${(e as Error).message}`, path);
      return new Uint8Array();
    });
  const lines = checkLedgerLines(
    cp.checkpoint,
    {
      ledger: await readLedgerFile('custody/ledger.jsonl'),
      ledgerProofs: await readLedgerFile('custody/ledger-proofs.jsonl'),
      withheldEntries: await read('custody/withheld-entries.json'),
      fullLedger: typeof exportJson === 'string' || typeof exportJson.full_ledger !== 'boolean' ? undefined : exportJson.full_ledger,
      provenEntries,
    },
    s[5],
  );
  // Check 7: the process, re-derived from the ledger entries the bag carries.
  const s7 = new StepFindings(7);
  const root = cp.checkpoint === undefined ? undefined : { tree_size: cp.checkpoint.size, root: toHex(cp.checkpoint.root) };
  const ledger = lines.ledger;
  const tables = new Map<string, Uint8Array>();
  for (const path of [...files.keys()].filter((p) => p.startsWith('data/tables/'))) tables.set(path, (await read(path)) ?? new Uint8Array());
  let process: ProcessReport | undefined;
  try {
    process = checkProcess({ ledger, checkpoint: root, tables, files: [...files.keys()].filter((p) => !p.startsWith('data/')) }, s7);
  } catch (e) {
    // Hostile entries must give a finding, never a crash: whatever broke the derivation is reported.
    s7.error('EXPORT_TABLE_MISMATCH', `the tables cannot be derived from custody/ledger.jsonl: ${e instanceof Error ? e.message : String(e)}`, 'custody/ledger.jsonl', { table: null, row: null, column: null, bag: null, derived: null });
  }
  const signatures = checkSignatures(ledger, s7);
  const signed = signatures.verified + signatures.failed === 0 ? '' : `; ${signatures.verified} of ${signatures.verified + signatures.failed} people's signatures verify with the key valid at their entry`;

  const steps = [
    s[0].report(`BagIt ${bag.version ?? '?'}: complete, ${payload.length} payload files, Payload-Oxum agrees`),
    s[1].report(`${payload.length} payload and ${tagFiles.length} tag files match manifest-sha256.txt and tagmanifest-sha256.txt`),
    s[2].report(cp.detail),
    s[3].report(`${proven.size} of ${proofs.length} inclusion proofs recompute the checkpoint root`),
    s[4].report(`${checked} of ${rows.length} items match their ingestion entries`),
    s[5].report(lines.detail),
    s7.report(`${process?.detail ?? 'the process could not be derived'}${signed}`),
  ];
  const findings = [...s, s7].flatMap((x) => x.findings);
  if (options.receipt !== undefined) {
    const s8 = new StepFindings(8);
    const bagKey = await read('custody/verifier-key.txt');
    const detail = checkReceipt(
      {
        receipt: options.receipt,
        key: options.pinnedKey ?? (bagKey === undefined ? undefined : keyOrUndefined(bagKey)),
        keyFromBag: options.pinnedKey === undefined && cp.keySource === 'bag',
        checkpoint: cp.checkpoint,
        tagmanifest: await read('tagmanifest-sha256.txt'),
        exportJson: await read('custody/export.json'),
        items: await read('data/tables/items.json'),
        withheld: await read('custody/withheld.json'),
        ledger: await read('custody/ledger.jsonl'),
      },
      s8,
    );
    steps.push(s8.report(detail));
    findings.push(...s8.findings);
  }
  return { valid: steps.every((x) => x.ok), steps, findings, keySource: cp.keySource, ledger: lines.ledger, process };
}

function keyOrUndefined(bytes: Uint8Array) {
  try {
    return parsePinnedKey(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined; // check 3 reports it
  }
}

/** Check 2: the sha256 manifests LAYOUT.md requires, and every tag file in the tag manifest. */
function checkSha256Manifests(
  manifests: Awaited<ReturnType<typeof validateBag>>['manifests'],
  tagFiles: readonly string[],
  out: StepFindings,
): void {
  const payload = manifests.find((m) => m.name === 'manifest-sha256.txt');
  const tag = manifests.find((m) => m.name === 'tagmanifest-sha256.txt');
  if (payload === undefined) out.error('BAGIT_MANIFEST_MISSING', 'manifest-sha256.txt is missing', 'manifest-sha256.txt');
  if (tag === undefined) {
    out.error('BAGIT_MANIFEST_MISSING', 'tagmanifest-sha256.txt is missing', 'tagmanifest-sha256.txt');
    return;
  }
  // RFC 8493 leaves tag files out of the tag manifest optional; LAYOUT.md does not: an unlisted
  // custody/ file would be evidence nobody sealed.
  for (const path of tagFiles) {
    if (!tag.entries.has(path)) out.error('BAGIT_FILE_UNLISTED', `${path} is not in tagmanifest-sha256.txt`, path);
  }
}

async function readRows(read: (p: string) => Promise<Uint8Array | undefined>, out: StepFindings): Promise<ItemRow[]> {
  const bytes = await read('data/tables/items.json');
  const parsed = bytes === undefined ? 'data/tables/items.json is missing' : parseJsonArray(bytes, 'data/tables/items.json');
  if (typeof parsed === 'string') {
    out.error('EXPORT_LAYOUT_INVALID', parsed, 'data/tables/items.json');
    return [];
  }
  const rows: ItemRow[] = [];
  parsed.forEach((v, i) => {
    const row = parseItemRow(v, i);
    if (typeof row === 'string') out.error('EXPORT_LAYOUT_INVALID', row, 'data/tables/items.json');
    else rows.push(row);
  });
  return rows;
}

async function readWithheld(read: (p: string) => Promise<Uint8Array | undefined>, out: StepFindings): Promise<WithheldRecord[]> {
  const bytes = await read('custody/withheld.json');
  const parsed = bytes === undefined ? 'custody/withheld.json is missing' : parseJsonArray(bytes, 'custody/withheld.json');
  if (typeof parsed === 'string') {
    out.error('EXPORT_LAYOUT_INVALID', parsed, 'custody/withheld.json');
    return [];
  }
  const records: WithheldRecord[] = [];
  parsed.forEach((v, i) => {
    const r = parseWithheldRecord(v, i);
    if (typeof r === 'string') out.error('EXPORT_LAYOUT_INVALID', r, 'custody/withheld.json');
    else records.push(r);
  });
  return records;
}
