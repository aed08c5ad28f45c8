import {
  canonicalBytes,
  parseCanonical,
  signCheckpoint,
  type NoteSigner,
  type NoteVerifier,
  hashLeaf,
  MerkleTree,
  hint,
} from '../core/index.js';
import { encodeIntent } from './batch-intent.js';
import type { BatchIntentSlots } from './batch-intent.adapter.js';
import type { CheckpointFiles } from './checkpoint-files.adapter.js';
import { formatLedgerTime, parseEntry, type EntryDraft, type LedgerEntry } from './entry.js';
import { LedgerError } from './errors.js';
import type { LedgerFile } from './ledger-file.adapter.js';
import { authenticateTail } from './tail-authentication.js';

/** Test-only fault injection points inside the ledger (SIGKILL at the nth pass). */
export type LedgerCrashPoint = 'intent-written' | 'checkpoint-written';

/** Checkpoints are signed at least this often during long runs (and at the end of each command). */
export const CHECKPOINT_INTERVAL = 10_000;

export interface LedgerDeps {
  file: LedgerFile;
  tree: MerkleTree;
  checkpoints: CheckpointFiles;
  origin: string;
  clock: () => number;
  /** Absent when the archive is opened read-only or without the key passphrase. */
  signer: NoteSigner | null;
}

/** What a writer needs besides the signer: to authenticate what it finds and announce what it writes. */
export interface LedgerWriterDeps {
  verifier: NoteVerifier;
  intents: BatchIntentSlots;
  /** HMAC key for batch intents, derived from the signing key (batch-intent.ts). */
  intentKey: Buffer;
  /** Where signed checkpoints are also published, outside the archive (null: nowhere). */
  published: CheckpointFiles | null;
  crash: (point: LedgerCrashPoint) => void;
  /**
   * Open even when the tail cannot be authenticated, for `custody tail --set-aside` only: the
   * ledger then refuses every append and signature until the tail is set aside.
   */
  allowUnauthenticatedTail?: boolean;
}

export interface StoredEntry {
  entry: LedgerEntry;
  bytes: Buffer;
  leafHash: Buffer;
}

/**
 * The custody log: an RFC 9162 Merkle tree over the canonical bytes of each entry.
 * Entry `seq` equals its leaf index. Appending is the only way to change it.
 */
export class Ledger {
  private lastTime: number;
  private lastCheckpointSize: number;
  /**
   * Entries [0, authenticatedSize) are ones this process wrote or proved were written by the
   * key holder (a verified checkpoint, or a batch intent). Nothing beyond it is ever signed.
   */
  private authenticatedSize: number;
  /** Warnings about what opening found (an interrupted run's intent), for the command to print. */
  readonly warnings: string[] = [];

  constructor(
    private readonly deps: LedgerDeps,
    lastTime: number,
    lastCheckpointSize: number,
    private readonly writer: LedgerWriterDeps | null = null,
    authenticatedSize = 0,
  ) {
    this.lastTime = lastTime;
    this.lastCheckpointSize = lastCheckpointSize;
    this.authenticatedSize = authenticatedSize;
  }

  /** Entries after the last signed checkpoint that nothing authenticates (set by an open with allowUnauthenticatedTail). */
  get unauthenticatedTail(): { from: number; to: number } | null {
    return this.authenticatedSize < this.size ? { from: this.authenticatedSize, to: this.size } : null;
  }

  get size(): number {
    return this.deps.tree.size;
  }

  /** Bytes after the last complete entry (an append cut short by power loss), ignored. */
  get tornTailBytes(): number {
    return this.deps.file.tornTail;
  }

  get origin(): string {
    return this.deps.origin;
  }

  root(size = this.size): Buffer {
    return this.deps.tree.root(size);
  }

