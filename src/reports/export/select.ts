import { withdrawalsNow, type WithdrawalReads } from '../../archive/withdrawal.service.js';
import type { ItemsTable } from '../../db/index.js';
import { ExportError } from './errors.js';
import type { ExaminationReads, IndexReads } from './ports.js';
import type { SelectionTerm } from './selection.js';

/** A lawful withdrawal that keeps an item out of every export. */
export interface Withdrawal {
  seq: number;
  sha256: string;
  reason: string;
  authority: string;
}

/**
 * The items a selection names at the snapshot's tree size, in ledger order, less the withdrawn
 * ones. `withdrawals` covers the whole ledger, not just the snapshot: an item withdrawn after
 * the checkpoint is still kept out (a court order does not wait for the next export).
 */
export async function resolveSelection(
  snapshot: IndexReads<'listItems' | 'getItem' | 'getDelivery' | 'getSubject' | 'subjectItems' | 'listDeliveries'> &
    ExaminationReads<'findSample' | 'members'> & { readonly treeSize: number },
  terms: readonly SelectionTerm[],
  withdrawals: ReadonlyMap<string, Withdrawal>,
): Promise<{ items: ItemsTable[]; withdrawn: { item: ItemsTable; withdrawal: Withdrawal }[] }> {
  const chosen = new Map<string, ItemsTable>();
  const add = (list: readonly ItemsTable[]): void => {
    for (const i of list) chosen.set(i.id, i);
  };
  const at = `at tree size ${snapshot.treeSize}`;
  for (const term of terms) {
    switch (term.kind) {
      case 'all':
        add(await snapshot.index.listItems());
        break;
      case 'items': {
        const found = await Promise.all(term.ids.map((id) => snapshot.index.getItem(id)));
        const missing = term.ids.filter((_, k) => found[k] === undefined);
        if (missing.length > 0) throw notFound(`no item ${missing.join(', ')} ${at}`);
        add(found.filter((i): i is ItemsTable => i !== undefined));
        break;
      }
      case 'delivery':
        if ((await snapshot.index.getDelivery(term.id)) === undefined)
          throw notFound(`no delivery ${term.id} ${at}`);
        add(await snapshot.index.listItems({ deliveryId: term.id }));
        break;
      case 'subjects':
        for (const id of term.ids) {
          if ((await snapshot.index.getSubject(id)) === undefined)
            throw notFound(`no subject ${id} ${at}`);
          const links = await snapshot.index.subjectItems(id);
          add(
            (await Promise.all(links.map((l) => snapshot.index.getItem(l.item_id)))).filter(
              (i): i is ItemsTable => i !== undefined,
            ),
          );
        }
        break;
      case 'sample': {
        const sample =
          (await snapshot.examinations.findSample(term.id)) ??
          (await snapshot.examinations.findSample(term.id.toUpperCase()));
        if (sample === undefined) throw notFound(`no sample ${term.id} ${at}`);
        for (const m of await snapshot.examinations.members(sample.id)) {
          const ids =
            sample.unit_kind === 'items'
              ? [m.member_id]
              : (await snapshot.index.subjectItems(m.member_id)).map((l) => l.item_id);
          add(
            (await Promise.all(ids.map((id) => snapshot.index.getItem(id)))).filter(
              (i): i is ItemsTable => i !== undefined,
            ),
          );
        }
        break;
      }
      case 'source': {
        const deliveries = (await snapshot.index.listDeliveries()).filter(
          (d) => d.source === term.codename,
        );
        if (deliveries.length === 0)
          throw notFound(`no delivery from source ${term.codename} ${at}`);
        for (const d of deliveries) add(await snapshot.index.listItems({ deliveryId: d.id }));
        break;
      }
    }
  }
  const items: ItemsTable[] = [];
  const withdrawn: { item: ItemsTable; withdrawal: Withdrawal }[] = [];
  for (const item of [...chosen.values()].sort((a, b) => a.seq - b.seq)) {
    const w = withdrawals.get(item.sha256);
    if (w === undefined) items.push(item);
    else withdrawn.push({ item, withdrawal: w });
  }
  return { items, withdrawn };
}

function notFound(message: string): ExportError {
  return new ExportError('EXPORT_NOT_FOUND', message);
}

/** Every lawful withdrawal in the whole ledger, by object: those in the snapshot and any since. */
export async function withdrawals(snapshot: WithdrawalReads): Promise<Map<string, Withdrawal>> {
  const out = new Map<string, Withdrawal>();
  for (const [sha, w] of await withdrawalsNow(snapshot)) {
    out.set(sha, { seq: w.seq, sha256: w.sha256, reason: w.reason, authority: w.authority });
  }
  return out;
}
