import { listPreviews, removePreviews, type RemovedPreview } from '../analysis/image/preview-cache.adapter.js';
import { ArchiveError } from './errors.js';
import { readRemovalFacts, verifiedCheckpointSize, type RemovalFacts, type WithdrawalFact } from './withdrawal-facts.js';
import { containersHolding } from './withdrawal.service.js';
import { hint, type OperationContext } from '../core/index.js';
import type { Config } from '../config/index.js';
import type { ArchiveIndexRepository } from '../db/archive-index.repository.js';
import type { EntryDraft } from '../ledger/index.js';
import type { Ledger, StoredEntry } from '../ledger/ledger.service.js';
import type { FsObjectStore } from '../store/fs-store.adapter.js';
import type { CheckpointReads } from './withdrawal-facts.js';

/**
 * What a purge reads and writes: the ledger (its removal entries, checkpoints, a new signature),
 * the index's withdrawals and ingestions, the store's bytes and the previews folder, one commit
 * per deletion. An open Archive implements it as it is.
 */
export interface PurgePorts extends CheckpointReads {
  readonly index: Pick<ArchiveIndexRepository, 'withdrawnObjects' | 'getObject' | 'getItem' | 'itemsBySha256'>;
  readonly ledger: CheckpointReads['ledger'] & Pick<Ledger, 'read' | 'readRaw' | 'size' | 'checkpoint'>;
  readonly store: Pick<FsObjectStore, 'has' | 'purgeWithdrawn'>;
  readonly config: Pick<Config, 'archiveDir'>;
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
}

export interface PurgeResult {
  purged: { sha256: string; seq: number; withdrawal_seq: number; bytes_were_present: boolean; previews: RemovedPreview[] }[];
  /** Withdrawn objects left alone, and why (their bytes also live in a container not withdrawn). */
  refused: { sha256: string; withdrawal_seq: number; code: 'PURGE_CONTAINER_NOT_WITHDRAWN'; containers: string[]; message: string }[];
  /** The signed checkpoint every acted-on withdrawal precedes; `signed_now` when purge signed it. */
  checkpoint: { size: number; signed_now: boolean };
}

/**
 * `purge --withdrawn`: removes the bytes and the derived previews of withdrawn objects, one
 * deletion entry each, listing the previews removed. It acts only on the ledger's facts:
 *
 * 1. The withdrawal and deletion entries are read from the ledger file itself and their leaf
 *    hashes checked against the tree. The index must agree exactly (every object it marks as
 *    withdrawn has that withdrawal in the ledger, and the other way round); otherwise nothing is
 *    deleted (PURGE_WITHDRAWAL_UNPROVEN, PURGE_INDEX_MISMATCH).
 * 2. Every withdrawal acted on precedes a signed checkpoint verified with the key this process
 *    holds; if one does not yet, a checkpoint is signed first (the ledger refuses to sign a tail it
 *    cannot authenticate).
 * 3. An object whose bytes also live in a container that is not withdrawn is left alone and
 *    reported (PURGE_CONTAINER_NOT_WITHDRAWN): deleting it would leave its bytes in the store.
 *
 * Running it twice is harmless: an object already purged is acted on again only if its bytes or
 * previews are back.
 */
