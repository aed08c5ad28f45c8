// "Views are evidence too" (issue 12): every download of an original and every unblurred
// rendition is a ledger entry naming the account. Image views are recorded once per (account,
// item, hour, action), so that tile requests do not flood the ledger; which hours are recorded is
// read from the index (projected from the ledger), so a restart does not record them again.
import type { EntryDraft } from '../ledger/index.js';
import type { ViewsTable } from '../db/index.js';

export const VIEW_ACTIONS = ['view.original', 'view.unblurred', 'view.rendition'] as const;
export type ViewAction = (typeof VIEW_ACTIONS)[number];

/** What recording and listing views needs: the index's view rows and the ledger's commit. */
export interface ViewPorts {
  viewRecorded(k: { actor: string; item: string; hour: string; action: string }): Promise<boolean>;
  views(f: { item?: string; actor?: string; since?: string; limit: number }): Promise<ViewsTable[]>;
  commit(drafts: readonly EntryDraft[]): Promise<unknown>;
}

export interface ViewContext {
  readonly actor: string;
  readonly clock: () => Date;
}

/** The UTC hour a view falls in: 'YYYY-MM-DDTHH'. */
export function viewHour(at: Date): string {
  return at.toISOString().slice(0, 13);
}

/**
 * Records one view unless this account's view of this item, by this action, is already recorded
 * for the current hour. Callers run it in the writer's queue, so two requests of one hour cannot
 * both find it missing. Returns whether an entry was appended.
 */
export async function recordView(
  ports: ViewPorts,
  ctx: ViewContext,
  view: { action: ViewAction; item: string; sha256: string; size?: number },
): Promise<boolean> {
  const hour = viewHour(ctx.clock());
  const key = { actor: ctx.actor, item: view.item, hour, action: view.action };
  if (await ports.viewRecorded(key)) return false;
  await ports.commit([
    {
      actor: ctx.actor,
      type: 'dissemination',
      items: [view.item],
      objects: [view.sha256],
      details: {
        action: view.action,
        hour,
        ...(view.size === undefined ? {} : { size: view.size }),
      },
    },
  ]);
  return true;
}

export interface ViewRow {
  seq: number;
  time: string;
  hour: string;
  account: string;
  action: string;
  item: string | null;
  sha256: string | null;
}

/** Who saw what, and when: newest first. */
export async function listViews(
  ports: Pick<ViewPorts, 'views'>,
  filter: { item?: string; account?: string; since?: string; limit: number },
): Promise<ViewRow[]> {
  const rows = await ports.views({
    limit: filter.limit,
    ...(filter.item === undefined ? {} : { item: filter.item }),
    ...(filter.account === undefined ? {} : { actor: filter.account }),
    ...(filter.since === undefined ? {} : { since: filter.since }),
  });
  return rows.map((r) => ({
    seq: r.seq,
    time: r.time,
    hour: r.hour,
    account: r.actor,
    action: r.action,
    item: r.item_id,
    sha256: r.sha256,
  }));
}
