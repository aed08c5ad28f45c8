import type { ItemsTable } from '../../db/index.js';
import type { IndexReads } from './ports.js';
import { isImage } from './previews.adapter.js';

/**
 * Which chosen containers (items with members: ZIPs) must stay out of the bag, and why. A
 * container's bytes hold every member's bytes, so it travels only if each of its members, at any
 * depth, travels as itself too: selected, not withdrawn (also after the checkpoint), and not
 * replaced by a blurred preview (--blur-images). Otherwise the container would carry what the
 * export leaves out. Members come from the snapshot, i.e. the ledger's ingestion entries.
 */
export async function withheldContainers(
  snapshot: IndexReads<'listItems'>,
  chosen: readonly ItemsTable[],
  withdrawn: ReadonlySet<string>,
  blurImages: boolean,
): Promise<Map<string, string>> {
  const children = new Map<string, ItemsTable[]>();
  for (const delivery of new Set(chosen.map((i) => i.delivery_id))) {
    for (const i of await snapshot.index.listItems({ deliveryId: delivery })) {
      if (i.parent_id === null) continue;
      children.set(i.parent_id, [...(children.get(i.parent_id) ?? []), i]);
    }
  }
  const selected = new Set(chosen.map((i) => i.id));
  const out = new Map<string, string>();
  const why = (member: ItemsTable, seen: Set<string>): string | null => {
    if (withdrawn.has(member.sha256)) return `member ${member.id} is withdrawn`;
    if (!selected.has(member.id)) return `member ${member.id} is not selected`;
    if (blurImages && isImage(member)) return `member ${member.id} is an image blurred under --blur-images`;
    return blockedBy(member, seen);
  };
  const blockedBy = (container: ItemsTable, seen: Set<string>): string | null => {
    if (seen.has(container.id)) return null;
    seen.add(container.id);
    for (const m of children.get(container.id) ?? []) {
      const reason = why(m, seen);
      if (reason !== null) return reason;
    }
    return null;
  };
  for (const item of chosen) {
    if (!children.has(item.id)) continue;
    const reason = blockedBy(item, new Set());
    if (reason !== null) {
      out.set(item.id, `container withheld: ${reason}, and the container's bytes hold the member's`);
    }
  }
  return out;
}
