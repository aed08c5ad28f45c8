import { isSha256Hex, hashLeaf, hint, type OperationContext } from '../core/index.js';
import type { ArchiveIndexRepository } from '../db/archive-index.repository.js';
import { fieldsOf, type EntryDraft } from '../ledger/index.js';
import type { Ledger, StoredEntry } from '../ledger/ledger.service.js';
import { ArchiveError } from './errors.js';
import { readRemovalFacts, type WithdrawalFact } from './withdrawal-facts.js';

// The ports these functions read through, each naming only the methods it calls. An open Archive
// (src/app.ts) implements all of them as it is: the cli/ and http/ layers hand it in.

/** These methods of the index (db/archive-index.repository.ts). */
export interface IndexReads<K extends keyof ArchiveIndexRepository> {
  readonly index: Pick<ArchiveIndexRepository, K>;
}

/**
 * What `withdrawalsNow` reads: the withdrawals the index holds, and the ledger's entries past the
 * tree size that index answers at (`treeSize`: a snapshot's N, else the whole ledger).
 */
export interface WithdrawalReads<K extends keyof ArchiveIndexRepository = never> extends IndexReads<'dumpTable' | K> {
  readonly ledger: Pick<Ledger, 'read' | 'readRaw' | 'size'>;
  readonly treeSize: number;
}

/** What `withdraw` reads and writes: items, objects and their ingestion entries, then one commit. */
export interface WithdrawPorts extends IndexReads<'getObject' | 'getItem' | 'itemsBySha256'> {
  readonly ledger: Pick<Ledger, 'read' | 'size'>;
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
}

export interface WithdrawResult {
  seq: number;
  sha256: string;
  items: string[];
  /** The containers (ZIPs) that hold these bytes, withdrawn with them: one entry each. */
  containers: { seq: number; sha256: string; items: string[] }[];
}

/**
 * Lawful removal, in two steps that both leave a trace. `withdraw` appends a withdrawal entry
 * naming the object (bytes are shared by every item that received them, so all those items are
 * named too); `purge` later removes the bytes and appends a deletion entry for each.
 *
 * A container member's bytes also live inside its container's object: withdrawing a member
 * withdraws every container holding it (up to the outermost), each with its own entry that
 * names the member (`details.contains`). Which items are members of which container is read from
 * their ingestion entries in the ledger; the index only says where those entries are.
 */
export async function withdraw(
  archive: WithdrawPorts,
  ctx: Pick<OperationContext, 'actor'>,
  target: string,
  reason: string,
  authority: string,
): Promise<WithdrawResult> {
  const sha256 = await resolveObject(archive, target);
  const object = await archive.index.getObject(sha256);
  if (object === undefined) throw new ArchiveError('NOT_FOUND', `no object ${sha256} in this archive`);
  if (object.withdrawn_seq !== null) {
    throw new ArchiveError('ALREADY_WITHDRAWN', `object ${sha256} was already withdrawn by entry ${object.withdrawn_seq}`);
  }
  const items = (await archive.index.itemsBySha256(sha256)).map((i) => i.id);
  const containers = new Map<string, string[]>();
  for (const c of await containersHolding(archive, sha256)) {
    if (c === sha256 || containers.has(c)) continue;
    if ((await archive.index.getObject(c))?.withdrawn_seq != null) continue; // already withdrawn
    containers.set(c, (await archive.index.itemsBySha256(c)).map((i) => i.id));
  }
  const drafts: EntryDraft[] = [
    { actor: ctx.actor, type: 'withdrawal', items, objects: [sha256], details: { reason, authority } },
    ...[...containers].map(([c, cItems]): EntryDraft => ({
      actor: ctx.actor,
      type: 'withdrawal',
      items: cItems,
      objects: [c],
      details: { reason, authority, contains: sha256, why: 'the container holds withdrawn bytes' },
    })),
  ];
  const stored = await archive.commit(drafts);
  return {
    seq: stored[0]?.entry.seq ?? -1,
    sha256,
    items,
    containers: stored.slice(1).map((s) => ({ seq: s.entry.seq, sha256: s.entry.objects[0] ?? '', items: s.entry.items })),
  };
}

