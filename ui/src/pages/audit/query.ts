// The audit page's state lives in the URL (tab, filters, paging), so a link to "who looked at
// this item since Monday" can be shared and reloaded.

export const AUDIT_TABS = ['ledger', 'views', 'verifications'] as const;
export type AuditTab = (typeof AUDIT_TABS)[number];

export const TARGET_KINDS = ['item', 'subject', 'object'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export interface AuditQuery {
  tab: AuditTab;
  /** Ledger: entries naming this item or subject (ULIDs) or object (SHA-256). */
  target?: { kind: TargetKind; id: string };
  /** Ledger: the first entry of the page (absent: the newest page). */
  from?: number;
  /** Views: one item's views, one account's, or since a time. */
  item?: string;
  account?: string;
  since?: string;
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
const SHA256 = /^[0-9a-f]{64}$/i;
const SINCE = /^\d{4}-\d{2}-\d{2}(T[0-9:.]{2,12}Z?)?$/;

export function parseAuditQuery(search: string): AuditQuery {
  const p = new URLSearchParams(search);
  const tab = p.get('tab');
  const q: AuditQuery = {
    tab: (AUDIT_TABS as readonly string[]).includes(tab ?? '') ? (tab as AuditTab) : 'ledger',
  };
  for (const kind of TARGET_KINDS) {
    const id = validTarget(kind, p.get(`of_${kind}`) ?? '');
    if (id !== null) q.target = { kind, id };
  }
  const from = Number(p.get('from'));
  if (p.get('from') !== null && Number.isSafeInteger(from) && from >= 0) q.from = from;
  const item = p.get('item');
  if (item !== null && ULID.test(item)) q.item = item.toUpperCase();
  const account = p.get('account');
  if (account !== null && ULID.test(account)) q.account = account.toUpperCase();
  const since = p.get('since');
  if (since !== null && SINCE.test(since)) q.since = since;
  return q;
}

export function formatAuditQuery(q: AuditQuery): string {
  const p = new URLSearchParams();
  if (q.tab !== 'ledger') p.set('tab', q.tab);
  if (q.target !== undefined) p.set(`of_${q.target.kind}`, q.target.id);
  for (const k of ['from', 'item', 'account', 'since'] as const) {
    const v = q[k];
    if (v !== undefined) p.set(k, String(v));
  }
  return p.toString();
}

/** What a person typed as the id of an item, subject (ULID) or object (SHA-256), normalised; null when it is not one. */
export function validTarget(kind: TargetKind, s: string): string | null {
  const t = s.trim();
  if (kind === 'object') return SHA256.test(t) ? t.toLowerCase() : null;
  return ULID.test(t) ? t.toUpperCase() : null;
}

/** The page of `limit` entries ending at the ledger's newest (from absent), or starting at `from`. */
export function pageStart(size: number, limit: number, from: number | undefined): number {
  if (from !== undefined) return Math.min(from, Math.max(0, size - 1));
  return Math.max(0, size - limit);
}
