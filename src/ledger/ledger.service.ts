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
import { formatLedgerTime, parseEntry, type LedgerEntry } from './entry.js';
import type { EntryDraft } from './entry-details.js';
import { LedgerError } from './errors.js';
import type { FileIdentity, LeafIndex } from './leaf-index.adapter.js';
import type { LedgerFile } from './ledger-file.adapter.js';
import { treeMatchesSignedRoot } from './signed-root.js';
import { authenticateTail } from './tail-authentication.js';

/** One record of the leaf index: a SHA-256 leaf hash (as leaf-index.adapter.ts stores them). */
const LEAF_SIZE = 32;

/** Test-only fault injection points inside the ledger (SIGKILL at the nth pass). */
export type LedgerCrashPoint = 'intent-written' | 'entries-appended' | 'checkpoint-written';

/** How many of the newest checkpoints an open tries before it stops trusting the leaf index. */
const LEAF_INDEX_CHECKPOINT_TRIES = 4;

export interface LedgerDeps {
  file: LedgerFile;
  tree: MerkleTree;
  checkpoints: CheckpointFiles;
  origin: string;
  clock: () => number;
  /** Absent when the archive is opened read-only or without the key passphrase. */
  signer: NoteSigner | null;
  /** The archive's checkpoint key, for readers and writers alike (signed-root.ts). */
  verifier: NoteVerifier;
  /** The leaf index beside the ledger (null: none, every open hashes every entry). */
  leaves: LeafIndex | null;
  /** The RFC 9162 leaf hash (a port so that tests can count how many entries an open hashes). */
  hashLeaf?: (bytes: Buffer) => Buffer;
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
  /** The leaf index missed a write (disk full): rewritten whole at the next checkpoint. */
  private leavesStale = false;
  private readonly hash: (bytes: Buffer) => Buffer;

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
    this.hash = deps.hashLeaf ?? hashLeaf;
  }

  /** The size of the newest checkpoint this ledger signed or found. */
  get signedSize(): number {
    return this.lastCheckpointSize;
  }

  /** The shared index-integrity rule (signed-root.ts) applied to this ledger's tree. */
  matchesSignedRoot(size: number, note: string | null, verifier: NoteVerifier, origin: string): boolean {
    return treeMatchesSignedRoot(this.deps.tree, size, note, verifier, origin);
  }

  leafHash(seq: number): Buffer {
    return this.deps.tree.leafHash(seq);
  }

  /** The leaf index's bytes as stored (untrusted; for `custody verify`), or null without one. */
  async storedLeaves(): Promise<Buffer | null> {
    return this.deps.leaves === null ? null : this.deps.leaves.read();
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
   * entries or entries an intent authenticates. When to sign is LedgerWriter's cadence.
   * `onStaged` is given the entries as they will be written (seq, time, bytes, leaf hash) before
   * anything is: what is derived from them may be prepared meanwhile, never committed before
   * this resolves.
   */
  async append(drafts: readonly EntryDraft[], onStaged?: (stored: readonly StoredEntry[]) => void): Promise<StoredEntry[]> {
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
      stored.push({ entry, bytes, leafHash: this.hash(bytes) });
    }
    if (stored.length === 0) return stored;
    onStaged?.(stored);
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
    writer.crash('entries-appended');
    for (const s of stored) this.deps.tree.append(s.leafHash);
    this.authenticatedSize = this.size;
    // The leaves the intent announced, in the leaf index. Not fsynced here (sync at each
    // checkpoint): a leaf lost to a crash is re-hashed from its entry at the next open.
    if (this.deps.leaves !== null && !this.leavesStale) {
      await this.deps.leaves.append(baseSize, stored.map((s) => s.leafHash)).catch(() => {
        this.leavesStale = true;
      });
    }
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
      if (this.writer !== null && this.deps.signer !== null && this.unauthenticatedTail === null) await this.stampLeaves(this.writer);
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
    await this.stampLeaves(writer);
    await this.publish(this.size, note);
    return note;
  }

  /**
   * Makes the leaf index durable and stamps the ledger file as this writer leaves it, so that the
   * next writer may use the index without re-hashing (leaf-index.adapter.ts). When someone else
   * wrote to the file since this writer last did, the stamp is emptied instead.
   */
  private async stampLeaves(writer: LedgerWriterDeps): Promise<void> {
    const leaves = this.deps.leaves;
    if (leaves === null) return;
    try {
      if (this.leavesStale) {
        await leaves.writeFrom(0, this.allLeaves(0));
        this.leavesStale = false;
      }
      await leaves.sync();
      const identity: FileIdentity | null = await this.deps.file.unchangedSinceKnown();
      if (identity === null) await leaves.clearStamp();
      else await leaves.writeStamp(identity, writer.intentKey);
    } catch (e) {
      this.warnings.push(`could not update the leaf index (${(e as Error).message}): the next open re-hashes the ledger`);
    }
  }

  private allLeaves(from: number): Buffer[] {
    const out: Buffer[] = [];
    for (let i = from; i < this.size; i++) out.push(this.deps.tree.leafHash(i));
    return out;
  }

  /**
   * `custody rebuild`: re-hashes every entry, checks it against the tree, and writes the leaf
   * index anew from the entries. Refuses (LEDGER_LEAVES_MISMATCH) when an entry no longer hashes
   * to its authenticated leaf: the ledger was edited, and that is for `custody verify` to show.
   */
  async rewriteLeafIndex(): Promise<number> {
    const writer = this.requireWriter('rewrite the leaf index');
    const leaves = this.deps.leaves;
    if (leaves === null) return 0;
    for (let from = 0; from < this.size; from += 5000) {
      const to = Math.min(this.size, from + 5000);
      this.checkLeaves(from, await this.deps.file.readRange(from, to));
    }
    try {
      await leaves.writeFrom(0, this.allLeaves(0));
      this.leavesStale = false;
    } catch (e) {
      this.warnings.push(`could not write the leaf index ${leaves.path} (${(e as Error).message}): opens re-hash the ledger until it is written`);
      return 0;
    }
    await this.stampLeaves(writer);
    return this.size;
  }

  /**
   * A read handle takes in the entries appended since it opened or last refreshed, hashing only
   * their bytes (they are the unsigned tail: the leaf index may not hold them yet, and would be
   * no more trustworthy if it did). Returns how many it took in.
   */
  async refresh(): Promise<number> {
    if (this.writer !== null) throw new Error('a writer knows what it wrote: refresh() is for read handles');
    return this.deps.file.refresh((line) => this.deps.tree.append(this.hash(line)));
  }

  /** Throws LEDGER_LEAVES_MISMATCH unless entries [from, from + lines.length) hash to their leaves. */
  private checkLeaves(from: number, lines: readonly Buffer[]): void {
    for (const [i, bytes] of lines.entries()) {
      if (!this.hash(bytes).equals(this.deps.tree.leafHash(from + i))) {
        throw new LedgerError(
          'LEDGER_LEAVES_MISMATCH',
          `ledger entry ${from + i} does not hash to its leaf in the signed tree: the entry (or the leaf index) was edited after it was written; nothing is read from it`,
          { details: { seq: from + i, ...hint({ remedy: ['verify'] }) } },
        );
      }
    }
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
    await this.deps.leaves?.writeFrom(tail.from, []).catch(() => {
      this.leavesStale = true;
    });
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

  /**
   * Entries [from, to), parsed and checked, with their exact bytes and leaf hashes. Each entry's
   * bytes must hash to its leaf in the tree (LEDGER_LEAVES_MISMATCH otherwise): the tree is what
   * the signed roots authenticate, so nothing read through here is an edit made after signing.
   */
  async read(from: number, to = this.size): Promise<StoredEntry[]> {
    const lines = await this.deps.file.readRange(from, to);
    this.checkLeaves(from, lines);
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
    await this.deps.leaves?.close();
  }
}