/**
 * The objects of every container (at any depth) that holds an item with these bytes, from the
 * items' ingestion entries (`details.parent`) and their containers' ingestion entries. An index
 * row that points at an entry saying something else is refused (WITHDRAW_CONTAINER_UNPROVEN):
 * a withdrawal that spreads to a container on the index's word could erase unrelated evidence.
 */
export async function containersHolding(
  archive: Omit<WithdrawPorts, 'commit'>,
  sha256: string,
): Promise<string[]> {
  const out = new Set<string>();
  const seen = new Set<string>();
  for (const item of await archive.index.itemsBySha256(sha256)) {
    let fact = await ingestionFact(archive, item.id, sha256);
    while (fact.parent !== null && !seen.has(fact.parent)) {
      seen.add(fact.parent);
      fact = await ingestionFact(archive, fact.parent, null);
      out.add(fact.sha256);
    }
  }
  return [...out];
}

/** An item's ingestion entry, read from the ledger at the seq the index gives, and checked. */
async function ingestionFact(archive: Omit<WithdrawPorts, 'commit'>, itemId: string, sha256: string | null): Promise<{ sha256: string; parent: string | null }> {
  const row = await archive.index.getItem(itemId);
  const unproven = (why: string): ArchiveError =>
    new ArchiveError('WITHDRAW_CONTAINER_UNPROVEN', `item ${itemId}: ${why}; the index and the ledger disagree (nothing was recorded)`, { details: { item: itemId, ...hint({ remedy: ['verify'] }) } });
  if (row === undefined) throw unproven('its container is not in the index');
  if (row.seq < 0 || row.seq >= archive.ledger.size) throw unproven(`the index places its ingestion at entry ${row.seq}, beyond the ledger`);
  const [s] = await archive.ledger.read(row.seq, row.seq + 1);
  if (s === undefined || !hashLeaf(s.bytes).equals(s.leafHash)) throw unproven(`entry ${row.seq} cannot be read as it was hashed`);
  const e = s.entry;
  const object = e.objects[0];
  if (e.type !== 'ingestion' || e.items[0] !== itemId || object === undefined || (sha256 !== null && object !== sha256)) {
    throw unproven(`entry ${row.seq} is not its ingestion`);
  }
  const parent = fieldsOf(e, 'ingestion').parent;
  return { sha256: object, parent: typeof parent === 'string' ? parent : null };
}

/** An item id or a SHA-256 → the object's digest. */
export async function resolveObject(archive: IndexReads<'getItem'>, target: string): Promise<string> {
  if (isSha256Hex(target.toLowerCase())) return target.toLowerCase();
  const item = await archive.index.getItem(target.toUpperCase());
  if (item === undefined) throw new ArchiveError('NOT_FOUND', `no item or object "${target}" in this archive`);
  return item.sha256;
}

/**
 * Every withdrawal that applies now, by object: those the (snapshot's) index holds and any the
 * ledger recorded after the snapshot's tree size (a court order does not wait for a checkpoint).
 */
export async function withdrawalsNow(archive: WithdrawalReads): Promise<Map<string, WithdrawalFact>> {
  const out = new Map<string, WithdrawalFact>();
  for (const r of await archive.index.dumpTable('withdrawals')) {
    out.set(String(r.sha256), { seq: Number(r.seq), sha256: String(r.sha256), items: [], reason: String(r.reason), authority: String(r.authority) });
  }
  const tail = await readRemovalFacts(archive.ledger, archive.treeSize, archive.ledger.size);
  for (const [sha, w] of tail.withdrawals) if (!out.has(sha)) out.set(sha, w);
  return out;
}

/**
 * Reads of an object's content or of what was extracted from it (previews, EXIF, GPS) stop at its
 * withdrawal: ITEM_WITHDRAWN. The ledger keeps the extraction entries (see the README).
 */
export async function assertNotWithdrawn(archive: WithdrawalReads<'getObject'>, sha256: string, what: string): Promise<void> {
  const w = (await withdrawalsNow(archive)).get(sha256);
  if (w === undefined) return;
  const purged = (await archive.index.getObject(sha256))?.purged_seq ?? null;
  throw new ArchiveError(
    'ITEM_WITHDRAWN',
    `object ${sha256} was withdrawn by ledger entry ${w.seq}${purged === null ? '' : ` and purged by entry ${purged}`}: its ${what} is not shown`,
    { details: { sha256, withdrawal_seq: w.seq, purged_seq: purged } },
  );
}
