// An examiner's unfinished form, kept in this browser only (localStorage), keyed by account, plan
// and case, deleted on submission and after DRAFT_RETENTION_DAYS. The server never sees a draft.
import type { FormState } from './types';

export const DRAFT_RETENTION_DAYS = 14;
const PREFIX = 'custody.draft.';
const DAY_MS = 86_400_000;

export interface Draft {
  saved_at: string;
  form: FormState;
  /** The photographs (ordinals) seen revealed at full resolution. */
  opened: number[];
}

export function draftKey(account: string, plan: string, code: string): string {
  return `${PREFIX}${account}.${plan}.${code}`;
}

export function loadDraft(key: string): Draft | null {
  try {
    const v = JSON.parse(window.localStorage.getItem(key) ?? 'null') as Draft | null;
    if (v === null || typeof v.saved_at !== 'string' || typeof v.form !== 'object') return null;
    return { ...v, opened: Array.isArray(v.opened) ? v.opened.filter(Number.isInteger) : [] };
  } catch {
    return null;
  }
}

export function saveDraft(key: string, form: FormState, opened: readonly number[]): string {
  const saved_at = new Date().toISOString();
  window.localStorage.setItem(key, JSON.stringify({ saved_at, form, opened: [...opened] }));
  return saved_at;
}

export function clearDraft(key: string): void {
  window.localStorage.removeItem(key);
}

/** Deletes every draft older than the retention (run when the examination pages open). */
export function expireDrafts(now = Date.now()): void {
  const store = window.localStorage;
  for (let i = store.length - 1; i >= 0; i--) {
    const key = store.key(i);
    if (key === null || !key.startsWith(PREFIX)) continue;
    const d = loadDraft(key);
    if (d === null || now - Date.parse(d.saved_at) > DRAFT_RETENTION_DAYS * DAY_MS)
      store.removeItem(key);
  }
}

/**
 * Deletes `account`'s drafts of cases that are no longer its to answer: submitted, unassigned, or
 * of a plan it no longer has (`open` holds `${plan}.${code}` of the cases still to submit). Run
 * when the queue has loaded; other accounts' drafts are left alone.
 */
export function discardClosedDrafts(account: string, open: ReadonlySet<string>): void {
  const store = window.localStorage;
  const mine = `${PREFIX}${account}.`;
  for (let i = store.length - 1; i >= 0; i--) {
    const key = store.key(i);
    if (key === null || !key.startsWith(mine)) continue;
    if (!open.has(key.slice(mine.length))) store.removeItem(key);
  }
}
