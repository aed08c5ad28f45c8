import type { KeyObject } from 'node:crypto';
import {
  createEd25519Verifier,
  verifyCheckpoint,
  hashLeaf,
  type JsonValue,
  hint,
} from '../core/index.js';
import type { Ledger, StoredEntry } from '../ledger/ledger.service.js';
import { fieldsOf } from '../ledger/index.js';
import { ArchiveError } from './errors.js';
import type { ArchiveManifest } from './layout.js';

/** A withdrawal as the ledger records it (never as the index says it). */
export interface WithdrawalFact {
  seq: number;
  sha256: string;
  items: string[];
  reason: string;
  authority: string;
}

export interface RemovalFacts {
  /** By object: the last withdrawal entry naming it (as the index projects it). */
  withdrawals: Map<string, WithdrawalFact>;
  /** By object: the seq of every deletion entry naming it, in order. */
  deletions: Map<string, number[]>;
}

const CHUNK = 5000;
// Canonical JSON (RFC 8785) writes `"type":"withdrawal"` only as the entry's own key and value: a
// string holding those characters would carry `\"`. So the byte search misses no entry; a line it
// finds is still parsed and checked in full.
const MARKERS = [Buffer.from('"type":"withdrawal"'), Buffer.from('"type":"deletion"')];

/**
 * Every withdrawal and deletion entry in the ledger's entries [from, to), read from the ledger
 * file itself, parsed, and each line's leaf hash checked against the Merkle tree the ledger was
 * opened with. The index is never consulted: it is only an index, and anyone with file access
 * can edit it.
 */
export async function readRemovalFacts(ledger: Pick<Ledger, 'read' | 'readRaw' | 'size'>, from = 0, to = ledger.size): Promise<RemovalFacts> {
  const facts: RemovalFacts = { withdrawals: new Map(), deletions: new Map() };
  for (let start = from; start < to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK);
    const lines = await ledger.readRaw(start, end);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line === undefined || !MARKERS.some((m) => line.includes(m))) continue;
      const [stored] = await ledger.read(start + i, start + i + 1);
      if (stored === undefined) continue;
      checkLeaf(stored);
      addFact(facts, stored);
    }
  }
  return facts;
}

/** The bytes read now must be the bytes the tree was built from when the ledger was opened. */
function checkLeaf(stored: StoredEntry): void {
  if (!hashLeaf(stored.bytes).equals(stored.leafHash)) {
    throw new ArchiveError(
      'PURGE_WITHDRAWAL_UNPROVEN',
      `ledger entry ${stored.entry.seq} changed on disk while it was being read`,
      { details: { seq: stored.entry.seq, ...hint({ remedy: ['verify'] }) } },
    );
  }
}

function addFact(facts: RemovalFacts, { entry: e }: StoredEntry): void {
  const sha = e.objects[0];
  if (sha === undefined || e.objects.length !== 1) return; // the projection refuses such entries too
  if (e.type === 'withdrawal') {
    const w = fieldsOf(e, 'withdrawal');
    facts.withdrawals.set(sha, { seq: e.seq, sha256: sha, items: e.items, reason: text(w.reason), authority: text(w.authority) });
  } else if (e.type === 'deletion') {
    facts.deletions.set(sha, [...(facts.deletions.get(sha) ?? []), e.seq]);
  }
}

function text(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

/** What `verifiedCheckpointSize` reads: the ledger's checkpoints and tree, the origin and the key. */
export interface CheckpointReads {
  readonly ledger: Pick<Ledger, 'checkpointSizes' | 'checkpointAt' | 'size' | 'root'>;
  readonly manifest: Pick<ArchiveManifest, 'origin'>;
  readonly publicKey: KeyObject;
}

/**
 * The newest signed checkpoint, checked with the key this process holds (not the verifier-key
 * file, which anyone can replace): its signature, origin and size, and that its root is the root of
 * the ledger's first `size` entries. Every entry below that size is then authenticated.
 * Returns the size, or 0 when there is none.
 */
export async function verifiedCheckpointSize(archive: CheckpointReads): Promise<number> {
  const size = (await archive.ledger.checkpointSizes()).at(-1);
  if (size === undefined) return 0;
  const note = await archive.ledger.checkpointAt(size);
  const origin = archive.manifest.origin;
  try {
    const cp = verifyCheckpoint(note ?? '', createEd25519Verifier(origin, archive.publicKey));
    if (cp.size === size && cp.origin === origin && size <= archive.ledger.size && cp.root.equals(archive.ledger.root(size))) {
      return size;
    }
  } catch {
    // falls through to the refusal below
  }
  throw new ArchiveError(
    'PURGE_CHECKPOINT_INVALID',
    `the newest checkpoint (tree size ${size}) does not verify against this ledger with the archive's key: nothing was deleted`,
    { details: { size, ...hint({ remedy: ['verify'] }) } },
  );
}