  /**
   * Assigns seq and time, writes and fsyncs the entries. Returns them as written.
   * Order: the batch intent is made durable first, then the entries (O_APPEND, after checking
   * that the file is as this writer left it), so a crash at any point leaves either no new
   * entries or entries an intent authenticates.
   */
  async append(drafts: readonly EntryDraft[]): Promise<StoredEntry[]> {
    const writer = this.requireWriter('append to the ledger');
    const stored: StoredEntry[] = [];
    let seq = this.size;
    for (const d of drafts) {
      const now = Math.max(this.deps.clock(), this.lastTime); // never earlier than the last entry
      this.lastTime = now;
      const entry: LedgerEntry = {
        seq: seq++,
        time: formatLedgerTime(now),
        actor: d.actor,
        type: d.type,
        items: d.items,
        objects: d.objects,
        details: d.details,
      };
      const bytes = canonicalBytes(entry);
      stored.push({ entry, bytes, leafHash: hashLeaf(bytes) });
    }
    if (stored.length === 0) return stored;
    const baseSize = this.size;
    const newRoot = this.deps.tree.rootWith(stored.map((s) => s.leafHash));
    await writer.intents.write(
      encodeIntent(
        { origin: this.deps.origin, baseSize, baseRoot: this.root(), leaves: stored.map((s) => s.leafHash), newSize: baseSize + stored.length, newRoot },
        writer.intentKey,
      ),
    );
    writer.crash('intent-written');
    await this.deps.file.append(stored.map((s) => s.bytes));
    for (const s of stored) this.deps.tree.append(s.leafHash);
    this.authenticatedSize = this.size;
    if (this.size - this.lastCheckpointSize >= CHECKPOINT_INTERVAL) await this.checkpoint();
    return stored;
  }

  /**
   * Signs and stores a checkpoint for the current size, unless one exists; publishes it where
   * configured; then empties the batch-intent slots it covers. Returns the note. Signs only
   * what this process wrote or authenticated, and only while the file is as it left it.
   */
  async checkpoint(): Promise<string | null> {
    if (this.size === 0) return null;
    const existing = await this.deps.checkpoints.read(this.size);
    if (existing !== null) {
      await this.publish(this.size, existing);
      return existing;
    }
    if (this.deps.signer === null) {
      throw new LedgerError('LEDGER_NO_CHECKPOINT', 'cannot sign a checkpoint: the signing key is not open');
    }
    const writer = this.requireWriter('sign a checkpoint');
    await this.deps.file.assertUnchanged();
    const note = signCheckpoint(
      { origin: this.deps.origin, size: this.size, root: this.root(), extensions: [] },
      this.deps.signer,
    );
    await this.deps.checkpoints.write(this.size, note);
    this.lastCheckpointSize = this.size;
    writer.crash('checkpoint-written');
    await writer.intents.clear();
    await this.publish(this.size, note);
    return note;
  }

  /**
   * Copies a signed checkpoint to the publication folder, if one is configured. A failure there
   * (the second disk is not mounted) does not undo anything: it is a warning, and
   * `custody checkpoint --publish DIR` catches up later.
   */
  private async publish(size: number, note: string): Promise<void> {
    const published = this.writer?.published ?? null;
    if (published === null) return;
    try {
      const there = await published.read(size).catch(() => null);
      if (there === null) {
        await published.ensureDir();
        await published.write(size, note);
      }
      else if (there !== note) this.warnings.push(`the published copy of checkpoint ${size} differs from the archive's: see \`custody verify --trusted-checkpoint\``);
    } catch (e) {
      this.warnings.push(`could not publish checkpoint ${size}: ${(e as Error).message}; run \`custody checkpoint --publish DIR\` when the folder is reachable`);
    }
  }

  /**
   * Sets aside an unauthenticated tail: cuts the ledger back to the last authenticated entry and
   * returns the exact bytes removed, for the caller to keep in a side file and record in the
   * ledger. Only possible on a ledger opened with allowUnauthenticatedTail.
   */
  async setAsideTail(): Promise<{ from: number; to: number; bytes: Buffer }> {
    const tail = this.unauthenticatedTail;
    if (tail === null) throw new LedgerError('LEDGER_NO_UNAUTHENTICATED_TAIL', 'every entry after the last signed checkpoint is authenticated: there is nothing to set aside');
    const bytes = await this.deps.file.truncateTo(tail.from);
    const kept = new MerkleTree();
    for (let i = 0; i < tail.from; i++) kept.append(this.deps.tree.leafHash(i));
    this.deps.tree = kept;
    return { ...tail, bytes };
  }

  private requireWriter(what: string): LedgerWriterDeps {
    if (this.writer === null || this.deps.signer === null) {
      throw new LedgerError('LEDGER_NO_CHECKPOINT', `cannot ${what}: the archive is open read-only`);
    }
    const tail = this.unauthenticatedTail;
    if (tail !== null) {
      throw new LedgerError('LEDGER_TAIL_UNAUTHENTICATED', `cannot ${what}: entries ${tail.from}..${tail.to - 1} are not authenticated`, { details: { ...tail, ...hint({ remedy: ['set-aside-tail'] }) } });
    }
    return this.writer;
  }

