import { parseCanonical, type JsonValue, hashLeaf, sha256, toHex, hint } from '../core/index.js';
import type { EntryDraft } from './entry-details.js';
import { LedgerError } from './errors.js';
import type { Ledger, StoredEntry } from './ledger.service.js';

/** One line of an unsigned tail, described without trusting it. */
export interface TailLine {
  seq: number;
  leaf_hash: string;
  bytes: number;
  /** The parsed entry's type, actor and time where the line parses; null where it does not. */
  type: string | null;
  actor: string | null;
  time: string | null;
  /** The exact line, for a person to read (it may be anything: it was not written by Custody). */
  text: string;
}

export interface TailReport {
  /** The newest signed checkpoint's size: everything before it is covered by a signature. */
  checkpoint_size: number;
  ledger_size: number;
  lines: TailLine[];
}

/** The entries after the newest signed checkpoint, read raw (`custody tail`). Modifies nothing. */
export async function describeTail(ledger: Ledger, from?: number): Promise<TailReport> {
  const checkpointSize = from ?? (await ledger.checkpointSizes()).at(-1) ?? 0;
  const raw = await ledger.readRaw(checkpointSize, ledger.size);
  return { checkpoint_size: checkpointSize, ledger_size: ledger.size, lines: raw.map((b, i) => describeLine(b, checkpointSize + i)) };
}

export interface SetAsidePorts {
  ledger: Ledger;
  /** Keeps the removed bytes in a side file inside the archive, durably, before anything is cut. Returns its path relative to the archive. */
  keepSideFile: (name: string, bytes: Buffer) => Promise<string>;
  /** Replays the (now shorter) ledger into a fresh index. */
  rebuildIndex: () => Promise<unknown>;
  commit: (drafts: readonly EntryDraft[]) => Promise<StoredEntry[]>;
}

export interface SetAsideResult extends TailReport {
  file: string;
  sha256: string;
  entry: number;
}

/**
 * `custody tail --set-aside`: moves an unauthenticated tail out of the ledger, recorded.
 * The exact bytes go to a side file first (nothing is destroyed: a court may want to see what
 * was planted), then the ledger is cut back to the last authenticated entry, the index is rebuilt
 * from what remains, and a `quarantine` entry records the range, each line's leaf hash, the side
 * file's digest and the operator's reason. The command's checkpoint then signs that entry.
 */
export async function setAsideTail(ports: SetAsidePorts, ctx: { actor: string; reason: string; now: Date }): Promise<SetAsideResult> {
  const tail = ports.ledger.unauthenticatedTail;
  if (tail === null) {
    throw new LedgerError('LEDGER_NO_UNAUTHENTICATED_TAIL', 'every entry after the last signed checkpoint is authenticated: there is nothing to set aside');
  }
  const report = await describeTail(ports.ledger, tail.from);
  const raw = await ports.ledger.readRaw(tail.from, tail.to);
  const bytes = Buffer.concat(raw.flatMap((b) => [b, Buffer.from('\n')]));
  const stamp = ctx.now.toISOString().replace(/[:.]/g, '-');
  const file = await ports.keepSideFile(`${String(tail.from).padStart(16, '0')}-${String(tail.to).padStart(16, '0')}-${stamp}.jsonl`, bytes);
  const removed = await ports.ledger.setAsideTail();
  if (!removed.bytes.equals(bytes)) {
    throw new LedgerError('LEDGER_CHANGED_UNDER_WRITER', 'the tail changed while it was being set aside; the side file keeps what was read', { details: hint({ remedy: ['verify'] }) });
  }
  await ports.rebuildIndex();
  const [stored] = await ports.commit([
    {
      actor: ctx.actor,
      type: 'quarantine',
      items: [],
      objects: [],
      details: {
        action: 'ledger tail set aside',
        from: tail.from,
        to: tail.to,
        entries: tail.to - tail.from,
        leaf_hashes: report.lines.map((l) => l.leaf_hash),
        file,
        sha256: toHex(sha256(bytes)),
        reason: ctx.reason,
      },
    },
  ]);
  return { ...report, file, sha256: toHex(sha256(bytes)), entry: stored?.entry.seq ?? -1 };
}

function describeLine(bytes: Buffer, seq: number): TailLine {
  let parsed: JsonValue = null;
  try {
    parsed = parseCanonical(bytes);
  } catch {
    parsed = null;
  }
  const o = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  const text = (k: string): string | null => (typeof o[k] === 'string' ? o[k] : null);
  return {
    seq,
    leaf_hash: toHex(hashLeaf(bytes)),
    bytes: bytes.length,
    type: text('type'),
    actor: text('actor'),
    time: text('time'),
    text: bytes.toString('utf8'),
  };
}
