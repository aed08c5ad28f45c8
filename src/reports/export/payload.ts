import type { ItemsTable } from '../../db/index.js';
import { itemBagPath } from './bagit.js';
import type { BagWriter } from './bag-writer.adapter.js';
import { withheldContainers } from './containers.js';
import type { IndexReads, StoreReads } from './ports.js';
import { blurredPreview, isImage, type PreviewReads } from './previews.adapter.js';
import type { Withdrawal } from './select.js';
import type { ExportedItem } from './tables.js';

/**
 * A custody/withheld.json record (LAYOUT.md): an item not in the bag as received, and why.
 * `item_id`, `reason` and `substitute` are what verify-export reads; the rest say more.
 */
export interface Withheld {
  item_id: string;
  reason: string;
  /** The bag path of what stands in for the item (its preview), or null. */
  substitute: string | null;
  /** withdrawn: not exported at all; substituted: a preview in its place; withheld: no file. */
  kind: 'withdrawn' | 'substituted' | 'withheld';
  /** The original's digest (the ledger's). */
  sha256: string;
  authority?: string;
  withdrawal_seq?: number;
  preview_sha256?: string;
}

export interface Substitution {
  item: string;
  sha256: string;
  preview_sha256: string;
}

/**
 * data/items/ (and data/previews/ under --blur-images): each chosen item's bytes, streamed from
 * the store and re-hashed against the ledger's digest, or its blurred preview in its place. The
 * withdrawn ones are only listed in withheld.json: no row, no file, no proof.
 */
/** Evidence files copied at once: enough to overlap I/O with hashing on two cores. */
const COPIES_IN_FLIGHT = 4;

export async function copyPayload(
  snapshot: PreviewReads & IndexReads<'listItems' | 'listDeliveries'> & StoreReads<'openRead'> & { readonly treeSize: number },
  bag: BagWriter,
  chosen: readonly ItemsTable[],
  withdrawn: readonly { item: ItemsTable; withdrawal: Withdrawal }[],
  blurImages: boolean,
  withdrawnObjects: ReadonlySet<string>,
): Promise<{ exported: ExportedItem[]; substituted: Substitution[]; withheld: Withheld[] }> {
  const size = snapshot.treeSize;
  const containers = await withheldContainers(snapshot, chosen, withdrawnObjects, blurImages);
  const sources = new Map((await snapshot.index.listDeliveries()).map((d) => [d.id, d.source]));
  const withheld: Withheld[] = withdrawn.map(({ item, withdrawal: w }) => ({
    item_id: item.id,
    substitute: null,
    kind: 'withdrawn',
    sha256: item.sha256,
    reason: `withdrawn by ledger entry ${w.seq}${w.seq >= size ? ' (after this checkpoint)' : ''}: ${w.reason}`,
    authority: w.authority,
    withdrawal_seq: w.seq,
  }));
  const substituted: Substitution[] = [];
  const exported: ExportedItem[] = [];
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  for (const item of chosen) {
    const source = sources.get(item.delivery_id) ?? '';
    const containerReason = containers.get(item.id);
    if (containerReason !== undefined) {
      // Its row, entry and proof travel; its bytes, which hold the members', do not.
      withheld.push({ item_id: item.id, reason: containerReason, substitute: null, kind: 'withheld', sha256: item.sha256 });
      exported.push({ item, bagPath: null, source, withheld: containerReason });
      continue;
    }
    if (blurImages && isImage(item)) {
      const preview = await blurredPreview(snapshot, item);
      if (preview === null) {
        // Withheld outright: no file, but its row, entry and proof still travel.
        const reason =
          '--blur-images: the image cannot be decoded, so no preview can stand in for it';
        withheld.push({
          item_id: item.id,
          reason,
          substitute: null,
          kind: 'withheld',
          sha256: item.sha256,
        });
        exported.push({ item, bagPath: null, source, withheld: reason });
        continue;
      }
      const bagPath = `data/previews/${item.id}.webp`;
      const previewSha = await bag.copyFile(bagPath, preview, null);
      const reason =
        '--redact --blur-images: a blurred greyscale preview stands in for the image; the original digest is in the entry';
      substituted.push({ item: item.id, sha256: item.sha256, preview_sha256: previewSha });
      withheld.push({
        item_id: item.id,
        reason,
        substitute: bagPath,
        kind: 'substituted',
        sha256: item.sha256,
        preview_sha256: previewSha,
      });
      exported.push({ item, bagPath, source, withheld: reason });
      continue;
    }
    const bagPath = itemBagPath(item.id, item.name);
    // A few files in flight, so reading, hashing and writing overlap; rows stay in order.
    if (inFlight.size >= COPIES_IN_FLIGHT) await Promise.race(inFlight);
    if (failure !== null) break;
    const copy: Promise<void> = bag
      .copyFile(bagPath, () => snapshot.store.openRead(item.sha256), item.sha256)
      .then(
        () => undefined,
        (e: unknown) => {
          failure ??= { error: e };
        },
      )
      .finally(() => inFlight.delete(copy));
    inFlight.add(copy);
    exported.push({ item, bagPath, source, withheld: null });
  }
  await Promise.all(inFlight);
  if (failure !== null) throw (failure as { error: unknown }).error;
  return { exported, substituted, withheld };
}
