import type { ArchiveManifest } from '../archive/index.js';
import type { ArchiveIndexRepository } from '../db/archive-index.repository.js';
import type { IndexProblem } from '../db/connection.adapter.js';
import type { Ledger } from '../ledger/ledger.service.js';
import {
  parseVerifierKey,
  verifyCheckpoint,
  type Checkpoint,
  CustodyError,
  verifyConsistency,
  hashLeaf,
  toHex,
} from '../core/index.js';
import {
  indexCorruptError,
  isDamagedIndexError,
  INDEX_TABLES,
  type IndexTable,
} from '../db/index.js';
import { CheckpointFileError } from '../ledger/checkpoint-files.adapter.js';
import type { FileDigest } from '../store/hash-files.adapter.js';
import { compareIndexTable } from './compare-index.js';
import { checkObjects } from './store-check.js';
import { isFailure, type Finding } from './findings.js';
import { LedgerReplayer } from './replay.js';
import { checkReportKeys } from './report-keys-check.js';

export interface TrustedCheckpointInput {
  name: string;
  text: string | null;
  error: string | null;
}

export interface VerifyReport {
  ok: boolean;
  archive: { id: string; origin: string };
  ledger: { size: number; root: string; torn_tail_bytes: number };
  checkpoints: { stored: number; verified: number; latest_size: number | null };
  objects: { listed: number; hashed: number; bytes: number; referenced: number; withdrawn: number };
  trusted: { file: string; size: number | null; result: string }[];
  index: { rows_compared: number; ledger_size_in_index: number };
  findings: Finding[];
}

/**
 * What verification reads of an open archive (an Archive implements it as it is): the ledger, its
 * checkpoints and leaf index, the store, and the index with what opening it found wrong.
 */
export interface VerifyPorts {
  readonly verifierKey: string;
  readonly manifest: Pick<ArchiveManifest, 'id' | 'origin'>;
  readonly ledger: Pick<
    Ledger,
    'size' | 'tornTailBytes' | 'storedLeaves' | 'checkpointSizes' | 'checkpointAt' | 'readRaw' | 'root' | 'consistencyProof'
  >;
  readonly store: Parameters<typeof checkObjects>[0];
  readonly index: Pick<ArchiveIndexRepository, 'ledgerSize' | 'dumpTable'>;
  /** Opened with `index: 'tolerate'`: what was wrong with the live index (missing, damaged). */
  readonly indexProblem: IndexProblem | null;
}

export interface VerifyDeps {
  archive: VerifyPorts;
  hashFiles: (paths: AsyncIterable<string>, onResult: (d: FileDigest) => void) => Promise<void>;
  /** The ids of the missing-person report key files present (keys/reports/); not checked when absent. */
  reportKeys?: () => Promise<ReadonlySet<string>>;
  /**
   * While a server writes (issue 12, verify with progress): runs `f` with the writer paused and
   * everything appended so far signed. Verification then checks the ledger as it stood at that
   * moment (later checkpoints are beyond it, not findings), and compares the index with the
   * ledger in a second pause, replaying the entries appended in between.
   */
  quiesced?: <T>(f: () => Promise<T>) => Promise<T>;
}

/**
 * `custody verify`: every object re-hashes to its name; the ledger replays to every stored
 * checkpoint's root; every checkpoint's signature holds; each trusted checkpoint held outside
 * is consistent with the ledger; the index and the ledger agree both ways. Modifies nothing.
 */
