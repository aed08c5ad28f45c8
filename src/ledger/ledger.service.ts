import { canonicalBytes, parseCanonical } from '../core/canonical-json.js';
import { signCheckpoint, type NoteSigner } from '../core/checkpoint.js';
import { hashLeaf, MerkleTree } from '../core/merkle.js';
import type { CheckpointFiles } from './checkpoint-files.adapter.js';
import { formatLedgerTime, parseEntry, type EntryDraft, type LedgerEntry } from './entry.js';
import { LedgerError } from './errors.js';
import type { LedgerFile } from './ledger-file.adapter.js';

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

  constructor(
    private readonly deps: LedgerDeps,
    lastTime: number,
    lastCheckpointSize: number,
  ) {
    this.lastTime = lastTime;
    this.lastCheckpointSize = lastCheckpointSize;
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

  /** Assigns seq and time, writes and fsyncs the entries. Returns them as written. */
  async append(drafts: readonly EntryDraft[]): Promise<StoredEntry[]> {
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
    await this.deps.file.append(stored.map((s) => s.bytes));
    for (const s of stored) this.deps.tree.append(s.leafHash);
    if (this.size - this.lastCheckpointSize >= CHECKPOINT_INTERVAL) await this.checkpoint();
    return stored;
  }

  /** Signs and stores a checkpoint for the current size, unless one exists. Returns the note. */
  async checkpoint(): Promise<string | null> {
    if (this.size === 0) return null;
    const existing = await this.deps.checkpoints.read(this.size);
    if (existing !== null) return existing;
    if (this.deps.signer === null) {
      throw new LedgerError('LEDGER_NO_CHECKPOINT', 'cannot sign a checkpoint: the signing key is not open');
    }
    const note = signCheckpoint(
      { origin: this.deps.origin, size: this.size, root: this.root(), extensions: [] },
      this.deps.signer,
    );
    await this.deps.checkpoints.write(this.size, note);
    this.lastCheckpointSize = this.size;
    return note;
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
  }
}

/** Opens the ledger file, rebuilding the Merkle tree from it in one streaming pass. */
export async function loadLedger(
  open: (onLine: (line: Buffer, index: number) => void) => Promise<LedgerFile>,
  deps: Omit<LedgerDeps, 'file' | 'tree'>,
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
  return new Ledger({ ...deps, file, tree }, lastTime, sizes.at(-1) ?? 0);
}