  async checkpointAt(size: number): Promise<string | null> {
    return this.deps.checkpoints.read(size);
  }

  async checkpointSizes(): Promise<number[]> {
    return this.deps.checkpoints.sizes();
  }

  /** The exact bytes of entries [from, to), unparsed (for verification, which judges them itself). */
  async readRaw(from: number, to = this.size): Promise<Buffer[]> {
    return this.deps.file.readRange(from, to);
  }

  /** Entries [from, to), parsed and checked, with their exact bytes and leaf hashes. */
  async read(from: number, to = this.size): Promise<StoredEntry[]> {
    const lines = await this.deps.file.readRange(from, to);
    return lines.map((bytes, i) => {
      const entry = parseEntry(parseCanonical(bytes), from + i);
      return { entry, bytes, leafHash: this.deps.tree.leafHash(from + i) };
    });
  }

  inclusionProof(seq: number, size = this.size): Buffer[] {
    if (!Number.isSafeInteger(seq) || seq < 0 || seq >= size || size > this.size) {
      throw new LedgerError('LEDGER_BAD_RANGE', `no entry ${seq} in a tree of size ${size} (ledger size ${this.size})`);
    }
    return this.deps.tree.inclusionProof(seq, size);
  }

  consistencyProof(oldSize: number, newSize = this.size): Buffer[] {
    if (!Number.isSafeInteger(oldSize) || oldSize < 1 || oldSize > newSize || newSize > this.size) {
      throw new LedgerError('LEDGER_BAD_RANGE', `no consistency proof from ${oldSize} to ${newSize} (ledger size ${this.size})`);
    }
    return this.deps.tree.consistencyProof(oldSize, newSize);
  }

  async close(): Promise<void> {
    await this.deps.file.close();
    await this.writer?.intents.close();
  }
}

/**
 * Opens the ledger file, rebuilding the Merkle tree from it in one streaming pass. A writer
 * (`writer` given) then authenticates everything it found before it may append or sign:
 * see tail-authentication.ts. Refuses with LEDGER_TAIL_UNAUTHENTICATED, LEDGER_CHECKPOINT_*,
 * LEDGER_TRUNCATED or LEDGER_ROLLED_BACK, having written nothing.
 */
export async function loadLedger(
  open: (onLine: (line: Buffer, index: number) => void) => Promise<LedgerFile>,
  deps: Omit<LedgerDeps, 'file' | 'tree'>,
  writer: LedgerWriterDeps | null = null,
): Promise<Ledger> {
  const tree = new MerkleTree();
  let last: Buffer | null = null;
  const file = await open((line) => {
    tree.append(hashLeaf(line));
    last = line;
  });
  let lastTime = 0;
  // Only a writer needs the last entry's time; a reader (verify) must not fail on a bad line.
  if (last !== null && deps.signer !== null) {
    const entry = parseEntry(parseCanonical(last), tree.size - 1);
    lastTime = Date.parse(entry.time);
  }
  const sizes = await deps.checkpoints.sizes();
  if (writer === null || deps.signer === null) return new Ledger({ ...deps, file, tree }, lastTime, sizes.at(-1) ?? 0);
  try {
    const auth = await authenticateTail({
      tree,
      origin: deps.origin,
      verifier: writer.verifier,
      checkpoints: deps.checkpoints,
      published: writer.published,
      intentSlots: await writer.intents.readAll(),
      intentKey: writer.intentKey,
    });
    if (auth.unauthenticated !== null && writer.allowUnauthenticatedTail !== true) {
      const { from, to } = auth.unauthenticated;
      throw new LedgerError(
        'LEDGER_TAIL_UNAUTHENTICATED',
        `entries ${from}..${to - 1} follow the last signed checkpoint (size ${from}) and no batch intent of this archive's key announces them: Custody did not write them, or their record was removed. Nothing was written or signed.`,
        { details: { ...auth.unauthenticated, ...hint({ remedy: ['inspect-tail'] }) } },
      );
    }
    if (auth.restore !== null) await deps.checkpoints.write(auth.restore.size, auth.restore.note);
    if (auth.slotInForce !== null) writer.intents.inForce(auth.slotInForce);
    const ledger = new Ledger({ ...deps, file, tree }, lastTime, Math.max(sizes.at(-1) ?? 0, auth.checkpointSize), writer, auth.unauthenticated?.from ?? tree.size);
    ledger.warnings.push(...auth.warnings);
    return ledger;
  } catch (e) {
    await file.close();
    await writer.intents.close();
    throw e;
  }
}