/**
 * Opens the ledger file and builds its Merkle tree in one streaming pass: from the leaf index up
 * to the newest size whose signed checkpoint root it reproduces (signed-root.ts), and by hashing
 * the entries after that (the unsigned tail, or everything when the index fails the check). A
 * writer also needs the index's stamp to hold (the file unchanged since the last writer signed),
 * and repairs the index from its tree once it has authenticated the tail. A writer (`writer`
 * given) then authenticates everything it found before it may append or sign: see
 * tail-authentication.ts. Refuses with LEDGER_TAIL_UNAUTHENTICATED, LEDGER_CHECKPOINT_*,
 * LEDGER_TRUNCATED or LEDGER_ROLLED_BACK, having written nothing.
 */
export async function loadLedger(
  open: (onLine: (line: Buffer, index: number) => void, beforeScan: (identity: FileIdentity) => Promise<void>) => Promise<LedgerFile>,
  deps: Omit<LedgerDeps, 'file' | 'tree'>,
  writer: LedgerWriterDeps | null = null,
): Promise<Ledger> {
  const hash = deps.hashLeaf ?? hashLeaf;
  let tree = new MerkleTree();
  let stored: Buffer = Buffer.alloc(0);
  /** Leaves [0, fromIndex) came from the leaf index; later ones are hashed from the entries. */
  let fromIndex = 0;
  const file = await open(
    (line, index) => {
      if (index >= fromIndex) tree.append(hash(line));
    },
    async (identity) => {
      if (deps.leaves === null) return;
      stored = await deps.leaves.read();
      if (writer !== null && !(await deps.leaves.stampMatches(identity, writer.intentKey))) return;
      const trusted = await trustedLeafPrefix(stored, deps);
      tree = trusted.tree;
      fromIndex = trusted.tree.size;
    },
  );
  if (file.length < fromIndex) {
    // Fewer entries than the signed tree the index reproduces: entries were removed. Hash what
    // is there, as without an index, for tail authentication (or verify) to say so.
    tree = new MerkleTree();
    for (const line of await file.readRange(0, file.length)) tree.append(hash(line));
    fromIndex = 0;
  }
  let lastTime = 0;
  // Only a writer needs the last entry's time; a reader (verify) must not fail on a bad line.
  const [last] = file.length > 0 && deps.signer !== null ? await file.readRange(file.length - 1, file.length) : [];
  if (last !== undefined) {
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
    const warnings = [...auth.warnings];
    if (auth.unauthenticated === null && deps.leaves !== null) {
      // The index is never what stops a writer: a link or a FIFO in its place, a full disk.
      await repairLeafIndex(deps.leaves, stored, tree, fromIndex).catch((e: unknown) => {
        warnings.push(`could not rebuild the leaf index (${(e as Error).message}): opens re-hash the ledger until it is; \`custody rebuild\` makes it again`);
      });
    }
    const ledger = new Ledger({ ...deps, file, tree }, lastTime, Math.max(sizes.at(-1) ?? 0, auth.checkpointSize), writer, auth.unauthenticated?.from ?? tree.size);
    ledger.warnings.push(...warnings);
    return ledger;
  } catch (e) {
    await file.close();
    await writer.intents.close();
    await deps.leaves?.close();
    throw e;
  }
}