export async function verifyArchive(deps: VerifyDeps, trusted: readonly TrustedCheckpointInput[], onProgress?: (stage: string, done: number, total?: number) => void): Promise<VerifyReport> {
  const { archive } = deps;
  const findings: Finding[] = [];
  const verifier = parseVerifierKey(archive.verifierKey);

  // The ledger checked: as it is, or (while a server writes) as it stood when the writer paused.
  const snapshot = deps.quiesced === undefined
    ? null
    : await deps.quiesced(async () => ({ size: archive.ledger.size, leaves: await archive.ledger.storedLeaves() }));

  // 1. Read every stored checkpoint and every trusted one, to know which roots to compute.
  const stored: { size: number; cp: Checkpoint | null }[] = [];
  for (const size of await archive.ledger.checkpointSizes()) {
    if (snapshot !== null && size > snapshot.size) continue; // signed after the snapshot
    let note: string;
    try {
      note = (await archive.ledger.checkpointAt(size)) ?? '';
    } catch (e) {
      // A FIFO, a device or a link under a checkpoint's name: read bounded, reported, never followed.
      if (!(e instanceof CheckpointFileError)) throw e;
      findings.push(f(e.code, `checkpoint at size ${size}: ${e.message}`, `checkpoint ${size}`));
      stored.push({ size, cp: null });
      continue;
    }
    try {
      const cp = verifyCheckpoint(note, verifier);
      if (cp.size !== size || cp.origin !== archive.manifest.origin) {
        findings.push(f('CHECKPOINT_MALFORMED', `checkpoint file for size ${size} says size ${cp.size}, origin ${cp.origin}`, `checkpoint ${size}`));
        stored.push({ size, cp: null });
      } else stored.push({ size, cp });
    } catch (e) {
      findings.push(f('CHECKPOINT_SIGNATURE_INVALID', `checkpoint at size ${size} does not verify with the archive key: ${msg(e)}`, `checkpoint ${size}`));
      stored.push({ size, cp: null });
    }
  }
  const trustedParsed = trusted.map((t) => parseTrusted(t, verifier, archive.manifest.origin));
  const sizes = new Set<number>([...stored.map((s) => s.size), ...trustedParsed.flatMap((t) => (t.cp === null ? [] : [t.cp.size]))]);

  // 2. Replay the ledger.
  const total = snapshot?.size ?? archive.ledger.size;
  // The root reported is the one the entries give, never one taken from the leaf index.
  const replayer = new LedgerReplayer(new Set([...sizes, total]));
  const storedLeaves = snapshot === null ? await archive.ledger.storedLeaves() : snapshot.leaves?.subarray(0, total * 32) ?? null;
  const leaves = new LeafIndexCheck(storedLeaves, total);
  let broken = false;
  for (let from = 0; from < total; from += 5000) {
    for (const [i, bytes] of (await archive.ledger.readRaw(from, Math.min(total, from + 5000))).entries()) {
      leaves.push(from + i, bytes);
      if (broken) replayer.pushRawOnly(bytes);
      else broken = !replayer.push(bytes);
    }
    onProgress?.('replaying the ledger', Math.min(total, from + 5000), total);
  }
  const replay = replayer.state;
  findings.push(...replay.findings);
  findings.push(...leaves.findings());
  if (archive.ledger.tornTailBytes > 0) {
    findings.push(f('LEDGER_TORN_TAIL', `${archive.ledger.tornTailBytes} bytes after the last complete entry (an append cut short); they are not part of the ledger`, 'ledger', 'warning'));
  }
  if (replay.complete && total > 0 && replay.creationKey === null) {
    findings.push(f('LEDGER_NO_CREATION_ENTRY', 'the ledger does not start with the archive creation entry', 'entry 0'));
  }
  if (replay.creationKey !== null && replay.creationKey !== archive.verifierKey) {
    findings.push(f('KEY_MISMATCH', `the archive's verifier key (${archive.verifierKey}) is not the one recorded at creation (${replay.creationKey})`, 'keys'));
  }

  // 3. Checkpoints against the replay.
  let verified = 0;
  for (const s of stored) {
    if (s.cp === null) continue;
    if (s.size > total) {
      findings.push(f('CHECKPOINT_BEYOND_LEDGER', `a signed checkpoint covers ${s.size} entries but the ledger has ${total}: entries were removed`, `checkpoint ${s.size}`));
      continue;
    }
    const root = replay.roots.get(s.size);
    if (root === undefined || !root.equals(s.cp.root)) {
      findings.push(f('CHECKPOINT_ROOT_MISMATCH', `replaying the ledger to size ${s.size} gives root ${root === undefined ? '?' : toHex(root)}, the signed checkpoint says ${toHex(s.cp.root)}: entries were edited, reordered or replaced`, `checkpoint ${s.size}`));
      continue;
    }
    verified++;
  }
  const latest = stored.at(-1)?.size ?? null;
  if (total > 0 && latest === null) {
    // `init` signs the first checkpoint: an archive with none had them removed.
    findings.push(f('CHECKPOINT_MISSING', 'the archive has no signed checkpoint at all: they were removed (init always signs one)', 'ledger'));
  } else if (total > 0 && latest !== null && latest < total) {
    // Verification holds no key, so it cannot read the batch intents that would authenticate
    // these entries: until a writer adopts (and signs) them or they are set aside, they are
    // unproven, and the archive does not verify.
    findings.push(f('LEDGER_TAIL_UNAUTHENTICATED', `entries ${latest}..${total - 1} follow the last signed checkpoint and no signature covers them`, 'ledger'));
  }

  // 4. Trusted checkpoints: consistency from each to the current ledger.
  const trustedOut: VerifyReport['trusted'] = [];
  for (const t of trustedParsed) {
    findings.push(...t.findings);
    if (t.cp === null) {
      trustedOut.push({ file: t.name, size: null, result: t.findings[0]?.code ?? 'unreadable' });
      continue;
    }
    const result = checkTrusted(t.name, t.cp, total, replay.roots.get(t.cp.size), archive);
    findings.push(result);
    trustedOut.push({ file: t.name, size: t.cp.size, result: result.code });
  }

  // 5. Objects.
  const objects = await checkObjects(archive.store, deps.hashFiles, replay);
  findings.push(...objects.findings);

  // 6. Index against ledger (while a server writes: paused again, the entries since replayed too).
  const index = deps.quiesced === undefined
    ? await checkIndex(archive, replay, total)
    : await deps.quiesced(async () => {
        const now = archive.ledger.size;
        if (!broken)
          for (let from = total; from < now; from += 5000)
            for (const bytes of await archive.ledger.readRaw(from, Math.min(now, from + 5000)))
              if (!replayer.push(bytes)) break;
        return checkIndex(archive, replayer.state, now);
      });
  findings.push(...index.findings);

  // 7. Missing-person report keys against the ledger (issue 15): a key deleted is an unrecorded erasure.
  if (replay.complete && deps.reportKeys !== undefined) findings.push(...checkReportKeys(replay.index.table('missing_reports'), await deps.reportKeys()));

  return {
    ok: !findings.some(isFailure),
    archive: { id: archive.manifest.id, origin: archive.manifest.origin },
    ledger: { size: total, root: toHex(replay.roots.get(total) ?? archive.ledger.root()), torn_tail_bytes: archive.ledger.tornTailBytes },
    checkpoints: { stored: stored.length, verified, latest_size: latest },
    objects: objects.stats,
    trusted: trustedOut,
    index: { rows_compared: index.compared, ledger_size_in_index: index.indexed },
    findings,
  };
}

