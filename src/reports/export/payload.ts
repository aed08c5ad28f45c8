import type { Archive } from '../../app.js';
import type { ItemsTable } from '../../db/schema.js';
import { itemBagPath } from './bagit.js';
import type { BagWriter } from './bag-writer.adapter.js';
import { blurredPreview, isImage } from './previews.adapter.js';
import type { Withdrawal } from './select.js';
import type { ExportedItem } from './tables.js';

/** A withheld.json record (LAYOUT.md): what is not in the bag as received, and why. */
export interface Withheld {
  kind: 'withdrawn' | 'substituted' | 'withheld' | 'ledger-entry';
  item?: string;
  sha256?: string;
  /** A ledger entry left out of ledger.jsonl. */
  seq?: number;
  reason: string;
  authority?: string;
  withdrawal_seq?: number;
  preview_path?: string;
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
 * withdrawn ones are only listed.
 */
export async function copyPayload(
  snapshot: Archive,
  bag: BagWriter,
  chosen: readonly ItemsTable[],
  withdrawn: readonly { item: ItemsTable; withdrawal: Withdrawal }[],
  blurImages: boolean,
): Promise<{ exported: ExportedItem[]; substituted: Substitution[]; withheld: Withheld[] }> {
  const size = snapshot.treeSize;
  const sources = new Map((await snapshot.index.listDeliveries()).map((d) => [d.id, d.source]));
  const withheld: Withheld[] = withdrawn.map(({ item, withdrawal: w }) => ({
    kind: 'withdrawn',
    item: item.id,
    sha256: item.sha256,
    reason: `withdrawn by ledger entry ${w.seq}${w.seq >= size ? ' (after this checkpoint)' : ''}: ${w.reason}`,
    authority: w.authority,
    withdrawal_seq: w.seq,
  }));
  const substituted: Substitution[] = [];
  const exported: ExportedItem[] = [];
  for (const item of chosen) {
    const source = sources.get(item.delivery_id) ?? '';
    if (blurImages && isImage(item)) {
      const preview = await blurredPreview(snapshot, item);
      if (preview === null) {
        withheld.push({
          kind: 'withheld',
          item: item.id,
          sha256: item.sha256,
          reason: '--blur-images: the image cannot be decoded, so no preview could stand in for it',
        });
        continue;
      }
      const bagPath = `data/previews/${item.id}.webp`;
      const previewSha = await bag.copyFile(bagPath, preview, null);
      const reason =
        '--redact --blur-images: a blurred greyscale preview stands in for the image; the original digest is in the entry';
      substituted.push({ item: item.id, sha256: item.sha256, preview_sha256: previewSha });
      withheld.push({
        kind: 'substituted',
        item: item.id,
        sha256: item.sha256,
        preview_path: bagPath,
        preview_sha256: previewSha,
        reason,
      });
      exported.push({ item, bagPath, source, withheld: reason });
      continue;
    }
    const bagPath = itemBagPath(item.id, item.name);
    await bag.copyFile(bagPath, snapshot.store.pathOf(item.sha256), item.sha256);
    exported.push({ item, bagPath, source, withheld: null });
  }
  return { exported, substituted, withheld };
}