export async function purgeWithdrawn(archive: PurgePorts, ctx: Pick<OperationContext, 'actor'>): Promise<PurgeResult> {
  const facts = await readRemovalFacts(archive.ledger);
  await checkIndexAgrees(archive, facts);
  const checkpoint = await ensureCovered(archive, facts);
  const result: PurgeResult = { purged: [], refused: [], checkpoint };
  // Every check first (a ledger read that fails stops the purge before anything is deleted).
  const toPurge: WithdrawalFact[] = [];
  for (const w of facts.withdrawals.values()) {
    const hasBytes = await archive.store.has(w.sha256);
    const previews = await listPreviews(archive.config.archiveDir, w.sha256);
    // Purged once already: act again only if the same bytes (or their previews) came back.
    if (facts.deletions.has(w.sha256) && !hasBytes && previews.length === 0) continue;
    const holders = (await containersHolding(archive, w.sha256)).filter((c) => !facts.withdrawals.has(c));
    if (holders.length === 0) {
      toPurge.push(w);
      continue;
    }
    result.refused.push({
      sha256: w.sha256,
      withdrawal_seq: w.seq,
      code: 'PURGE_CONTAINER_NOT_WITHDRAWN',
      containers: holders.sort(),
      message: `object ${w.sha256} also lives inside container object(s) ${holders.join(', ')}, which are not withdrawn`,
    });
  }
  for (const w of toPurge) result.purged.push(await purgeOne(archive, ctx, w));
  return result;
}

async function purgeOne(archive: PurgePorts, ctx: Pick<OperationContext, 'actor'>, w: WithdrawalFact): Promise<PurgeResult['purged'][number]> {
  const present = await archive.store.purgeWithdrawn(w.sha256);
  const previews = await removePreviews(archive.config.archiveDir, w.sha256);
  const [stored] = await archive.commit([
    {
      actor: ctx.actor,
      type: 'deletion',
      items: [],
      objects: [w.sha256],
      details: {
        withdrawal_seq: w.seq,
        bytes_were_present: present,
        previews: previews.map((p) => ({ path: p.path, sha256: p.sha256 })),
      },
    },
  ]);
  return { sha256: w.sha256, seq: stored?.entry.seq ?? -1, withdrawal_seq: w.seq, bytes_were_present: present, previews };
}

/** The index is only an index: any disagreement about withdrawals stops the purge before it starts. */
async function checkIndexAgrees(archive: PurgePorts, facts: RemovalFacts): Promise<void> {
  const claimed = await archive.index.withdrawnObjects();
  const unproven = claimed.filter((o) => facts.withdrawals.get(o.sha256)?.seq !== o.withdrawn_seq);
  if (unproven.length > 0) {
    const list = unproven.map((o) => `${o.sha256} (entry ${String(o.withdrawn_seq)})`).join(', ');
    throw new ArchiveError(
      'PURGE_WITHDRAWAL_UNPROVEN',
      `the index marks ${list} as withdrawn, but the ledger holds no such withdrawal entry: nothing was deleted`,
      { details: { objects: unproven.map((o) => ({ sha256: o.sha256, withdrawn_seq: o.withdrawn_seq })), ...hint({ remedy: ['verify'] }) } },
    );
  }
  const indexed = new Set(claimed.map((o) => o.sha256));
  const missing = [...facts.withdrawals.values()].filter((w) => !indexed.has(w.sha256));
  if (missing.length > 0) {
    throw new ArchiveError(
      'PURGE_INDEX_MISMATCH',
      `the ledger withdraws ${missing.map((w) => `${w.sha256} (entry ${w.seq})`).join(', ')}, which the index does not show: nothing was deleted`,
      { details: { objects: missing.map((w) => ({ sha256: w.sha256, seq: w.seq })), ...hint({ remedy: ['verify', 'rebuild'] }) } },
    );
  }
}

/** Every withdrawal precedes a verified signed checkpoint; signs one first if needed. */
async function ensureCovered(archive: PurgePorts, facts: RemovalFacts): Promise<PurgeResult['checkpoint']> {
  const latest = Math.max(-1, ...[...facts.withdrawals.values()].map((w) => w.seq));
  const size = await verifiedCheckpointSize(archive);
  if (latest < size) return { size, signed_now: false };
  await archive.ledger.checkpoint();
  const signed = await verifiedCheckpointSize(archive);
  if (latest >= signed) {
    throw new ArchiveError('PURGE_CHECKPOINT_INVALID', `withdrawal entry ${latest} is not covered by a signed checkpoint: nothing was deleted`);
  }
  return { size: signed, signed_now: true };
}