/**
 * The longest prefix of the stored leaves that a signed checkpoint vouches for: the newest
 * checkpoint within the index whose signature verifies and whose root the index's leaves give
 * at its size (signed-root.ts). Anything else yields an empty tree: the entries are hashed.
 */
async function trustedLeafPrefix(stored: Buffer, deps: Omit<LedgerDeps, 'file' | 'tree'>): Promise<{ tree: MerkleTree }> {
  const count = stored.length / LEAF_SIZE;
  const candidates = (await deps.checkpoints.sizes()).filter((s) => s <= count).slice(-LEAF_INDEX_CHECKPOINT_TRIES).reverse();
  const newest = candidates[0];
  if (newest === undefined) return { tree: new MerkleTree() };
  const tree = new MerkleTree();
  for (let i = 0; i < newest; i++) tree.append(stored.subarray(i * LEAF_SIZE, (i + 1) * LEAF_SIZE));
  for (const size of candidates) {
    const note = await deps.checkpoints.read(size).catch(() => null);
    if (!treeMatchesSignedRoot(tree, size, note, deps.verifier, deps.origin)) continue;
    if (size === tree.size) return { tree };
    const shorter = new MerkleTree();
    for (let i = 0; i < size; i++) shorter.append(tree.leafHash(i));
    return { tree: shorter };
  }
  return { tree: new MerkleTree() };
}

/** Makes the leaf index say exactly the tree's leaves, rewriting from the first one that differs. */
async function repairLeafIndex(leaves: LeafIndex, stored: Buffer, tree: MerkleTree, from: number): Promise<void> {
  const count = stored.length / LEAF_SIZE;
  let m = from;
  while (m < Math.min(count, tree.size) && stored.subarray(m * LEAF_SIZE, (m + 1) * LEAF_SIZE).equals(tree.leafHash(m))) m++;
  if (m === tree.size && count === tree.size) return;
  const missing: Buffer[] = [];
  for (let i = m; i < tree.size; i++) missing.push(tree.leafHash(i));
  await leaves.writeFrom(m, missing);
}
