import { useCallback, useState } from 'react';
import { useSession } from '../session/session';
import { recordReveal } from './store';

// An image is blurred and greyscale until revealed, and a reveal is remembered for that image
// during the browser session (sessionStorage: gone when the tab closes). Each reveal is counted
// for the account's "revealed today" (store.ts). Shared by the item page, the subject page and
// the examination contact sheets.
const KEY = 'custody.revealed';

function read(): Set<string> {
  try {
    const v: unknown = JSON.parse(window.sessionStorage.getItem(KEY) ?? '[]');
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Whether this image was revealed in this session, and the setter (a reveal is counted). */
export function useRevealed(itemId: string): [boolean, (on: boolean) => void] {
  const { session } = useSession();
  const [revealed, setState] = useState(() => read().has(itemId));
  const set = useCallback(
    (on: boolean) => {
      const all = read();
      if (on) all.add(itemId);
      else all.delete(itemId);
      window.sessionStorage.setItem(KEY, JSON.stringify([...all]));
      if (on) recordReveal(session.account, itemId);
      setState(on);
    },
    [itemId, session.account],
  );
  return [read().has(itemId) || revealed, set];
}