/**
 * The index and the ledger agree both ways. A missing or damaged index is one finding (with the
 * remedy), never an exit 70: the ledger and the store were verified all the same.
 */
async function checkIndex(archive: Pick<VerifyPorts, 'index' | 'indexProblem'>, replay: LedgerReplayer['state'], total: number): Promise<{ findings: Finding[]; compared: number; indexed: number }> {
  const findings: Finding[] = [];
  if (archive.indexProblem !== null) {
    findings.push(f(archive.indexProblem.code, archive.indexProblem.message, 'index'));
    return { findings, compared: 0, indexed: 0 };
  }
  let compared = 0;
  let indexed = 0;
  try {
    indexed = await archive.index.ledgerSize();
    if (indexed < total) findings.push(f('DB_LEDGER_LAG', `the index reflects ${indexed} of ${total} ledger entries, after an interrupted run`, 'index'));
    if (indexed > total) findings.push(f('DB_AHEAD_OF_LEDGER', `the index reflects ${indexed} ledger entries but the ledger has ${total}`, 'index'));
    if (replay.complete) {
      for (const table of Object.keys(INDEX_TABLES) as IndexTable[]) {
        const r = compareIndexTable(table, INDEX_TABLES[table], replay.index.table(table), await archive.index.dumpTable(table));
        compared += r.compared;
        findings.push(...r.findings);
      }
    }
  } catch (e) {
    if (!isDamagedIndexError(e)) throw e;
    findings.push(f('INDEX_CORRUPT', indexCorruptError(e).message, 'index'));
  }
  return { findings, compared, indexed };
}

