import type { Archive } from '../app.js';
import { isSha256Hex } from '../core/sha256.js';
import { ArchiveError } from './errors.js';

export interface WithdrawResult {
  seq: number;
  sha256: string;
  items: string[];
}

/**
 * Lawful removal, in two steps that both leave a trace. `withdraw` appends a withdrawal entry
 * naming the object (bytes are shared by every item that received them, so all those items are
 * named too); `purge` later removes the bytes and appends a deletion entry for each.
 */
export async function withdraw(archive: Archive, target: string, reason: string, authority: string): Promise<WithdrawResult> {
  const sha256 = await resolveObject(archive, target);
  const object = await archive.index.getObject(sha256);
  if (object === undefined) throw new ArchiveError('NOT_FOUND', `no object ${sha256} in this archive`);
  if (object.withdrawn_seq !== null) {
    throw new ArchiveError('ALREADY_WITHDRAWN', `object ${sha256} was already withdrawn by entry ${object.withdrawn_seq}`);
  }
  const items = (await archive.index.itemsBySha256(sha256)).map((i) => i.id);
  const [stored] = await archive.commit([
    { actor: archive.config.actor, type: 'withdrawal', items, objects: [sha256], details: { reason, authority } },
  ]);
  return { seq: stored?.entry.seq ?? -1, sha256, items };
}

export async function purgeWithdrawn(archive: Archive): Promise<{ purged: { sha256: string; seq: number; withdrawal_seq: number }[] }> {
  const purged: { sha256: string; seq: number; withdrawal_seq: number }[] = [];
  for (const o of await archive.index.withdrawnObjects()) {
    // Purged once already: act again only if the same bytes were received again since.
    if (o.purged_seq !== null && !(await archive.store.has(o.sha256))) continue;
    const withdrawalSeq = o.withdrawn_seq ?? -1;
    const removed = await archive.store.purgeWithdrawn(o.sha256);
    const [stored] = await archive.commit([
      {
        actor: archive.config.actor,
        type: 'deletion',
        items: [],
        objects: [o.sha256],
        details: { withdrawal_seq: withdrawalSeq, bytes_were_present: removed },
      },
    ]);
    purged.push({ sha256: o.sha256, seq: stored?.entry.seq ?? -1, withdrawal_seq: withdrawalSeq });
  }
  return { purged };
}

/** An item id or a SHA-256 → the object's digest. */
export async function resolveObject(archive: Archive, target: string): Promise<string> {
  if (isSha256Hex(target.toLowerCase())) return target.toLowerCase();
  const item = await archive.index.getItem(target.toUpperCase());
  if (item === undefined) throw new ArchiveError('NOT_FOUND', `no item or object "${target}" in this archive`);
  return item.sha256;
}
