import { useCallback } from 'react';
import { useSession } from '../session/session';
import { changed, recordReveal, useVersion } from './store';

// An image is blurred and greyscale until revealed, and a reveal is remembered for that image
// during the browser session (sessionStorage: gone when the tab closes). Each reveal is counted
// for the account's "revealed today" (store.ts). Shared by the item page, the subject page and
// the examination contact sheets. Kept per account: another person signing in in the same tab
// starts with every image blurred again.
const key = (account: string): string => `custody.revealed.${account}`;

function read(account: string): Set<string> {
  try {
    const v: unknown = JSON.parse(window.sessionStorage.getItem(key(account)) ?? '[]');
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Whether this image was revealed in this session, and the setter (a reveal is counted). */
export function useRevealed(itemId: string): [boolean, (on: boolean) => void] {
  const { session } = useSession();
  const account = session.account;
  useVersion();
  const set = useCallback(
    (on: boolean) => {
      const all = read(account);
      if (on) all.add(itemId);
      else all.delete(itemId);
      window.sessionStorage.setItem(key(account), JSON.stringify([...all]));
      if (on) recordReveal(account, itemId);
      changed();
    },
    [itemId, account],
  );
  return [read(account).has(itemId), set];
}