function parseTrusted(t: TrustedCheckpointInput, verifier: ReturnType<typeof parseVerifierKey>, origin: string): { name: string; cp: Checkpoint | null; findings: Finding[] } {
  if (t.text === null) return { name: t.name, cp: null, findings: [f('TRUSTED_CHECKPOINT_UNREADABLE', `cannot read trusted checkpoint ${t.name}: ${t.error ?? ''}`, t.name)] };
  try {
    const cp = verifyCheckpoint(t.text, verifier);
    if (cp.origin !== origin) {
      return { name: t.name, cp: null, findings: [f('TRUSTED_CHECKPOINT_FOREIGN', `trusted checkpoint ${t.name} is for origin ${cp.origin}, not this archive (${origin})`, t.name)] };
    }
    return { name: t.name, cp, findings: [] };
  } catch (e) {
    return { name: t.name, cp: null, findings: [f('TRUSTED_CHECKPOINT_SIGNATURE_INVALID', `trusted checkpoint ${t.name} does not verify with the archive's key (the key or the checkpoint was replaced): ${msg(e)}`, t.name)] };
  }
}

function checkTrusted(name: string, cp: Checkpoint, total: number, root: Buffer | undefined, archive: { readonly ledger: Pick<Ledger, 'consistencyProof' | 'root'> }): Finding {
  if (cp.size > total) {
    return f('TRUSTED_CHECKPOINT_TRUNCATED', `trusted checkpoint ${name} covers ${cp.size} entries but the ledger has only ${total}: the ledger was truncated`, name);
  }
  if (root === undefined || !root.equals(cp.root)) {
    return f('TRUSTED_CHECKPOINT_INCONSISTENT', `the ledger's first ${cp.size} entries no longer hash to the root in trusted checkpoint ${name}: the ledger was rewritten`, name);
  }
  if (cp.size < total) {
    // The RFC 9162 §2.1.4 proof an outside party would check, built from our tree and verified.
    const proof = archive.ledger.consistencyProof(cp.size, total);
    if (!verifyConsistency(cp.size, total, cp.root, archive.ledger.root(total), proof)) {
      return f('TRUSTED_CHECKPOINT_INCONSISTENT', `no valid consistency proof from trusted checkpoint ${name} to the current ledger`, name);
    }
  }
  return f('TRUSTED_CHECKPOINT_CONSISTENT', `consistent with trusted checkpoint ${name} (size ${cp.size})`, name, 'info');
}

/**
 * The leaf index (ledger/leaves.bin) is an index, not a record: every entry is re-hashed and
 * compared with it. A leaf that differs, or leaves for entries that do not exist, fail; an index
 * that stops short (an interrupted run, or removed) is a warning: the next writer rebuilds it.
 */
class LeafIndexCheck {
  private firstMismatch: number | null = null;
  constructor(private readonly stored: Buffer | null, private readonly total: number) {}

  push(seq: number, bytes: Buffer): void {
    const s = this.stored;
    if (s === null || this.firstMismatch !== null || (seq + 1) * 32 > s.length) return;
    if (!hashLeaf(bytes).equals(s.subarray(seq * 32, (seq + 1) * 32))) this.firstMismatch = seq;
  }

  findings(): Finding[] {
    if (this.stored === null) return [];
    const count = this.stored.length / 32;
    if (this.firstMismatch !== null) {
      return [f('LEDGER_LEAVES_MISMATCH', `the leaf index (ledger/leaves.bin) says leaf ${this.firstMismatch} is not the hash of ledger entry ${this.firstMismatch}: the index or the entry was edited (a writer or \`custody rebuild\` rebuilds the index from the entries; the entries are judged above)`, `entry ${this.firstMismatch}`)];
    }
    if (count > this.total) {
      return [f('LEDGER_LEAVES_MISMATCH', `the leaf index (ledger/leaves.bin) holds ${count} leaves but the ledger has ${this.total} entries: entries were removed, or leaves were planted`, 'ledger/leaves.bin')];
    }
    if (count < this.total) {
      return [f('LEDGER_LEAVES_MISMATCH', `the leaf index (ledger/leaves.bin) holds ${count} of ${this.total} leaves (an interrupted run, or the index was removed): the next write command or \`custody rebuild\` rebuilds it`, 'ledger/leaves.bin', 'warning')];
    }
    return [];
  }
}

function f(code: Finding['code'], message: string, subject: string | null, severity: Finding['severity'] = 'error'): Finding {
  return { code, severity, message, subject };
}

function msg(e: unknown): string {
  return e instanceof CustodyError ? `${e.message} [${e.code}]` : String(e);
}
